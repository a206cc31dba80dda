// --benchmark-repetitions=N runs the entry point N times after the warm-up
// runs (--benchmark-warmup=W, default 1) and reports on stderr; stdout keeps
// the program's output, here a count of the calls, and the entry point's
// result of every run.
// RUN: %gpu-runner --benchmark-repetitions=3 --benchmark-warmup=2 %s 2>%t.err | FileCheck %s --check-prefix=COUNT5
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: %gpu-runner --benchmark-repetitions=2 %s 2>/dev/null | FileCheck %s --check-prefix=COUNT3
// RUN: %gpu-runner --benchmark-repetitions=2 --benchmark-warmup=0 -e counted_i32 --entry-point-result=i32 %s 2>/dev/null | FileCheck %s --check-prefix=RESULT
// Without the flag, one run and no report.
// RUN: %gpu-runner %s 2>%t.plain | FileCheck %s --check-prefix=COUNT1
// RUN: not grep benchmark %t.plain
// Each run of `sleepy` takes at least its 20 ms sleep.
// RUN: %gpu-runner --benchmark-repetitions=2 -e sleepy %s 2>&1 | FileCheck %s --check-prefix=SLEEPY
// The warm-up count alone means nothing.
// RUN: not %gpu-runner --benchmark-warmup=3 %s 2>&1 | FileCheck %s --check-prefix=WARMUP-ALONE

// COUNT5:      call 1
// COUNT5-NEXT: call 2
// COUNT5-NEXT: call 3
// COUNT5-NEXT: call 4
// COUNT5-NEXT: call 5
// COUNT5-NOT:  call

// REPORT:      benchmark: entry point 'main', backend {{host|cuda|hip}}
// REPORT-NEXT:   warm-up runs:    2 (not timed)
// REPORT-NEXT:   timed runs:      3
// REPORT-NEXT:   compile:         {{[0-9]+\.[0-9][0-9][0-9]}} ms (compile cache: {{miss|hit}}, {{.*}}; not in the runs)
// REPORT-NEXT:   load:            {{[0-9]+\.[0-9][0-9][0-9]}} ms (not in the runs)
// REPORT-NEXT:   time per run:    min {{[0-9]+\.[0-9][0-9][0-9]}} [[UNIT:us|ms|s]], median {{[0-9]+\.[0-9][0-9][0-9]}} [[UNIT]], max {{[0-9]+\.[0-9][0-9][0-9]}} [[UNIT]]{{$}}

// COUNT3:      call 1
// COUNT3-NEXT: call 2
// COUNT3-NEXT: call 3
// COUNT3-NOT:  call

// RESULT:      7
// RESULT-NEXT: 7
// RESULT-NOT:  {{.}}

// COUNT1:     call 1
// COUNT1-NOT: call

// SLEEPY: time per run: min {{([2-9][0-9]|[0-9][0-9][0-9]+)\.[0-9][0-9][0-9]}} ms

// WARMUP-ALONE: error: --benchmark-warmup needs --benchmark-repetitions=N with N at least 1

memref.global "private" @calls : memref<i64> = dense<0>

func.func @main() {
  %g = memref.get_global @calls : memref<i64>
  %v = memref.load %g[] : memref<i64>
  %c1 = arith.constant 1 : i64
  %n = arith.addi %v, %c1 : i64
  memref.store %n, %g[] : memref<i64>
  vector.print str "call "
  vector.print %n : i64
  return
}

func.func @counted_i32() -> i32 {
  %r = arith.constant 7 : i32
  return %r : i32
}

func.func private @usleep(i32) -> i32

func.func @sleepy() {
  %us = arith.constant 20000 : i32
  func.call @usleep(%us) : (i32) -> i32
  return
}
