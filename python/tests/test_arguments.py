"""The Python front's arguments: every value of the wrong type is a TypeError (a value the command
line refuses, a ValueError) naming the argument, the value and what is accepted; paths may be
os.PathLike; run's report comes from the run itself; step checks memory as the command line does;
gpu() is false without a usable GPU; __version__ is the project's version."""
import json
import os
import pathlib
import re
import subprocess
import tempfile
import unittest

import numpy as np

import heatrk4
from support import assert_bitwise_equal, random_field

SOURCE = pathlib.Path(__file__).resolve().parents[2]


class StepArgumentTypes(unittest.TestCase):
    def refused(self, error, **options):
        u = random_field()
        before = u.copy()
        with self.assertRaises(error) as caught:
            heatrk4.step(u, **options)
        np.testing.assert_array_equal(u, before, "a refused call changed the array")
        return str(caught.exception)

    def test_material_fields_take_numbers_or_arrays_of_the_grid(self):
        for key in ("conductivity", "heat_capacity"):
            with self.subTest(key=key):
                self.assertIn(f"{key} has 1 dimensions", self.refused(ValueError, **{key: [2.0, 3.0]}))
                self.assertIn(f"{key}=", self.refused(TypeError, **{key: "2"}))
                u = random_field()
                heatrk4.step(u, cfl=0.05, order=2, **{key: np.full(u.shape, 2.0)})

    def test_wrong_types_name_the_argument_the_value_and_what_is_accepted(self):
        cases = [("dt", "0.001", "a number"), ("cfl", "0.1", "a number"), ("h", "abc", "a number"),
                 ("alpha", "0.5", "a number"), ("device", "cuda:0", "a whole number"), ("steps", 2.0, "a whole number"),
                 ("order", "8", "a whole number"), ("steps", True, "a whole number"), ("dt", True, "a number"),
                 ("backend", 3, "a str"), ("allow_unstable", 1, "True or False")]
        for key, value, accepted in cases:
            with self.subTest(key=key, value=value):
                message = self.refused(TypeError, **{key: value})
                self.assertIn(f"{key}={value!r}", message)
                self.assertIn(accepted, message)
                self.assertNotIn("Unable to cast", message)

    def test_one_spacing_of_three_of_the_wrong_type(self):
        self.assertIn("h[1]='x'", self.refused(TypeError, h=(0.1, "x", 0.1)))

    def test_numpy_scalars_are_numbers(self):
        u, v = random_field(), random_field()
        heatrk4.step(u, dt=np.float32(1e-4), steps=np.int64(2), order=np.int32(4), h=np.float64(0.1))
        heatrk4.step(v, dt=float(np.float32(1e-4)), steps=2, order=4, h=0.1)
        assert_bitwise_equal(self, u, v, "NumPy scalars against Python numbers")

    def test_an_int_too_large_is_a_value_error(self):
        self.assertIn("outside an int's range", self.refused(ValueError, steps=2**40))


class RunArguments(unittest.TestCase):
    def refused(self, error, **options):
        with self.assertRaises(error) as caught:
            heatrk4.run(**{"n": 9, "steps": 1, "format": "none", "quiet": True, **options})
        return str(caught.exception)

    def test_a_bool_for_an_option_that_takes_a_value(self):
        with tempfile.TemporaryDirectory() as tmp:
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                pathlib.Path("False").write_text('{"not": "the summary"}')
                for key in ("json", "output", "n", "cfl", "init"):
                    with self.subTest(key=key):
                        message = self.refused(TypeError, **{key: False})
                        self.assertIn(f"{key}=False", message)
            finally:
                os.chdir(cwd)

    def test_a_flag_takes_a_bool(self):
        for value in (1, "yes", 0.0):
            with self.subTest(value=value):
                self.assertIn("True or False", self.refused(TypeError, check=value))

    def test_other_types(self):
        self.assertIn("n='8'", self.refused(TypeError, n="8"))
        self.assertIn("output=3", self.refused(TypeError, output=3))
        self.assertIn("3 values", self.refused(TypeError, modes=(1, 2)))
        self.assertIn("seed=-1", self.refused(ValueError, seed=-1))

    def test_help_and_unknown_keys_are_refused_by_name(self):
        self.assertIn("help=True", self.refused(ValueError, help=True))
        self.assertIn("--no-such-option", self.refused(ValueError, no_such_option=1))

    def test_a_value_that_starts_with_a_dash_stays_a_value(self):
        with tempfile.TemporaryDirectory() as tmp:
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                heatrk4.run(n=9, steps=1, format="hdf5", output="--steps", quiet=True)
                self.assertTrue(os.path.exists(os.path.join("--steps", "heat_000001.hdf")))
            finally:
                os.chdir(cwd)

    def test_a_number_reaches_the_run_with_every_digit(self):
        # 17 significant digits: a value passed on as text of fewer digits would arrive changed.
        dt = 1.2345678901234567e-05
        alpha = 0.10000000000000002
        report = heatrk4.run(n=9, steps=1, dt=dt, alpha=alpha, format="none", quiet=True, backend="cpu")
        self.assertEqual(report["problem"]["dt"], dt)
        self.assertEqual(report["problem"]["alpha"], alpha)

    def test_boundary_conditions_and_material_are_keywords(self):
        report = heatrk4.run(n=14, steps=2, bc="insulated", bc_z_high="temperature:1", bc_x_low="flux:2.5",
                             conductivity=2.0, heat_capacity=4.0, format="none", quiet=True, precision="double")
        self.assertEqual(report["problem"]["alpha"], 0.5)
        faces = report["problem"]["boundaries"]
        self.assertEqual((faces["x-low"], faces["y-low"], faces["z-high"]), ("flux:2.5", "insulated", "temperature:1"))
        self.assertIn("--bc-x-low periodic needs --bc-x-high periodic too", self.refused(ValueError, bc_x_low="periodic"))
        self.assertIn("--bc-y-high cold is not a boundary condition", self.refused(ValueError, bc_y_high="cold"))

    def test_a_config_file_gives_what_the_keywords_leave_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            config = pathlib.Path(tmp, "run.toml")
            config.write_text("n = 11\nsteps = 3\nformat = 'none'\n")
            report = heatrk4.run(config=config, steps=1, quiet=True, backend="cpu")
            self.assertEqual(report["final_step"], 1)  # the keyword wins over the file
            self.assertEqual([report["problem"][a] for a in ("nx", "ny", "nz")], [11, 11, 11])
            config.write_text("steps = 0\n")
            with self.assertRaises(ValueError) as caught:
                heatrk4.run(config=config, n=9, quiet=True, backend="cpu", format="none")
            self.assertIn("--config %s line 1: key steps: --steps 0 must be at least 1" % config, str(caught.exception))

    def test_the_report_is_the_json_summary_and_needs_no_temporary_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            saved = tempfile.tempdir
            tempfile.tempdir = os.path.join(tmp, "no-such-directory")  # nothing may be written there
            try:
                report = heatrk4.run(n=9, steps=2, format="none", quiet=True)
            finally:
                tempfile.tempdir = saved
            self.assertEqual(report["final_step"], 2)
            written = heatrk4.run(n=9, steps=2, format="none", quiet=True, json=pathlib.Path(tmp, "s.json"))
            self.assertEqual(written, json.loads(pathlib.Path(tmp, "s.json").read_text()))


