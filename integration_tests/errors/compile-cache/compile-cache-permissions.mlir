// The code of a cache entry runs as the user, so a cache folder anyone else
// can write to is refused, as ssh refuses such a ~/.ssh: an error for
// --cache-dir, a warning and no cache for the default folder. Mode bits
// decide it for root as for anyone.
// RUN: rm -rf %t && mkdir -p %t/open %t/group %t/shared %t/readable
// RUN: chmod 0777 %t/open && chmod 0770 %t/group && chmod 1777 %t/shared && chmod 0755 %t/readable
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/open 2>&1 | FileCheck %s --check-prefix=OPEN
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/group 2>&1 | FileCheck %s --check-prefix=GROUP
// A folder shared on purpose, as /tmp is, is not to be made private.
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/shared 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: env GPU_RUNNER_CACHE_DIR=%t/open %gpu-runner %s --timing 2>&1 | FileCheck %s --check-prefix=DEFAULT
// Nothing was stored in either.
// RUN: %python -c "import glob; print('entries:', len(glob.glob('%t/open/*') + glob.glob('%t/group/*') + glob.glob('%t/shared/*')))" | FileCheck %s --check-prefix=NONE
// Readable by others is fine: only writing lets them choose the code.
// RUN: %gpu-runner %s --cache-dir=%t/readable --timing 2>&1 | FileCheck %s --check-prefix=READABLE
// A folder the cache makes is its owner's alone, whatever the umask.
// RUN: sh -c 'umask 0 && exec "$@"' sh %gpu-runner %s --cache-dir=%t/made/cache
// RUN: %python -c "import os; print('modes:', *(oct(os.stat(p).st_mode & 0o7777) for p in ('%t/made', '%t/made/cache')))" | FileCheck %s --check-prefix=MADE

// OPEN: error: --cache-dir: the cache folder {{.*}}open is writable by its group and others (mode 0777), who could put code in it for gpu-runner to run as you: make it writable by its owner alone (chmod go-w {{.*}}open)
// GROUP: error: --cache-dir: the cache folder {{.*}}group is writable by its group (mode 0770), who could put code in it for gpu-runner to run as you: make it writable by its owner alone (chmod go-w {{.*}}group)
// SHARED: error: --cache-dir: the cache folder {{.*}}shared is writable by its group and others (mode 1777), who could put code in it for gpu-runner to run as you: use a folder of your own{{$}}
// DEFAULT: warning: no compile cache: the cache folder {{.*}}open is writable by its group and others (mode 0777), who could put code in it for gpu-runner to run as you: make it writable by its owner alone (chmod go-w {{.*}}open); set --cache-dir, or --no-cache to run without it
// DEFAULT: compile cache: off (the cache folder {{.*}}open is writable
// NONE: entries: 0
// READABLE: compile cache: miss, stored as
// MADE: modes: 0o700 0o700

func.func @main() {
  return
}
