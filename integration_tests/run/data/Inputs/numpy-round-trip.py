"""The NumPy side of numpy-round-trip.mlir.

numpy-round-trip.py write DIR  writes the inputs with NumPy's own numpy.save
numpy-round-trip.py check DIR  reads gpu-runner's outputs with numpy.load and
                               compares their dtype, shape and values with
                               what the program computes, done here again
"""
import os
import sys

import numpy as np

command, folder = sys.argv[1], sys.argv[2]


def path(name):
    return os.path.join(folder, name)


inputs = {
    "a": np.arange(6, dtype=np.float32).reshape(2, 3) / 4,
    "b": np.array([-3, 0, 2**40, 2**62], dtype=np.int64),
    "c": np.array([True, False, True]),
    "d": np.array([0.5, -1.25, 65504], dtype=np.float16),
    "e": np.array([0, 1, 200, 255], dtype=np.uint8),
    "f": np.array(2.5, dtype=np.float64),
}

if command == "write":
    for name, array in inputs.items():
        np.save(path(name + ".npy"), array)
    sys.exit(0)

# What the program computes; an unsigned input comes back as the signless
# integers' signed NumPy type, with the same bits.
expected = {
    "a": inputs["a"] * 2,
    "b": inputs["b"] + 1,
    "c": ~inputs["c"],
    "d": -inputs["d"],
    "e": (inputs["e"] + 1).astype(np.uint8).view(np.int8),
    "f": np.array(inputs["f"] * 3),
}
for name, want in expected.items():
    got = np.load(path("out-" + name + ".npy"))
    same = (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want))
    print("%s: %s %s %s" % (name, got.dtype, got.shape,
                            "equal" if same else "DIFFERENT: %r" % got))
