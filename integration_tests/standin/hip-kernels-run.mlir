// Programs with kernels on the HIP stand-in: the runtime loads the same
// gfx90a code object a GPU would, then gives the module the LLVM IR it was
// made from (gpuRunnerStandinModuleAttachIR, an optional entry point
// libamdhip64 lacks), and the launches run that AMDGPU IR on the stand-in's
// device memory. The results are the host backend's, checked exactly:
// work-item and work-group ids in two dimensions, the work-group and grid
// sizes (which the ROCDL pipeline reads from the HSA dispatch packet), the
// wave size of a gfx9 chip (64) and the lane ids it gives (the host
// backend's subgroups are 32 wide), an element-wise kernel, a work-group's
// sum through workgroup (LDS) memory and barriers, and a histogram made
// with integer and float atomics.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.trace %gpu-runner-hip-standin --no-cache %s | FileCheck %s --check-prefixes=CHECK,HIP
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// RUN: %gpu-runner-host %s | FileCheck %s --check-prefixes=CHECK,HOST

// TRACE:      hipModuleLoadData(format=code object) -> hipSuccess [*module=[[M:module#[0-9]+]]]
// TRACE-NEXT: gpuRunnerStandinModuleAttachIR(module=[[M]]{{.*}}) -> hipSuccess
// TRACE:      hipModuleLaunchKernel(f={{.*}}(ids), grid=3x2x1, block=4x2x1, {{.*}}) -> hipSuccess
// TRACE:      hipModuleLaunchKernel(f={{.*}}(lanes), grid=1x1x1, block=16x8x1, {{.*}}) -> hipSuccess
// TRACE:      hipModuleLaunchKernel(f={{.*}}(axpb), grid=2x1x1, block=4x1x1, {{.*}}) -> hipSuccess
// TRACE:      hipModuleLaunchKernel(f={{.*}}(block_sum), grid=2x1x1, block=64x1x1, {{.*}}) -> hipSuccess
// TRACE:      hipModuleLaunchKernel(f={{.*}}(histogram), grid=2x1x1, block=32x1x1, {{.*}}) -> hipSuccess

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)

  gpu.module @kernels {
    // ids[global y][global x] = 1000 * block y + 100 * block x + 10 * thread
    // y + thread x; thread (0, 0) of block (0, 0) also writes the sizes.
    gpu.func @ids(%out: memref<4x12xi32>, %sizes: memref<5xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %gx = gpu.global_id x
      %gy = gpu.global_id y
      %a = arith.muli %by, %c1000 : index
      %b = arith.muli %bx, %c100 : index
      %c = arith.muli %ty, %c10 : index
      %ab = arith.addi %a, %b : index
      %abc = arith.addi %ab, %c : index
      %v = arith.addi %abc, %tx : index
      %w = arith.index_cast %v : index to i32
      memref.store %w, %out[%gy, %gx] : memref<4x12xi32>
      %first = arith.cmpi eq, %gx, %c0 : index
      %top = arith.cmpi eq, %gy, %c0 : index
      %origin = arith.andi %first, %top : i1
      scf.if %origin {
        %dx = gpu.block_dim x
        %dy = gpu.block_dim y
        %nx = gpu.grid_dim x
        %ny = gpu.grid_dim y
        %wave = gpu.subgroup_size : index
        %dxi = arith.index_cast %dx : index to i32
        %dyi = arith.index_cast %dy : index to i32
        %nxi = arith.index_cast %nx : index to i32
        %nyi = arith.index_cast %ny : index to i32
        %wi = arith.index_cast %wave : index to i32
        memref.store %dxi, %sizes[%c0] : memref<5xi32>
        memref.store %dyi, %sizes[%c1] : memref<5xi32>
        memref.store %nxi, %sizes[%c2] : memref<5xi32>
        memref.store %nyi, %sizes[%c3] : memref<5xi32>
        memref.store %wi, %sizes[%c4] : memref<5xi32>
      }
      gpu.return
    }

    // lanes[y] = the lane id of thread (15, y) of a 16 x 8 block: its
    // flattened id 16 y + 15 modulo the wave size.
    gpu.func @lanes(%out: memref<8xi32>) kernel {
      %c15 = arith.constant 15 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %last = arith.cmpi eq, %tx, %c15 : index
      scf.if %last {
        %lane = gpu.lane_id
        %l = arith.index_cast %lane : index to i32
        memref.store %l, %out[%ty] : memref<8xi32>
      }
      gpu.return
    }

    // data[i] = a * data[i] + b.
    gpu.func @axpb(%data: memref<8xf32>, %a: f32, %b: f32) kernel {
      %i = gpu.global_id x
      %v = memref.load %data[%i] : memref<8xf32>
      %m = arith.mulf %v, %a : f32
      %r = arith.addf %m, %b : f32
      memref.store %r, %data[%i] : memref<8xf32>
      gpu.return
    }

    // sums[block] = the sum of the block's 64 elements, halved in workgroup
    // memory six times, a barrier after each step.
    gpu.func @block_sum(%data: memref<128xi32>, %sums: memref<2xi32>)
        workgroup(%tile: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %c32 = arith.constant 32 : index
      %thread = gpu.thread_id x
      %block = gpu.block_id x
      %i = gpu.global_id x
      %v = memref.load %data[%i] : memref<128xi32>
      memref.store %v, %tile[%thread] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c6 step %c1 {
        %stride = arith.shrui %c32, %k : index
        %active = arith.cmpi ult, %thread, %stride : index
        scf.if %active {
          %j = arith.addi %thread, %stride : index
          %x = memref.load %tile[%thread] : memref<64xi32, #gpu.address_space<workgroup>>
          %y = memref.load %tile[%j] : memref<64xi32, #gpu.address_space<workgroup>>
          %s = arith.addi %x, %y : i32
          memref.store %s, %tile[%thread] : memref<64xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %leader = arith.cmpi eq, %thread, %c0 : index
      scf.if %leader {
        %total = memref.load %tile[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
        memref.store %total, %sums[%block] : memref<2xi32>
      }
      gpu.return
    }

    // bins[(3 i) mod 5] += 1 and total += i, atomically, for i in [0, 64).
    gpu.func @histogram(%bins: memref<5xi32>, %total: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %one = arith.constant 1 : i32
      %i = gpu.global_id x
      %t = arith.muli %i, %c3 : index
      %bin = arith.remui %t, %c5 : index
      %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<5xi32>) -> i32
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %oldf = memref.atomic_rmw addf %f, %total[%c0] : (f32, memref<1xf32>) -> f32
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index

    %ids = gpu.alloc () : memref<4x12xi32>
    %sizes = gpu.alloc () : memref<5xi32>
    gpu.launch_func @kernels::@ids blocks in (%c3, %c2, %c1) threads in (%c4, %c2, %c1)
        args(%ids : memref<4x12xi32>, %sizes : memref<5xi32>)
    %hids = memref.alloc () : memref<4x12xi32>
    gpu.memcpy %hids, %ids : memref<4x12xi32>, memref<4x12xi32>
    %pids = memref.cast %hids : memref<4x12xi32> to memref<*xi32>
    // CHECK:      [0,  1,  2,  3,  100,  101,  102,  103,  200,  201,  202,  203]
    // CHECK-NEXT: [10,  11,  12,  13,  110,  111,  112,  113,  210,  211,  212,  213]
    // CHECK-NEXT: [1000,  1001,  1002,  1003,  1100,  1101,  1102,  1103,  1200,  1201,  1202,  1203]
    // CHECK-NEXT: [1010,  1011,  1012,  1013,  1110,  1111,  1112,  1113,  1210,  1211,  1212,  1213]
    call @printMemrefI32(%pids) : (memref<*xi32>) -> ()
    %hsizes = memref.alloc () : memref<5xi32>
    gpu.memcpy %hsizes, %sizes : memref<5xi32>, memref<5xi32>
    %psizes = memref.cast %hsizes : memref<5xi32> to memref<*xi32>
    // Block 4 x 2, grid 3 x 2, and the subgroup size: a wave of 64 on the
    // HIP stand-in's gfx90a (a gfx9 chip), 32 on the host backend.
    // HIP:  [4,  2,  3,  2,  64]
    // HOST: [4,  2,  3,  2,  32]
    call @printMemrefI32(%psizes) : (memref<*xi32>) -> ()

    %lanes = gpu.alloc () : memref<8xi32>
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@lanes blocks in (%c1, %c1, %c1) threads in (%c16, %c8, %c1)
        args(%lanes : memref<8xi32>)
    %hlanes = memref.alloc () : memref<8xi32>
    gpu.memcpy %hlanes, %lanes : memref<8xi32>, memref<8xi32>
    %planes = memref.cast %hlanes : memref<8xi32> to memref<*xi32>
    // HIP:  [15,  31,  47,  63,  15,  31,  47,  63]
    // HOST: [15,  31,  15,  31,  15,  31,  15,  31]
    call @printMemrefI32(%planes) : (memref<*xi32>) -> ()

    %hdata = memref.alloc () : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %hdata[%i] : memref<8xf32>
    }
    %data = gpu.alloc () : memref<8xf32>
    gpu.memcpy %data, %hdata : memref<8xf32>, memref<8xf32>
    %a = arith.constant 2.5 : f32
    %b = arith.constant -1.0 : f32
    gpu.launch_func @kernels::@axpb blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%data : memref<8xf32>, %a : f32, %b : f32)
    gpu.memcpy %hdata, %data : memref<8xf32>, memref<8xf32>
    %pdata = memref.cast %hdata : memref<8xf32> to memref<*xf32>
    // CHECK: [-1,  1.5,  4,  6.5,  9,  11.5,  14,  16.5]
    call @printMemrefF32(%pdata) : (memref<*xf32>) -> ()

    %hvalues = memref.alloc () : memref<128xi32>
    scf.for %i = %c0 to %c128 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %hvalues[%i] : memref<128xi32>
    }
    %values = gpu.alloc () : memref<128xi32>
    gpu.memcpy %values, %hvalues : memref<128xi32>, memref<128xi32>
    %sums = gpu.alloc () : memref<2xi32>
    gpu.launch_func @kernels::@block_sum blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%values : memref<128xi32>, %sums : memref<2xi32>)
    %hsums = memref.alloc () : memref<2xi32>
    gpu.memcpy %hsums, %sums : memref<2xi32>, memref<2xi32>
    %psums = memref.cast %hsums : memref<2xi32> to memref<*xi32>
    // CHECK: [2016,  6112]
    call @printMemrefI32(%psums) : (memref<*xi32>) -> ()

    %bins = gpu.alloc () : memref<5xi32>
    %zero = arith.constant 0 : i32
    gpu.memset %bins, %zero : memref<5xi32>, i32
    %total = gpu.alloc () : memref<1xf32>
    %zerof = arith.constant 0.0 : f32
    gpu.memset %total, %zerof : memref<1xf32>, f32
    gpu.launch_func @kernels::@histogram blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%bins : memref<5xi32>, %total : memref<1xf32>)
    %hbins = memref.alloc () : memref<5xi32>
    gpu.memcpy %hbins, %bins : memref<5xi32>, memref<5xi32>
    %pbins = memref.cast %hbins : memref<5xi32> to memref<*xi32>
    // CHECK: [13,  13,  12,  13,  13]
    call @printMemrefI32(%pbins) : (memref<*xi32>) -> ()
    %htotal = memref.alloc () : memref<1xf32>
    gpu.memcpy %htotal, %total : memref<1xf32>, memref<1xf32>
    %ptotal = memref.cast %htotal : memref<1xf32> to memref<*xf32>
    // CHECK: [2016]
    call @printMemrefF32(%ptotal) : (memref<*xf32>) -> ()

    gpu.dealloc %ids : memref<4x12xi32>
    gpu.dealloc %sizes : memref<5xi32>
    gpu.dealloc %lanes : memref<8xi32>
    gpu.dealloc %data : memref<8xf32>
    gpu.dealloc %values : memref<128xi32>
    gpu.dealloc %sums : memref<2xi32>
    gpu.dealloc %bins : memref<5xi32>
    gpu.dealloc %total : memref<1xf32>
    memref.dealloc %hids : memref<4x12xi32>
    memref.dealloc %hsizes : memref<5xi32>
    memref.dealloc %hlanes : memref<8xi32>
    memref.dealloc %hdata : memref<8xf32>
    memref.dealloc %hvalues : memref<128xi32>
    memref.dealloc %hsums : memref<2xi32>
    memref.dealloc %hbins : memref<5xi32>
    memref.dealloc %htotal : memref<1xf32>
    return
  }
}
