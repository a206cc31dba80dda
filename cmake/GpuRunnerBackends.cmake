# Which backends to build, and which one build/bin/gpu-runner is.
#
# The CUDA backend needs the toolkit's headers to build and nothing to start
# (the driver is loaded at run time); the HIP backend likewise needs only
# HIP's headers (libamdhip64-dev). Sets GPU_RUNNER_ENABLE_CUDA,
# GPU_RUNNER_ENABLE_HIP, GPU_RUNNER_HIP_INCLUDE_DIR and
# GPU_RUNNER_DEFAULT_BACKEND_RESOLVED.

find_package(CUDAToolkit QUIET)
option(GPU_RUNNER_ENABLE_CUDA "Build gpu-runner-cuda" ${CUDAToolkit_FOUND})
if(GPU_RUNNER_ENABLE_CUDA AND NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR "GPU_RUNNER_ENABLE_CUDA is on, but no CUDA toolkit was "
    "found; set CUDAToolkit_ROOT to its folder")
endif()
if(GPU_RUNNER_ENABLE_CUDA)
  message(STATUS "Building gpu-runner-cuda with the CUDA toolkit in "
    "${CUDAToolkit_BIN_DIR}")
else()
  message(STATUS "Not building gpu-runner-cuda: no CUDA toolkit found")
endif()

find_path(GPU_RUNNER_HIP_INCLUDE_DIR hip/hip_runtime_api.h
  PATHS /usr/include /opt/rocm/include)
if(GPU_RUNNER_HIP_INCLUDE_DIR)
  set(hip_found ON)
else()
  set(hip_found OFF)
endif()
option(GPU_RUNNER_ENABLE_HIP "Build gpu-runner-hip" ${hip_found})
if(GPU_RUNNER_ENABLE_HIP AND NOT hip_found)
  message(FATAL_ERROR "GPU_RUNNER_ENABLE_HIP is on, but hip/hip_runtime_api.h "
    "was not found; install libamdhip64-dev")
endif()
if(GPU_RUNNER_ENABLE_HIP)
  message(STATUS "Building gpu-runner-hip with HIP's headers in "
    "${GPU_RUNNER_HIP_INCLUDE_DIR}")
else()
  message(STATUS "Not building gpu-runner-hip: no HIP headers found")
endif()

# build/bin/gpu-runner: the CUDA binary where a CUDA device answers at
# configure time, else the host one, so that it runs on any machine.
set(GPU_RUNNER_DEFAULT_BACKEND "" CACHE STRING
  "The backend that build/bin/gpu-runner runs on: host or cuda (empty: cuda \
where configure finds a working driver and device, else host)")
set_property(CACHE GPU_RUNNER_DEFAULT_BACKEND PROPERTY STRINGS "" host cuda)
set(GPU_RUNNER_DEFAULT_BACKEND_RESOLVED ${GPU_RUNNER_DEFAULT_BACKEND})
if(NOT GPU_RUNNER_DEFAULT_BACKEND_RESOLVED)
  set(GPU_RUNNER_DEFAULT_BACKEND_RESOLVED host)
  if(GPU_RUNNER_ENABLE_CUDA)
    try_run(cuda_probe_status cuda_probe_compiled
      ${PROJECT_BINARY_DIR}/cuda-probe
      ${CMAKE_CURRENT_LIST_DIR}/ProbeCudaDevice.c
      CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CUDAToolkit_INCLUDE_DIRS}"
      LINK_LIBRARIES ${CMAKE_DL_LIBS})
    if(cuda_probe_compiled AND cuda_probe_status EQUAL 0)
      set(GPU_RUNNER_DEFAULT_BACKEND_RESOLVED cuda)
    endif()
  endif()
endif()
if(GPU_RUNNER_DEFAULT_BACKEND_RESOLVED STREQUAL "cuda" AND
   NOT GPU_RUNNER_ENABLE_CUDA)
  message(FATAL_ERROR "GPU_RUNNER_DEFAULT_BACKEND=cuda needs the CUDA backend")
elseif(NOT GPU_RUNNER_DEFAULT_BACKEND_RESOLVED MATCHES "^(host|cuda)$")
  message(FATAL_ERROR "GPU_RUNNER_DEFAULT_BACKEND must be host or cuda, not "
    "'${GPU_RUNNER_DEFAULT_BACKEND_RESOLVED}'")
endif()
message(STATUS "build/bin/gpu-runner is gpu-runner-${GPU_RUNNER_DEFAULT_BACKEND_RESOLVED}")
