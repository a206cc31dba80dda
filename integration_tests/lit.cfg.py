# gpu-runner's lit suite. Run it with `ctest` (through scripts/test) or with
# lit directly on the build folder: lit-22 -sv build/integration_tests.
#
# `--param backend=B` picks the runner under test (default: the default
# backend's binary): host, cuda or hip, or cuda-standin or hip-standin, the
# real gpu-runner-cuda or gpu-runner-hip on the driver stand-in (standin/),
# which runs every program that launches no kernel. The feature of the same
# name is set, so a test can say `REQUIRES: host`. run/ runs only where the
# backend has a device, run/kernels/ only where it runs kernels; errors/
# checks the host backend's messages.

import os
import shutil
import subprocess
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config

config.name = "gpu-runner"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)

backend = lit_config.params.get("backend", config.gpu_runner_default_backend)
if backend not in ("host", "cuda", "hip", "cuda-standin", "hip-standin"):
    lit_config.fatal("--param backend=%s: expected host, cuda, hip, "
                     "cuda-standin or hip-standin" % backend)
config.available_features.add(backend)
# --param kernel-threads=loops: the host backend runs the kernels cut at
# barriers as loops over their threads, none a subgroup at a time
# (%gpu-runner gets --no-subgroup-vectors); =fibers: every kernel that
# synchronizes on fibers (--no-barrier-splitting). So the programs check
# every way of running a block.
kernel_threads = lit_config.params.get("kernel-threads", "subgroups")
kernel_thread_flags = {"subgroups": None,
                       "loops": "--no-subgroup-vectors",
                       "fibers": "--no-barrier-splitting"}
if kernel_threads not in kernel_thread_flags:
    lit_config.fatal("--param kernel-threads=%s: expected subgroups, loops "
                     "or fibers" % kernel_threads)
if kernel_threads != "subgroups" and backend != "host":
    lit_config.fatal("--param kernel-threads=%s is for the host backend" %
                     kernel_threads)
if kernel_threads != "subgroups":
    config.available_features.add("kernel-threads-" + kernel_threads)
# --param checks=all (or a --check list): %gpu-runner runs every program
# under --check, which must then print what it prints without it and report
# nothing; the feature `checks` marks the run, for the few programs that
# leak or err on purpose.
checks = lit_config.params.get("checks", "")
if checks and backend != "host":
    lit_config.fatal("--param checks is for the host backend")
if checks:
    config.available_features.add("checks")
# Each backend's run writes its files (Output/, the compile cache) in a
# folder of its own, so that runs on several backends may go at once
# (ctest -j).
if (backend == config.gpu_runner_default_backend and
        kernel_threads == "subgroups" and not checks):
    config.test_exec_root = config.gpu_runner_obj_root
else:
    suffix = "" if kernel_threads == "subgroups" else "-" + kernel_threads
    suffix += "-checks" if checks else ""
    config.test_exec_root = os.path.join(config.gpu_runner_obj_root,
                                         "backend-" + backend + suffix)
# The binary under test: gpu-runner-cuda for cuda and cuda-standin.
runner_backend = backend.split("-")[0]

# Built with -DGPU_RUNNER_SANITIZE=ON (scripts/test --sanitize).
if lit.util.pythonize_bool(getattr(config, "gpu_runner_sanitize", "OFF")):
    config.available_features.add("sanitizers")

# Linked against the shared libLLVM and libMLIR, which a run loads only to
# compile (the compiler library); a site config without the setting (the
# device bundle's) is of a static build.
if not lit.util.pythonize_bool(getattr(config, "gpu_runner_llvm_static", "ON")):
    config.available_features.add("llvm-shared")

# Compiled programs are cached in the build folder for one run of the
# suite, so that each run compiles afresh and nothing is left in the user's
# cache folder; the cache's own tests choose their folders.
# A lit run inside a test of this suite (integration_tests/docs/) names a
# folder of its own, so that it does not empty the one the outer run's
# tests are using.
cache_dir = os.path.join(
    config.test_exec_root,
    os.environ.get("GPU_RUNNER_LIT_CACHE_NAME", "compile-cache"))
