// --benchmark-out=FILE writes the --benchmark-repetitions runs in Google
// Benchmark's JSON format (Inputs/check_benchmark_json.py checks the schema
// and that the aggregates are those of the runs), and the report on stderr
// gains the mean and the standard deviation.
//
// RUN: rm -f %t.json
// RUN: %gpu-runner --benchmark-repetitions=4 --benchmark-out=%t.json %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: %system-python %S/../Inputs/check_benchmark_json.py %t.json | FileCheck %s
// Google Benchmark's own compare.py reads two such files, and its U test
// their runs.
// RUN: %if gbench-compare %{ %system-python %gbench-compare --no-color benchmarks %t.json %t.json | FileCheck %s --check-prefix=COMPARE %}

// With --launch, the kernel's own time, on the device, apart from the
// copies in and out: on stderr, and in the file as a second family named as
// Google Benchmark names a benchmark timed by hand.
// RUN: %gpu-runner %s --launch=kernels::double --grid=1 --block=64 --input=64xf32=1 --benchmark-repetitions=3 --benchmark-out=%t.launch.json 2>&1 >/dev/null | FileCheck %s --check-prefix=LAUNCH-REPORT
// RUN: %system-python %S/../Inputs/check_benchmark_json.py %t.launch.json | FileCheck %s --check-prefix=LAUNCH

// The file needs the runs.
// RUN: not %gpu-runner --benchmark-out=%t.none.json %s 2>&1 | FileCheck %s --check-prefix=NO-RUNS
// RUN: not test -e %t.none.json

// REPORT:      benchmark: entry point 'main', backend {{host|cuda|hip}}
// REPORT:        time per run:    min {{[0-9.]+}} [[UNIT:us|ms|s]], median {{[0-9.]+}} [[UNIT]], max {{[0-9.]+}} [[UNIT]]{{$}}
// REPORT-NEXT:   mean:            {{[0-9.]+}} [[UNIT]] (stddev {{[0-9.]+}} [[UNIT]]){{$}}

// CHECK: family main: 4 runs, aggregates mean median stddev min max
// CHECK-NOT: family

// COMPARE:      Comparing {{.*}}.json to {{.*}}.json
// COMPARE:      main_pvalue {{.*}} U Test, Repetitions: 4 vs 4
// COMPARE-NEXT: main_mean +0.0000 +0.0000
// COMPARE-NEXT: main_median
// COMPARE-NEXT: main_stddev
// COMPARE-NEXT: main_min
// COMPARE-NEXT: main_max

// LAUNCH-REPORT:      benchmark: kernel 'kernels::double', backend
// LAUNCH-REPORT:        time per run:    min
// LAUNCH-REPORT-NEXT:   mean:
// LAUNCH-REPORT-NEXT:   kernel alone:    min {{[0-9.]+}} [[UNIT:us|ms|s]], median {{[0-9.]+}} [[UNIT]], max {{[0-9.]+}} [[UNIT]]{{$}}
// LAUNCH-REPORT-NEXT:   kernel mean:     {{[0-9.]+}} [[UNIT]] (stddev

// LAUNCH:      family kernels::double: 3 runs, aggregates mean median stddev min max
// LAUNCH-NEXT: family kernels::double/manual_time: 3 runs, aggregates mean median stddev min max

// NO-RUNS: error: --benchmark-out writes the runs of --benchmark-repetitions=N: add it, with N at least 1

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%data: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %data[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %host = memref.alloc(%c64) : memref<?xf32>
    %dev = gpu.alloc (%c64) : memref<?xf32>
    gpu.memcpy %dev, %host : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>)
    gpu.memcpy %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.dealloc %dev : memref<?xf32>
    memref.dealloc %host : memref<?xf32>
    return
  }
}