class PathLikeEverywhere(unittest.TestCase):
    def test_read_compare_and_run_take_paths(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp, "run")
            heatrk4.run(n=9, steps=2, output_every=1, output=out, quiet=True)
            first, last = out / "heat_000001.hdf", out / "heat_000002.hdf"
            self.assertEqual(heatrk4.read(first)["step"], 1)
            self.assertEqual(heatrk4.read(os.fsencode(first))["step"], 1)
            self.assertFalse(heatrk4.compare(first, last)["agree"])
            self.assertTrue(heatrk4.compare(last, str(last))["agree"])
            again = heatrk4.run(init_file=first, steps=1, output=pathlib.Path(tmp, "again"), quiet=True)
            self.assertEqual(again["final_step"], 2)

    def test_a_path_of_the_wrong_type(self):
        for call in (lambda: heatrk4.read(3), lambda: heatrk4.compare(None, "b.hdf")):
            with self.assertRaises(TypeError) as caught:
                call()
            self.assertIn("os.PathLike", str(caught.exception))


class StepMemoryCheck(unittest.TestCase):
    def test_a_grid_larger_than_memory_is_refused_before_any_work(self):
        # An array larger than the machine's memory, on a sparse file: its pages are never touched.
        meminfo = pathlib.Path("/proc/meminfo").read_text()
        total = sum(int(re.search(rf"^{key}:\s+(\d+) kB", meminfo, re.M).group(1)) * 1024
                    for key in ("MemTotal", "SwapTotal"))
        nz = total // (4 * 1000 * 1000) + 100
        with tempfile.TemporaryDirectory() as tmp:
            u = np.memmap(os.path.join(tmp, "huge.f32"), dtype=np.float32, mode="w+", shape=(nz, 1000, 1000))
            with self.assertRaises(ValueError) as caught:
                heatrk4.step(u, steps=1)
            message = str(caught.exception)
            self.assertIn("heatrk4.step needs about", message)
            self.assertIn("bytes of host memory but", message)
            with self.assertRaises(ValueError) as caught:
                heatrk4.run(nx=1000, ny=1000, nz=nz, backend="cpu", format="none", quiet=True)
            self.assertIn("bytes of host memory but", str(caught.exception))
            del u


class GpuAndVersion(unittest.TestCase):
    def test_gpu_is_true_only_where_a_gpu_can_be_used(self):
        gpu = heatrk4.gpu()
        self.assertIs(bool(gpu), gpu.available)
        if not gpu.available:
            self.assertFalse(gpu, "heatrk4.gpu() is true on a machine without a usable GPU")
            self.assertTrue(gpu.reason)
            self.assertIn(gpu.reason, repr(gpu))

    def test_version_is_the_projects_and_the_command_lines(self):
        project = re.search(r"project\(heatrk4 VERSION ([0-9.]+)", (SOURCE / "CMakeLists.txt").read_text()).group(1)
        self.assertEqual(heatrk4.__version__, project)
        printed = subprocess.run([os.environ["HEATRK4"], "--version"], capture_output=True, text=True, check=True)
        self.assertEqual(printed.stdout.strip(), f"heatrk4 {project}")


if __name__ == "__main__":
    unittest.main()
