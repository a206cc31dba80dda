// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// The unranked memref's rank and ranked descriptor go to the runtime, with the
// element size, so that it pins exactly the bytes the memref spans.
// CHECK-LABEL: llvm.func @register
// CHECK:         %[[RANK:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i64, ptr)>
// CHECK:         %[[DESC:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i64, ptr)>
// CHECK:         %[[ONE:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i16
// CHECK:         %[[SIZE:.*]] = llvm.ptrtoint %[[ONE]]
// CHECK:         llvm.call @mgpuMemHostRegisterMemRefAt(%[[RANK]], %[[DESC]], %[[SIZE]], %{{.*}})
// CHECK:         llvm.call @mgpuMemHostUnregisterMemRefAt(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
func.func @register(%m: memref<*xi16>) {
  gpu.host_register %m : memref<*xi16>
  gpu.host_unregister %m : memref<*xi16>
  return
}

// CHECK-LABEL: llvm.func @set_device
// CHECK:         llvm.call @mgpuSetDefaultDeviceAt(%{{.*}}, %{{.*}}) : (i32, !llvm.ptr) -> ()
func.func @set_device(%d: i32) {
  gpu.set_default_device %d
  return
}
