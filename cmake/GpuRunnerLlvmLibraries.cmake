# What our code links for LLVM and MLIR: GPU_RUNNER_LLVM_LIBS (code that
# uses MLIR), GPU_RUNNER_LLVM_SUPPORT_LIBS (code that uses LLVM alone),
# GPU_RUNNER_MLIR_SUPPORT_LIBS (MLIR's support archive, for the runner's
# --split-input-file: the members it needs use LLVM alone, where linking
# libMLIR would load all of MLIR on every run) and GPU_RUNNER_RUNTIME_LIBS
# (the MLIR runner utilities and async runtime, where a binary links them).
#
# Day to day the shared libLLVM and libMLIR: links take seconds. The static
# archives (GPU_RUNNER_LINK_LLVM_STATICALLY) make binaries that need neither
# library, for a machine without LLVM 22. The MLIR runner utilities and
# async runtime exist only as shared libraries: the runner loads them when a
# program needs them (runner/Jit.cpp), but a static runner, and the fuzzer,
# link them, by name, so that scripts/device-bundle can ship them next to
# the binaries ($ORIGIN/../lib) instead of the build taking them from LLVM's
# folder.

option(GPU_RUNNER_LINK_LLVM_STATICALLY
  "Link the runner binaries against the static LLVM/MLIR archives, so that \
they run where LLVM 22 is not installed (scripts/device-bundle)" OFF)

if(GPU_RUNNER_LINK_LLVM_STATICALLY)
  file(GLOB GPU_RUNNER_LLVM_LIBS
    ${LLVM_LIBRARY_DIR}/libMLIR*.a ${LLVM_LIBRARY_DIR}/libLLVM*.a)
  # Archives only give the members a link needs; the test and C API
  # archives are left out because nothing of ours may need them.
  list(FILTER GPU_RUNNER_LLVM_LIBS EXCLUDE REGEX "/libMLIR(Test|CAPI)[^/]*[.]a$")
  list(FILTER GPU_RUNNER_LLVM_LIBS EXCLUDE REGEX "TestPasses[.]a$")
  # What the archives need of the system; Debian ships no static zstd.
  list(APPEND GPU_RUNNER_LLVM_LIBS
    "-Wl,--push-state,--as-needed" z -l:libzstd.so.1 rt dl m "-Wl,--pop-state")
  set(GPU_RUNNER_LLVM_SUPPORT_LIBS ${GPU_RUNNER_LLVM_LIBS})
  # Already among the archives above.
  set(GPU_RUNNER_MLIR_SUPPORT_LIBS "")
  set(GPU_RUNNER_RUNTIME_LIBS "-L${LLVM_LIBRARY_DIR}"
    -lmlir_runner_utils -lmlir_c_runner_utils -lmlir_async_runtime)
  set(Boost_USE_STATIC_LIBS ON)
  add_compile_options(-ffunction-sections -fdata-sections)
  # lld does not care about the order of hundreds of archives, and links
  # them in a fraction of the time and memory of ld.bfd.
  add_link_options(-fuse-ld=lld LINKER:--gc-sections)
else()
  set(GPU_RUNNER_LLVM_LIBS MLIR LLVM)
  # What code that does not use MLIR links: libLLVM alone.
  set(GPU_RUNNER_LLVM_SUPPORT_LIBS LLVM)
  # The static archive: libMLIR is what a run found in the cache never
  # loads.
  set(GPU_RUNNER_MLIR_SUPPORT_LIBS MLIRSupport)
  set(GPU_RUNNER_RUNTIME_LIBS mlir_runner_utils mlir_c_runner_utils
    mlir_async_runtime)
endif()
