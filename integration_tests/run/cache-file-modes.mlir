// Every file the runner writes in the compile cache is its owner's alone
// (mode 0600), the pruner's timestamp file too, whatever the umask; one that
// an earlier run left readable by others is made so again.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c 'umask 022 && %gpu-runner --cache-dir=%t/cache %s' | FileCheck %s
// RUN: stat -c '%%a %%n' %t/cache/llvmcache* | sed 's| .*/| |' | FileCheck %s --check-prefix=MODES
// RUN: chmod 0644 %t/cache/llvmcache.timestamp && rm %t/cache/llvmcache-*
// RUN: sh -c 'umask 022 && %gpu-runner --cache-dir=%t/cache %s' | FileCheck %s
// RUN: stat -c '%%a %%n' %t/cache/llvmcache* | sed 's| .*/| |' | FileCheck %s --check-prefix=MODES

// CHECK: 42

// MODES:     600 llvmcache-{{[0-9a-f]+$}}
// MODES-NEXT: 600 llvmcache.timestamp
// MODES-NOT: {{.}}

func.func @main() {
  %v = arith.constant 42 : i32
  vector.print %v : i32
  return
}
