"""heatrk4.step on NumPy arrays with the cpu backends: the command line's numbers bitwise, the
boundary layer untouched, both precisions, material fields as arrays, and the GIL released while it
computes."""
import os
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

    def test_a_radiation_face_radiates_eps_sigma_t4_and_a_hot_start_is_refused(self):
        # Order 2: the ghost is the flux closure's with Q from the face value, so the heat gained is
        # Q * area * dt to first order in a tiny step from a uniform 400 K.
        r, h, eps, t_inf, dt = 1, 0.1, 0.8, 300.0, 1e-7
        u = np.full((14, 13, 12), 400.0)
        faces = {face: "insulated" for face in ("x_low", "x_high", "y_low", "y_high", "z_low", "z_high")}
        faces["x_low"] = f"radiation:{eps},{t_inf}"
        before = 4.0 * self.total_heat(u, r) * h ** 3
        heatrk4.step(u, dt=dt, h=h, order=2, bc=faces, conductivity=2.0, heat_capacity=4.0)
        area = (u.shape[1] - 1 - 2 * r) * h * (u.shape[0] - 1 - 2 * r) * h
        radiated = eps * 5.670374419e-8 * (t_inf ** 4 - 400.0 ** 4) * area * dt
        gained = 4.0 * self.total_heat(u, r) * h ** 3 - before
        self.assertAlmostEqual(gained, radiated, delta=1e-3 * abs(radiated))
        with self.assertRaisesRegex(ValueError, "the emissivity EPS 1.5 must lie in"):
            heatrk4.step(u, bc="radiation:1.5,300")
        # 2000 K in the array (the options alone bound it by T_INF): a cell Biot number of 140.
        with self.assertRaisesRegex(ValueError, r"unstable with --bc-x-low radiation:1,300 \(Biot number h_rad\*h/K"):
            heatrk4.step(np.full((14, 14, 14), 2000.0), order=2, bc="radiation:1,300")

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


def positive_field(shape, low, high, seed):
    """K or C log-uniform over [low, high] at each point: positive everywhere, with sharp jumps."""
    return np.exp(np.random.default_rng(seed).uniform(np.log(low), np.log(high), shape))


class MaterialArrays(unittest.TestCase):
    """conductivity= and heat_capacity= as arrays: the command line's --conductivity-file and
    --heat-capacity-file, checked as they are."""

    SHAPE = (13, 14, 15)  # (nz, ny, nx): at least 3r + 1 = 13 points for a reflected face at order 8

    def test_an_insulated_box_keeps_its_heat_sum_of_c_u(self):
        for order in (2, 8):
            with self.subTest(order=order):
                r = order // 2
                u = random_field(shape=self.SHAPE)
                k = positive_field(self.SHAPE, 0.5, 50, 2)
                c = positive_field(self.SHAPE, 1, 10, 3)
                step = dict(cfl=0.2, order=order, bc="insulated", conductivity=k, heat_capacity=c)
                heatrk4.step(u, **step)  # ghosts as the fill leaves them
                before = FaceConditions.total_heat(c * u, r)
                heatrk4.step(u, steps=200, **step)
                after = FaceConditions.total_heat(c * u, r)
                self.assertNotEqual(np.abs(u[r:-r, r:-r, r:-r] - u.mean()).max(), 0)
                self.assertAlmostEqual(after, before, delta=1e-12 * np.abs(c * u).sum())

    def test_arrays_step_as_the_command_lines_files_bitwise(self):
        h = 0.1
        with tempfile.TemporaryDirectory() as tmp:
            for order, dtype in ((2, np.float32), (8, np.float64)):
                with self.subTest(order=order, dtype=dtype.__name__):
                    u = random_field(shape=self.SHAPE, dtype=dtype)
                    k = positive_field(self.SHAPE, 0.5, 50, 4)
                    c = positive_field(self.SHAPE, 1, 10, 5).astype(np.float32)  # widened exactly, as a file's
                    files = {name: os.path.join(tmp, f"{name}-{order}.hdf") for name in ("u", "k", "c")}
                    heatrk4.write(files["u"], u, h=h)
                    heatrk4.write(files["k"], k, h=h, array="k")
                    heatrk4.write(files["c"], c, h=h, array="c")
                    output = os.path.join(tmp, f"run-{order}")
                    heatrk4.run(init_file=files["u"], conductivity_file=files["k"], conductivity_array="k",
                                heat_capacity_file=files["c"], heat_capacity_array="c", h=h, order=order,
                                precision="float" if dtype == np.float32 else "double", cfl=0.2, steps=4,
                                output_every=4, bc="convective:2,0.5", output=output, quiet=True)
                    want = heatrk4.read(os.path.join(output, "heat_000004.hdf"))["u"]
                    heatrk4.step(u, h=h, order=order, cfl=0.2, steps=4, bc="convective:2,0.5", conductivity=k,
                                 heat_capacity=c)
                    assert_bitwise_equal(self, u, want, f"order {order}: arrays against --conductivity-file")

    def test_a_bad_value_is_refused_naming_its_point(self):
        u = random_field(shape=self.SHAPE)
        before = u.copy()
        for key in ("conductivity", "heat_capacity"):
            for bad in (0.0, -1.0, np.nan, np.inf):
                with self.subTest(key=key, bad=bad):
                    field = positive_field(self.SHAPE, 1, 2, 6)
                    field[7, 5, 3] = field[8, 9, 10] = bad  # [z, y, x]: the first in memory is (3, 5, 7)
                    with self.assertRaisesRegex(ValueError, rf"{key}= holds \S+ at \(3,5,7\): a conductivity or "
                                                            "heat capacity must be a positive number"):
                        heatrk4.step(u, cfl=0.1, order=2, **{key: field})
        for value, message in ((np.ones((13, 14)), "has 2 dimensions"), (np.ones((13, 14, 16)), "has shape"),
                               (np.ones(self.SHAPE, dtype=np.int64), "dtype is int64"),
                               (np.ones(self.SHAPE)[:, :, ::-1], "not C-contiguous")):
            with self.subTest(message=message), self.assertRaisesRegex(ValueError, message):
                heatrk4.step(u, cfl=0.1, order=2, conductivity=value)
        with self.assertRaisesRegex(ValueError, "--alpha and conductivity="):
            heatrk4.step(u, cfl=0.1, order=2, alpha=2.0, conductivity=np.ones(self.SHAPE))
        np.testing.assert_array_equal(u, before, "a refused call changed the array")

    def test_write_refuses_what_no_run_reads(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "f.hdf")
            for values, h, message in ((np.ones((3, 3)), 0.1, "has 2 dimensions"), (np.ones((3, 3, 3)), 0.0, "positive"),
                                       (np.full((3, 3, 3), np.nan), 0.1, r"nan at \(i, j, k\) = \(0, 0, 0\)")):
                with self.subTest(message=message), self.assertRaisesRegex(ValueError, message):
                    heatrk4.write(path, values, h=h)
            self.assertFalse(os.path.exists(path), "a refused write left a file")
