# gpu-runner's lit suite. Run it with `ctest` (through scripts/test) or with
# lit directly on the build folder: lit -sv build/integration_tests.
#
# `--param backend=B` picks the runner under test (default: the default
# backend's binary); the feature of the same name is set, so a test can say
# `REQUIRES: host`.

import os

import lit.formats
import lit.util
from lit.llvm import llvm_config

config.name = "gpu-runner"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.gpu_runner_obj_root

backend = lit_config.params.get("backend", config.gpu_runner_default_backend)
config.available_features.add(backend)

# Built with -DGPU_RUNNER_SANITIZE=ON (scripts/test --sanitize).
if lit.util.pythonize_bool(config.gpu_runner_sanitize):
    config.available_features.add("sanitizers")

tools = config.gpu_runner_tools_dir
# `%expect-exit-1 CMD` succeeds only if CMD exits with status 1 exactly (an
# error test's status; `not` also accepts 2, 3, ...).
config.substitutions.append(
    ("%expect-exit-1",
     os.path.join(config.test_source_root, "Inputs", "expect-exit-1")))
# Longest name first: lit substitutes in order.
config.substitutions.append(
    ("%gpu-runner-opt", os.path.join(tools, "gpu-runner-opt")))
config.substitutions.append(
    ("%gpu-runner", os.path.join(tools, "gpu-runner-" + backend)))

# For tests of --shared-libs: LLVM's and MLIR's libraries, and what it takes
# to build a library of the test's own.
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))
config.substitutions.append(("%llvm_include_dir", config.llvm_include_dir))
config.substitutions.append(("%host_cxx", config.host_cxx))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()
