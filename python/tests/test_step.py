"""heatrk4.step on NumPy arrays with the cpu backends: the command line's numbers bitwise, the
boundary layer untouched, both precisions, and the GIL released while it computes."""
import tempfile
import threading
import time
import unittest

import numpy as np

import heatrk4
from support import (DTYPES, ORDERS, PRECISIONS, assert_bitwise_equal, assert_init_file_run_matches_step,
                     boundary_planes, command_line_run, random_field, step_like)


class CommandLineNumbers(unittest.TestCase):
    def test_cpu_backends_match_the_command_line_bitwise(self):
        with tempfile.TemporaryDirectory() as tmp:
            for backend in ("cpu", "cpu_reference"):
                for order in ORDERS:
                    for precision in PRECISIONS:
                        with self.subTest(backend=backend, order=order, precision=precision):
                            first, last = command_line_run(tmp, backend, order, precision)
                            u = step_like(first, first["u"].copy(), backend)
                            assert_bitwise_equal(self, u, last["u"], f"{backend} order {order} {precision}")

    def test_init_file_run_matches_step(self):
        with tempfile.TemporaryDirectory() as tmp:
            assert_init_file_run_matches_step(self, "cpu", tmp)


class InPlace(unittest.TestCase):
    def test_boundary_layer_unchanged_and_interior_stepped(self):
        for order in ORDERS:
            for dtype in DTYPES.values():
                with self.subTest(order=order, dtype=dtype.__name__):
                    r = order // 2
                    u = random_field(dtype=dtype)
                    before = u.copy()
                    heatrk4.step(u, cfl=0.1, steps=2, order=order)
                    assert_bitwise_equal(self, boundary_planes(u, r), boundary_planes(before, r), "boundary layer")
                    self.assertFalse(np.array_equal(u[r:-r, r:-r, r:-r], before[r:-r, r:-r, r:-r]),
                                     "the interior did not change")
                    self.assertEqual(u.dtype, dtype)

    def test_steps_add_up(self):
        u, v = random_field(), random_field()
        heatrk4.step(u, dt=1e-4, h=0.1, steps=4)
        for _ in range(4):
            heatrk4.step(v, dt=1e-4, h=0.1)
        assert_bitwise_equal(self, u, v, "4 steps at once against 4 calls of one step")

    def test_spacing_per_axis(self):
        u, v = random_field(), random_field()
        heatrk4.step(u, cfl=0.05, h=(0.5, 0.5, 0.5))
        heatrk4.step(v, cfl=0.05, h=0.5)
        assert_bitwise_equal(self, u, v, "h=(0.5, 0.5, 0.5) against h=0.5")


class GilReleased(unittest.TestCase):
    def test_a_thread_runs_while_step_computes(self):
        # A thread that wakes every millisecond can record a time only while it holds the GIL, so
        # its records inside the call show that step let go of it.
        u = random_field(shape=(128, 128, 128), dtype=np.float64)  # tens of ms on 16 cores
        stamps, done = [], threading.Event()

        def tick():
            while not done.is_set():
                stamps.append(time.perf_counter())
                time.sleep(0.001)

        thread = threading.Thread(target=tick)
        thread.start()
        time.sleep(0.01)
        t0 = time.perf_counter()
        heatrk4.step(u, cfl=0.05, steps=8, backend="cpu")
        t1 = time.perf_counter()
        done.set()
        thread.join()
        inside = [t for t in stamps if t0 < t < t1]
        self.assertGreater(t1 - t0, 0.02, "the step was too short to tell")
        self.assertGreater(len(inside), 5, f"a thread woke {len(inside)} times in the {t1 - t0:.3f} s that "
                                           "heatrk4.step computed: is the GIL held?")


class FaceConditions(unittest.TestCase):
    """bc=, conductivity= and heat_capacity= mean what the command line's options do, tested by physics."""

    @staticmethod
    def total_heat(u, r):
        # The trapezoid rule over the stepped points, a half at each face point of a reflecting face
        # (docs/design.md §1, "Heat"); u is indexed [z, y, x].
        body = u[r:-r, r:-r, r:-r].copy()
        for axis in range(3):
            edge = [slice(None)] * 3
            for end in (0, -1):
                edge[axis] = end
                body[tuple(edge)] *= 0.5
        return body.sum()

    def test_an_insulated_box_keeps_its_heat(self):
        for order in (2, 8):
            with self.subTest(order=order):
                r = order // 2
                u = random_field(shape=(19, 17, 21))
                heatrk4.step(u, cfl=0.2, order=order, bc="insulated")  # ghosts as the fill leaves them
                before = self.total_heat(u, r)
                heatrk4.step(u, cfl=0.2, steps=300, order=order, bc="insulated")
                self.assertAlmostEqual(self.total_heat(u, r), before, delta=1e-12 * abs(before) + 1e-12)

    def test_a_flux_face_adds_q_times_area_times_time(self):
        r, q, h = 1, 3.0, 0.1
        u = random_field(shape=(14, 13, 12))
        faces = {"x_low": "insulated", "x_high": "insulated", "y_low": "insulated", "y_high": "insulated",
                 "z-low": "insulated", "z_high": f"flux:{q}"}
        heatrk4.step(u, dt=1e-4, h=h, order=2, bc=faces, conductivity=2.0, heat_capacity=4.0)
        before = 4.0 * self.total_heat(u, r) * h ** 3
        heatrk4.step(u, dt=1e-4, h=h, steps=500, order=2, bc=faces, conductivity=2.0, heat_capacity=4.0)
        area = (u.shape[2] - 1 - 2 * r) * h * (u.shape[1] - 1 - 2 * r) * h
        gained = 4.0 * self.total_heat(u, r) * h ** 3 - before
        self.assertAlmostEqual(gained, q * area * 500 * 1e-4, delta=1e-10)

    def test_bad_faces_are_refused(self):
        u = random_field()
        with self.assertRaisesRegex(ValueError, "the faces are x_low"):
            heatrk4.step(u, bc={"top": "insulated"})
        with self.assertRaisesRegex(ValueError, "periodic"):
            heatrk4.step(u, bc={"x_low": "periodic"})
        with self.assertRaises(TypeError):
            heatrk4.step(u, bc=3)


if __name__ == "__main__":
    unittest.main()
