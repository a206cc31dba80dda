// RUN: %gpu-runner-opt --gpu-runner-check-printf --split-input-file --verify-diagnostics %s

func.func @count(%v: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{'gpu.printf' cannot print this format: conversion 2 '%d' at offset 3 of the format: it has no argument: the format has 2 conversions that take one, but 1 argument is passed}}
    gpu.printf "%d %d\n", %v : i32
    gpu.terminator
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @type(%v: f64) kernel {
      // expected-error @below {{'gpu.printf' cannot print this format: conversion 1 '%lld' at offset 2 of the format: argument 1 has type f64, but '%d' takes an integer; write '%f', '%e', '%g' or '%a' for a float}}
      gpu.printf "v=%lld\n", %v : f64
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @write(%v: i32) kernel {
      // expected-error @below {{'gpu.printf' cannot print this format: conversion 1 '%n' at offset 0 of the format: '%n' writes the number of characters printed so far to memory; gpu.printf does not take it}}
      gpu.printf "%n", %v : i32
      gpu.return
    }
  }
}
