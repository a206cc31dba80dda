// The examples in examples/ print what their comments say; the one with a
// kernel is in kernels/examples.mlir.
// RUN: %gpu-runner %S/../../examples/memcpy-round-trip.mlir | FileCheck %s --check-prefix=ROUND-TRIP
// RUN: %gpu-runner %S/../../examples/matrix-window.mlir | FileCheck %s --check-prefix=WINDOW
// RUN: %gpu-runner %S/../../examples/timed-copy.mlir | FileCheck %s --check-prefix=TIMED-COPY
// RUN: %gpu-runner %S/../../examples/timed-copy-sync.mlir | FileCheck %s --check-prefix=TIMED-SYNC

// ROUND-TRIP:      [0,  1,  2,  3,  4,  5,  6,  7]
// ROUND-TRIP:      [0,  1,  2,  3,  -1,  -1,  -1,  -1]

// WINDOW:      {{\[}}[0,   0,   0,   0,   0,   0],
// WINDOW-NEXT:  [0,   0,   0,   0,   0,   0],
// WINDOW-NEXT:  [0,   1,   2,   3,   0,   0],
// WINDOW-NEXT:  [0,   4,   5,   6,   0,   0],
// WINDOW-NEXT:  [0,   0,   0,   0,   0,   0],
// WINDOW-NEXT:  [0,   0,   0,   0,   0,   0]]
// WINDOW:      [0,  0,  2,  5,  0,  0]

// TIMED-COPY:      copied 67108864 bytes in {{[0-9.e+-]+}} ms: {{[0-9.e+-]+}} GB/s
// TIMED-COPY-NEXT: check: 0 wrong elements

// The byte counts are 2^22 i32 elements; each time is more than 0 (vector.print
// prints a zero as 0).
// TIMED-SYNC:      to the device: 16777216 bytes in {{([1-9]|0\.)[0-9.e+-]*}} ms
// TIMED-SYNC-NEXT: back to the host: 16777216 bytes in {{([1-9]|0\.)[0-9.e+-]*}} ms
// TIMED-SYNC-NEXT: check: 0 wrong elements
