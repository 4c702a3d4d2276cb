"""Every bad input to heatrk4.step, run, read and compare raises ValueError before any work, with
the command line's message where it has one; a failed step leaves a NumPy array as it was."""
import os
import re
import tempfile
import unittest

import numpy as np

import heatrk4
from support import random_field


class StepRefuses(unittest.TestCase):
    def refused(self, u, **options):
        before = u.copy() if isinstance(u, np.ndarray) else None
        with self.assertRaises(ValueError) as caught:
            heatrk4.step(u, **options)
        if before is not None:
            np.testing.assert_array_equal(u, before, "a refused call changed the array")
        return str(caught.exception)

    def command_line_message(self, **options):
        with self.assertRaises(ValueError) as caught:
            heatrk4.run(format="none", quiet=True, **options)
        return str(caught.exception)

    def test_a_non_finite_input_is_bad_input_not_a_blow_up(self):
        u = random_field()
        u[5, 4, 3] = np.nan  # (k, j, i): the point i = 3, j = 4, k = 5
        u[6, 0, 0] = np.inf
        message = self.refused(u, steps=1)
        self.assertIn("u holds 2 non-finite values, the first at (i, j, k) = (3, 4, 5)", message)
        self.assertIn("an initial field must be finite", message)
        self.assertNotIn("blew up", message)

    def test_dtype(self):
        for dtype in (np.int32, np.float16, np.complex64):
            with self.subTest(dtype=dtype.__name__):
                self.assertIn("float32 or float64", self.refused(random_field().astype(dtype)))

    def test_not_contiguous(self):
        self.assertIn("C-contiguous", self.refused(random_field().transpose(2, 1, 0)))
        self.assertIn("C-contiguous", self.refused(random_field(shape=(10, 11, 26))[:, :, ::2]))

    def test_not_3d(self):
        self.assertIn("2 dimensions", self.refused(np.zeros((16, 16))))
        self.assertIn("4 dimensions", self.refused(np.zeros((9, 9, 9, 2))))

    def test_not_an_array(self):
        self.assertIn("NumPy array or a CUDA array", self.refused([[[0.0] * 9] * 9] * 9))

    def test_read_only(self):
        u = random_field()
        u.flags.writeable = False
        self.assertIn("read-only", self.refused(u))

    def test_grid_too_small_for_the_order(self):
        message = self.refused(random_field(shape=(8, 9, 9)), order=8)
        self.assertEqual(message, self.command_line_message(nx=9, ny=9, nz=8, order=8))
        self.assertIn("too small for order 8", message)
        self.assertIn("must be a positive number of points", self.refused(np.zeros((0, 9, 9))))

    def test_unstable_cfl_and_dt(self):
        message = self.refused(random_field(), cfl=0.5, order=8)
        self.assertEqual(message, self.command_line_message(n=9, cfl=0.5, order=8))
        self.assertIn("unstable for order 8", message)
        # dt = 0.01 on h = 0.1: cfl = 0.01 * 300 = 3
        message = self.refused(random_field(), dt=0.01, h=0.1)
        self.assertEqual(message, self.command_line_message(n=9, dt=0.01, h=0.1))
        self.assertIn("unstable", message)

    def test_options_the_command_line_refuses(self):
        u = random_field()
        cases = [dict(order=3), dict(steps=0), dict(alpha=-1.0), dict(dt=1e-3, cfl=0.1), dict(cfl=0.0),
                 dict(h=-1.0), dict(backend="warp")]
        for options in cases:
            with self.subTest(**options):
                self.assertEqual(self.refused(u, **options), self.command_line_message(n=9, **options))

    def test_spacing_count(self):
        self.assertIn("three", self.refused(random_field(), h=(0.1, 0.1)))

    def test_cuda_only_option_on_a_cpu_backend(self):
        self.assertIn("device=0", self.refused(random_field(), device=0))
        self.assertIn("device=0", self.refused(random_field(), device=0, backend="cpu"))

    def test_cuda_backend_without_a_gpu(self):
        if heatrk4.gpu():
            self.skipTest("this machine has a GPU (test_gpu steps NumPy arrays on the CUDA backends)")
        if "no CUDA" in heatrk4.gpu().reason:
            self.skipTest("this build has no CUDA backends (they are unknown names here, not refused for want of a GPU)")
        for backend in ("tiled", "naive", "reuse"):
            with self.subTest(backend=backend):
                self.assertIn("needs a CUDA GPU", self.refused(random_field(), backend=backend))


class StepFailsWhole(unittest.TestCase):
    def test_a_blow_up_leaves_a_numpy_array_as_it_was(self):
        u = random_field()
        before = u.copy()
        with self.assertRaises(RuntimeError) as caught:
            heatrk4.step(u, cfl=50.0, steps=400, allow_unstable=True)
        # Found at the first check after it (a cfl of 50 overflows within a few dozen steps), not at the end.
        self.assertIn("blew up", str(caught.exception))
        found = re.search(r"after step (\d+), finite after step (\d+)", str(caught.exception))
        self.assertIsNotNone(found, str(caught.exception))
        self.assertLess(int(found[1]), 400, str(caught.exception))
        self.assertEqual(int(found[1]) - int(found[2]), 16, str(caught.exception))
        np.testing.assert_array_equal(u, before, "a failed step changed the array")


class FilesRefused(unittest.TestCase):
    def test_run_bad_options(self):
        with self.assertRaises(ValueError):
            heatrk4.run(n=9, no_such_option=3, format="none", quiet=True)
        with self.assertRaises(ValueError):
            heatrk4.run(n=9, order=5, format="none", quiet=True)
        with self.assertRaises(ValueError):
            heatrk4.run(init_file="/nonexistent/heat_000000.hdf", quiet=True)

    def test_read_and_compare_missing_files(self):
        with self.assertRaises(ValueError):
            heatrk4.read("/nonexistent.hdf")
        with self.assertRaises(ValueError):
            heatrk4.compare("/nonexistent-a.hdf", "/nonexistent-b.hdf")

    def test_compare_bad_tolerance(self):
        with tempfile.TemporaryDirectory() as tmp:
            heatrk4.run(n=9, steps=1, output=tmp, overwrite=True, quiet=True)
            path = os.path.join(tmp, "heat_000001.hdf")
            for bad in (-1.0, float("nan"), float("inf")):
                with self.subTest(rtol=bad):
                    with self.assertRaises(ValueError) as caught:
                        heatrk4.compare(path, path, rtol=bad)
                    self.assertIn("not a tolerance", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
