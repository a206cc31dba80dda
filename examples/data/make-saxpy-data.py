"""Writes the NumPy files of examples/saxpy-kernel.mlir: x, y and the y that
saxpy with a = 2 makes. Run with a Python that has NumPy (Debian's
python3-numpy serves /usr/bin/python3):

    /usr/bin/python3 examples/data/make-saxpy-data.py
"""
import os

import numpy as np

folder = os.path.dirname(os.path.abspath(__file__))
x = np.arange(10, dtype=np.float32)
y = np.full(10, 0.5, dtype=np.float32)
np.save(os.path.join(folder, "x.npy"), x)
np.save(os.path.join(folder, "y.npy"), y)
np.save(os.path.join(folder, "expected-y.npy"), 2 * x + y)