shutil.rmtree(cache_dir, ignore_errors=True)
config.environment["GPU_RUNNER_CACHE_DIR"] = cache_dir

tools = config.gpu_runner_tools_dir
# For the benchmark harnesses: the build folder, the Python that has
# Debian's packages, and whether plots can be drawn. Before %gpu-runner,
# which is a prefix of two of these names.
config.substitutions.append(
    ("%gpu-runner-build-dir", os.path.dirname(tools)))
config.substitutions.append(("%system-python", "/usr/bin/python3"))
config.substitutions.append(
    ("%gpu-runner-source-dir", os.path.dirname(config.test_source_root)))
# The docs' commands name build/: they can run where that is the build
# under test (not build-sanitize/, say).
if os.path.realpath(os.path.join(os.path.dirname(config.test_source_root),
                                 "build")) == \
        os.path.realpath(os.path.dirname(tools)):
    config.available_features.add("build-folder-of-docs")
if shutil.which("gnuplot"):
    config.available_features.add("gnuplot")
# gdb, for the tests that debug a program's JIT'd code (debugging/).
if shutil.which("gdb"):
    config.available_features.add("gdb")

# Google Benchmark's compare.py (Debian's libbenchmark-tools), which reads
# --benchmark-out's files, with the scipy it imports.
gbench_compare = "/usr/share/benchmark/compare.py"
if os.path.exists(gbench_compare) and subprocess.run(
        ["/usr/bin/python3", "-c", "import scipy.stats"],
        capture_output=True).returncode == 0:
    config.available_features.add("gbench-compare")
    config.substitutions.append(("%gbench-compare", gbench_compare))
