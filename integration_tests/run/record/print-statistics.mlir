// --print-statistics prints on stderr, at exit, what the run did: the
// device memory (the most live at once, the total and the count of
// allocations), copies by direction and memsets with their bytes, the
// launches of each kernel with their total and mean time on the stream,
// the streams made and the waits. This program's counts are known:
//
// - allocations of 1024, 2048 and 512 bytes, the first freed before the
//   third: peak 3072, 3584 in all;
// - copies: two to the device (1024 + 2048 bytes), one on the device
//   (512), one back (512); one memset of 2048 bytes;
// - launches: `fill` twice, `bump` once;
// - three streams (gpu.wait async); one op waits for two of them (its
//   stream waits for the other's token), and the host waits twice.
//
// RUN: %gpu-runner --print-statistics %s 2>&1 >/dev/null | FileCheck %s
// Without the flag, nothing of it.
// RUN: %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// CHECK:      statistics:
// CHECK-NEXT:   device memory:  peak 3072 bytes (3.0 KiB); 3 allocations, 3584 bytes (3.5 KiB) in all
// CHECK-NEXT:   copies h2d:     2, 3072 bytes (3.0 KiB)
// CHECK-NEXT:   copies d2h:     1, 512 bytes
// CHECK-NEXT:   copies d2d:     1, 512 bytes
// CHECK-NEXT:   copies h2h:     0
// CHECK-NEXT:   memsets:        1, 2048 bytes (2.0 KiB)
// CHECK-NEXT:   launches:       3
// CHECK-NEXT:     bump: 1, total {{[0-9]+\.[0-9]{3} (us|ms|s)}}, mean {{[0-9]+\.[0-9]{3} (us|ms|s)$}}
// CHECK-NEXT:     fill: 2, total {{[0-9]+\.[0-9]{3} (us|ms|s)}}, mean {{[0-9]+\.[0-9]{3} (us|ms|s)$}}
// CHECK-NEXT:   streams:        3 created
// CHECK-NEXT:   waits:          2 by the host, 1 of a stream for another's token
// CHECK-EMPTY:

// QUIET-NOT: statistics

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%data: memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      memref.store %v, %data[%i] : memref<?xi32>
      gpu.return
    }
    gpu.func @bump(%data: memref<128xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<128xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %data[%i] : memref<128xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %h1 = memref.alloc() : memref<256xi32>
    %h2 = memref.alloc() : memref<512xi32>
    %h3 = memref.alloc() : memref<128xi32>
    %a = gpu.alloc () : memref<256xi32>
    %b = gpu.alloc () : memref<512xi32>
    %s1 = gpu.wait async
    %t1 = gpu.memcpy async [%s1] %a, %h1 : memref<256xi32>, memref<256xi32>
    %ad = memref.cast %a : memref<256xi32> to memref<?xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%ad : memref<?xi32>)
    gpu.wait [%t2]
    gpu.dealloc %a : memref<256xi32>
    %c = gpu.alloc () : memref<128xi32>
    %s2 = gpu.wait async
    %zero = arith.constant 0 : i32
    %t3 = gpu.memset async [%s2] %b, %zero : memref<512xi32>, i32
    %t4 = gpu.memcpy async [%t3] %b, %h2 : memref<512xi32>, memref<512xi32>
    %bd = memref.cast %b : memref<512xi32> to memref<?xi32>
    %t5 = gpu.launch_func async [%t4] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%bd : memref<?xi32>)
    %s3 = gpu.wait async
    %bHead = memref.subview %b[0] [128] [1] : memref<512xi32> to memref<128xi32, strided<[1]>>
    %t6 = gpu.memcpy async [%s3, %t5] %c, %bHead : memref<128xi32>, memref<128xi32, strided<[1]>>
    %t7 = gpu.launch_func async [%t6] @kernels::@bump blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%c : memref<128xi32>)
    gpu.wait [%t7]
    gpu.memcpy %h3, %c : memref<128xi32>, memref<128xi32>
    gpu.dealloc %b : memref<512xi32>
    gpu.dealloc %c : memref<128xi32>
    memref.dealloc %h1 : memref<256xi32>
    memref.dealloc %h2 : memref<512xi32>
    memref.dealloc %h3 : memref<128xi32>
    return
  }
}
