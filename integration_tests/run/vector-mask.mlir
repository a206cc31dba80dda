// vector.mask around transfers, gathers and reductions, in host code and in
// a kernel, as the vector dialect defines them: a masked-off lane of a read
// takes the padding value, a masked-off lane of a write leaves memory as it
// was, a gather reads the active lanes only, and a masked reduction leaves
// the masked-off lanes out. The 2-D read is what convert-vector-to-scf alone
// does not take.
// RUN: %gpu-runner %s | FileCheck %s

memref.global "private" constant @rows : memref<3x5xf32> = dense<[
  [0.0, 1.0, 2.0, 3.0, 4.0],
  [5.0, 6.0, 7.0, 8.0, 9.0],
  [10.0, 11.0, 12.0, 13.0, 14.0]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %pad = arith.constant -1.0 : f32
  %rows = memref.get_global @rows : memref<3x5xf32>

  // Two rows of three, in a 4x4 read.
  // CHECK:      ( ( 0, 1, 2, -1 ), ( 5, 6, 7, -1 ), ( -1, -1, -1, -1 ), ( -1, -1, -1, -1 ) )
  %mask2d = vector.create_mask %c2, %c3 : vector<4x4xi1>
  %read2d = vector.mask %mask2d {
    vector.transfer_read %rows[%c0, %c0], %pad
        : memref<3x5xf32>, vector<4x4xf32>
  } : vector<4x4xi1> -> vector<4x4xf32>
  vector.print %read2d : vector<4x4xf32>

  // A write of the first three lanes of eight.
  // CHECK-NEXT: ( 9, 9, 9, 0, 0, 0, 0, 0 )
  %buffer = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buffer : memref<8xf32>)
  %nines = arith.constant dense<9.0> : vector<8xf32>
  %mask1d = vector.create_mask %c3 : vector<8xi1>
  vector.mask %mask1d {
    vector.transfer_write %nines, %buffer[%c0] : vector<8xf32>, memref<8xf32>
  } : vector<8xi1>
  %written = vector.transfer_read %buffer[%c0], %pad
      : memref<8xf32>, vector<8xf32>
  vector.print %written : vector<8xf32>

  // A gather of row 1's elements 4, 0, 2, 1, the last two masked off (their
  // lanes are undefined: vector.mask gives a gather no pass-through value).
  // CHECK-NEXT: ( 9, 5 )
  %indices = arith.constant dense<[4, 0, 2, 1]> : vector<4xindex>
  %mask4 = vector.create_mask %c2 : vector<4xi1>
  %all = arith.constant dense<true> : vector<4xi1>
  %passthru = arith.constant dense<-2.0> : vector<4xf32>
  %gathered4 = vector.mask %mask4 {
    vector.gather %rows[%c1, %c0][%indices], %all, %passthru
        : memref<3x5xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
        into vector<4xf32>
  } : vector<4xi1> -> vector<4xf32>
  %gathered = vector.extract_strided_slice %gathered4
      {offsets = [0], sizes = [2], strides = [1]}
      : vector<4xf32> to vector<2xf32>
  vector.print %gathered : vector<2xf32>

  // The sum of the first three lanes only: 9 + 9 + 9.
  // CHECK-NEXT: 27
  %sum = vector.mask %mask1d {
    vector.reduction <add>, %nines : vector<8xf32> into f32
  } : vector<8xi1> -> f32
  vector.print %sum : f32

  // In a kernel: one thread reads the 2-D block and writes its sum.
  // CHECK-NEXT: 21
  %device = gpu.alloc () : memref<3x5xf32>
  gpu.memcpy %device, %rows : memref<3x5xf32>, memref<3x5xf32>
  %out = gpu.alloc host_shared () : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %kpad = arith.constant 0.0 : f32
    %kmask = vector.create_mask %c2, %c3 : vector<4x4xi1>
    %block = vector.mask %kmask {
      vector.transfer_read %device[%c0, %c0], %kpad
          : memref<3x5xf32>, vector<4x4xf32>
    } : vector<4x4xi1> -> vector<4x4xf32>
    %flat = vector.shape_cast %block : vector<4x4xf32> to vector<16xf32>
    %total = vector.reduction <add>, %flat : vector<16xf32> into f32
    memref.store %total, %out[%c0] : memref<1xf32>
    gpu.terminator
  }
  %result = memref.load %out[%c0] : memref<1xf32>
  vector.print %result : f32
  gpu.dealloc %out : memref<1xf32>
  gpu.dealloc %device : memref<3x5xf32>
  memref.dealloc %buffer : memref<8xf32>
  return
}
