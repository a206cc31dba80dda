// Without a home folder the run goes on without the compile cache, with a
// warning; it never makes one in the current folder. A relative
// $XDG_CACHE_HOME is ignored, as the XDG base directory specification says.
// RUN: rm -rf %t && mkdir -p %t/here %t/home
// RUN: cd %t/here && env -u GPU_RUNNER_CACHE_DIR -u XDG_CACHE_HOME HOME= %gpu-runner %s --timing 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: cd %t/here && env -u GPU_RUNNER_CACHE_DIR XDG_CACHE_HOME= HOME=relative %gpu-runner %s --timing 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: cd %t/here && env -u GPU_RUNNER_CACHE_DIR XDG_CACHE_HOME=cache HOME=%t/home %gpu-runner %s --timing 2>&1 | FileCheck %s --check-prefix=HOME
// RUN: %python -c "import os; print('here:', os.listdir('%t/here'))" | FileCheck %s --check-prefix=HERE

// NONE: warning: no compile cache: there is no home folder (neither $XDG_CACHE_HOME nor $HOME is an absolute path); set --cache-dir or GPU_RUNNER_CACHE_DIR
// NONE: compile cache: off (no home folder to keep it in)
// HOME: compile cache: miss, stored as {{.*}}home{{/|\\}}.cache{{/|\\}}gpu-runner{{/|\\}}llvmcache-
// HERE: here: []

func.func @main() {
  return
}