# NumPy, for the round trip of --input and --output through NumPy itself:
# Debian's python3-numpy serves /usr/bin/python3 (%system-python).
try:
    if subprocess.run(["/usr/bin/python3", "-c", "import numpy"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      timeout=60).returncode == 0:
        config.available_features.add("numpy")
except (OSError, subprocess.TimeoutExpired):
    pass

# `%expect-exit-1 CMD` succeeds only if CMD exits with status 1 exactly (an
# error test's status; `not` also accepts 2, 3, ...).
config.substitutions.append(
    ("%expect-exit-1",
     os.path.join(config.test_source_root, "Inputs", "expect-exit-1")))
# Longest name first: lit substitutes in order.
config.substitutions.append(
    ("%gpu-runner-opt", os.path.join(tools, "gpu-runner-opt")))

config.substitutions.append(
    ("%gpu-runner-host", os.path.join(tools, "gpu-runner-host")))
config.substitutions.append(("%python", sys.executable))

# The driver stand-ins, where they were built: `%gpu-runner-cuda-standin` is
# gpu-runner-cuda on the CUDA one (GPU_RUNNER_CUDA_DRIVER), and a resource it
# still holds at exit fails the command with status 24, which no test
# expects. Features cuda-standin-lib, hip-standin-lib. Before
# %gpu-runner-cuda, a prefix of the name.
standins = {}
for gpu, variable in (("cuda", "GPU_RUNNER_CUDA_DRIVER"),
                      ("hip", "GPU_RUNNER_HIP_RUNTIME")):
    library = os.path.join(getattr(config, "gpu_runner_lib_dir", ""),
                           "libgpu-runner-%s-standin.so" % gpu)
    runner = os.path.join(tools, "gpu-runner-" + gpu)
    if not (os.path.exists(library) and os.path.exists(runner)):
        continue
    config.available_features.add(gpu + "-standin-lib")
    standins[gpu] = "env %s=%s GPU_RUNNER_STANDIN_LEAK_EXITCODE=24 %s" % (
        variable, library, runner)
    config.substitutions.append(
        ("%gpu-runner-" + gpu + "-standin", standins[gpu]))
    config.substitutions.append(("%" + gpu + "-standin-lib", library))
    # The same without the entry points only some programs need.
    config.substitutions.append(
        ("%" + gpu + "-old-standin-lib", library.replace("-standin.so",
                                                          "-standin-old.so")))
    config.substitutions.append(
        ("%" + gpu + "-include-dir", getattr(config, gpu + "_include_dir", "")))

# The GPU binaries, whatever the backend under test: cuda/ and hip/ tests
# compile kernels with them on machines without a GPU too.
#   cuda-runner, hip-runner  gpu-runner-cuda / gpu-runner-hip was built
#   cuda-device, hip-device  it sees a GPU (--list-devices succeeds)
#   ptxas                    the CUDA toolkit's ptxas is there, so kernels
#                            become fatbins
for gpu in ("cuda", "hip"):
    runner = os.path.join(tools, "gpu-runner-" + gpu)
    if not os.path.exists(runner):
        continue
    config.available_features.add(gpu + "-runner")
    config.substitutions.append(("%gpu-runner-" + gpu, runner))
    try:
        probe = subprocess.run([runner, "--list-devices"],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60)
        if probe.returncode == 0:
            config.available_features.add(gpu + "-device")
    except subprocess.TimeoutExpired:
        lit_config.warning("gpu-runner-%s --list-devices did not answer in "
                           "60 s; running as if there were no GPU" % gpu)
for toolkit in (os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"):
    if toolkit and os.access(os.path.join(toolkit, "bin", "ptxas"), os.X_OK):
        config.available_features.add("ptxas")
        break

if backend.endswith("-standin"):
    if runner_backend not in standins:
        lit_config.fatal("--param backend=%s: gpu-runner-%s or its driver "
                         "stand-in was not built" % (backend, runner_backend))
    config.substitutions.append(("%gpu-runner", standins[runner_backend]))
elif kernel_threads != "subgroups":
    config.substitutions.append(
        ("%gpu-runner", "%s %s %s" % (
            os.path.join(config.test_source_root, "Inputs", "with-flag"),
            kernel_thread_flags[kernel_threads],
            os.path.join(tools, "gpu-runner-" + backend))))
elif checks:
    config.substitutions.append(
        ("%gpu-runner", "%s --check=%s" % (
            os.path.join(tools, "gpu-runner-" + backend), checks)))
else:
    config.substitutions.append(
        ("%gpu-runner", os.path.join(tools, "gpu-runner-" + backend)))
# Programs run only where the backend under test has a device: the host
# backend always does, a GPU backend where a GPU answers, a stand-in always.
# Kernels run where there is a device, and on the stand-ins, which run them
# on the CPU from their NVVM or AMDGPU IR.
#   kernels        kernels run
#   subgroup-32, subgroup-64, and %{subgroup}: the subgroup size a kernel
#                  gets by default: 64 on HIP (the stand-in's gfx90a, and
#                  the gfx9 chips; AMDGPUUsage, "Processors"), else 32
has_gpu = backend + "-device" in config.available_features
config.gpu_runner_backend_has_device = (
    backend == "host" or has_gpu or backend.endswith("-standin"))
if backend in ("host", "cuda-standin", "hip-standin") or has_gpu:
    config.available_features.add("kernels")
subgroup = "64" if runner_backend == "hip" else "32"
config.available_features.add("subgroup-" + subgroup)
config.substitutions.append(("%{subgroup}", subgroup))
config.gpu_runner_backend = backend
# The backend the binary under test names itself for: cuda on cuda-standin.
config.substitutions.append(("%{backend}", runner_backend))

# For tests of --shared-libs: LLVM's and MLIR's libraries, and what it takes
# to build a library of the test's own.
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))
config.substitutions.append(("%llvm_include_dir", config.llvm_include_dir))
config.substitutions.append(("%host_cxx", config.host_cxx))
# A machine without a C++ compiler (a GPU machine, say) has none.
if config.host_cxx:
    config.available_features.add("host-cxx")

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()
