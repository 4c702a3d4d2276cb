"""heatrk4.step of NumPy arrays on the CUDA backends (upload, step, download): the command line's
numbers bitwise for every CUDA backend, order and precision, and the boundary layer untouched.
Needs a CUDA GPU; without one every test skips and CTest reports the suite as skipped."""
import tempfile
import unittest

import numpy as np

import heatrk4
from support import (DTYPES, ORDERS, PRECISIONS, assert_bitwise_equal, assert_init_file_run_matches_step,
                     boundary_planes, command_line_run, random_field, step_like)

GPU = heatrk4.gpu()
CUDA_BACKENDS = ("naive", "reuse", "tiled")


@unittest.skipUnless(GPU.available, f"no CUDA GPU: {GPU.reason}")
class NumpyOnCudaBackends(unittest.TestCase):
    def test_matches_the_command_line_bitwise(self):
        with tempfile.TemporaryDirectory() as tmp:
            for backend in CUDA_BACKENDS:
                for order in ORDERS:
                    for precision in PRECISIONS:
                        with self.subTest(backend=backend, order=order, precision=precision):
                            first, last = command_line_run(tmp, backend, order, precision)
                            u = step_like(first, first["u"].copy(), backend)
                            assert_bitwise_equal(self, u, last["u"],
                                                 f"NumPy array on {backend}, order {order}, {precision}, against "
                                                 "heatrk4.run with the same backend")

    def test_init_file_run_matches_step(self):
        with tempfile.TemporaryDirectory() as tmp:
            assert_init_file_run_matches_step(self, "tiled", tmp)

    def test_boundary_layer_unchanged(self):
        for backend in CUDA_BACKENDS:
            for order in ORDERS:
                for dtype in DTYPES.values():
                    with self.subTest(backend=backend, order=order, dtype=dtype.__name__):
                        r = order // 2
                        u = random_field(shape=(21, 19, 34), dtype=dtype)
                        before = u.copy()
                        heatrk4.step(u, cfl=0.1, steps=3, order=order, backend=backend)
                        assert_bitwise_equal(self, boundary_planes(u, r), boundary_planes(before, r),
                                             f"{backend}: boundary layer after 3 steps")
                        self.assertFalse(np.array_equal(u, before), f"{backend}: the field did not change")

    def test_cpu_backend_with_a_device_is_refused(self):
        with self.assertRaises(ValueError):
            heatrk4.step(random_field(), backend="cpu", device=0)


if __name__ == "__main__":
    unittest.main()
