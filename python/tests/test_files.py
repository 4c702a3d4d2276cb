"""heatrk4.run, read and compare: the command line's run with its summary as a dict, snapshots read
back with their settings, and compare's report as `heatrk4 compare` gives it."""
import os
import subprocess
import tempfile
import unittest

import numpy as np

import heatrk4
from support import assert_bitwise_equal


class RoundTrip(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "run")
        self.summary = heatrk4.run(n=17, order=4, steps=4, output_every=2, init="sine", alpha=0.5,
                                   precision="double", backend="cpu", output=self.out, quiet=True)

    def path(self, step):
        return os.path.join(self.out, f"heat_{step:06d}.hdf")

    def test_summary(self):
        s = self.summary
        self.assertEqual(s["problem"]["nx"], 17)
        self.assertEqual(s["problem"]["order"], 4)
        self.assertEqual(s["problem"]["steps"], 4)
        self.assertEqual(s["backend"], "cpu")
        self.assertIn("compute_s", s["timing"])

    def test_read(self):
        snapshot = heatrk4.read(self.path(2))
        u = snapshot["u"]
        self.assertEqual(u.shape, (17, 17, 17))
        self.assertEqual(u.dtype, np.float64)
        self.assertEqual(snapshot["step"], 2)
        self.assertAlmostEqual(snapshot["time"], 2 * self.summary["problem"]["dt"])
        self.assertEqual(snapshot["settings"]["order"], 4)
        self.assertEqual(snapshot["settings"]["alpha"], 0.5)
        self.assertEqual(snapshot["settings"]["dt"], self.summary["problem"]["dt"])
        self.assertEqual(snapshot["h"], (1 / 16, 1 / 16, 1 / 16))

    def test_step_continues_the_run(self):
        middle, last = heatrk4.read(self.path(2)), heatrk4.read(self.path(4))
        u = middle["u"].copy()
        heatrk4.step(u, dt=middle["settings"]["dt"], alpha=0.5, h=middle["h"], steps=2, order=4, backend="cpu")
        assert_bitwise_equal(self, u, last["u"], "steps 2 to 4 through heatrk4.step")

    def test_compare_as_the_command_line(self):
        same = heatrk4.compare(self.path(4), self.path(4))
        self.assertTrue(same["agree"])
        self.assertEqual(same["arrays"]["u"]["failures"], 0)
        self.assertEqual(same["arrays"]["u"]["rtol"], 1e-12)
        differ = heatrk4.compare(self.path(2), self.path(4), rtol=0, atol=0)
        self.assertFalse(differ["agree"])
        self.assertGreater(differ["arrays"]["u"]["failures"], 0)
        self.assertEqual(len(differ["arrays"]["u"]["first_failures"]), 5)
        self.assertEqual(differ["a"]["step"], 2)
        loose = heatrk4.compare(self.path(2), self.path(4), rtol=1.0, atol=1.0)
        self.assertTrue(loose["agree"])
        binary = os.environ.get("HEATRK4")
        if binary:
            for (a, b), result in (((4, 4), same), ((2, 4), None)):
                args = [binary, "compare", self.path(a), self.path(b)] + (["--rtol", "0", "--atol", "0"] if result is None else [])
                printed = subprocess.run(args, capture_output=True, text=True)
                want = same if result is not None else differ
                self.assertEqual(printed.returncode, 0 if want["agree"] else 1, printed.stdout)
                self.assertIn(want["arrays"]["u"]["summary"], printed.stdout)


class ZfpSnapshots(unittest.TestCase):
    """heatrk4.read decodes ZFP snapshots (--compress zfp:BOUND, zfp:reversible) with no plugin:
    within the bound of the uncompressed run's, reversible bitwise."""

    def test_read_within_the_bound(self):
        with tempfile.TemporaryDirectory() as tmp:
            fields = {}
            for codec in ("0", "zfp:1e-5", "zfp:reversible"):
                out = os.path.join(tmp, codec.replace(":", "_"))
                try:
                    heatrk4.run(nx=19, ny=13, nz=11, order=2, steps=2, precision="double", init="randn",
                                backend="cpu", output=out, compress=codec, quiet=True)
                except ValueError as e:
                    if "libzfp" in str(e):
                        self.skipTest("this build has no libzfp")
                    raise
                fields[codec] = heatrk4.read(os.path.join(out, "heat_000002.hdf"))["u"]
            error = np.max(np.abs(fields["zfp:1e-5"] - fields["0"]))
            self.assertLessEqual(error, 1e-5)
            self.assertGreater(error, 0)
            assert_bitwise_equal(self, fields["zfp:reversible"], fields["0"], "zfp:reversible")

def flip_filter_mask_bit(path, bit):
    """Flips one bit of the filter mask of the first chunk of the file's one chunked dataset in its
    index (a version-1 B-tree node of chunks: "TREE", type 1), the chunk's bytes left intact."""
    with open(path, "r+b") as f:
        data = f.read()
        node = data.find(b"TREE\x01")
        assert node >= 0 and data.find(b"TREE\x01", node + 1) < 0, "one chunk index expected in " + path
        mask_at = node + 24 + 4  # signature, type, level, entries, two siblings; then the key's size
        mask = int.from_bytes(data[mask_at:mask_at + 4], "little") ^ (1 << bit)
        f.seek(mask_at)
        f.write(mask.to_bytes(4, "little"))


class DamagedChunkIndex(unittest.TestCase):
    """heatrk4.read refuses a snapshot whose chunk index marks a filter skipped (ValueError naming
    the file and the chunk) for every codec, where HDF5 would decode it without that filter."""

    def test_read_refuses_a_flipped_filter_mask(self):
        with tempfile.TemporaryDirectory() as tmp:
            for codec, bit in (("0", 0), ("gzip:1", 1), ("zfp:1e-5", 0)):
                out = os.path.join(tmp, codec.replace(":", "_"))
                try:
                    heatrk4.run(nx=24, ny=20, nz=16, order=2, steps=1, init="randn", backend="cpu", output=out,
                                compress=codec, quiet=True)
                except ValueError as e:
                    if "libzfp" in str(e):
                        continue
                    raise
                path = os.path.join(out, "heat_000001.hdf")
                heatrk4.read(path)
                flip_filter_mask_bit(path, bit)
                with self.assertRaises(ValueError, msg=codec) as refused:
                    heatrk4.read(path)
                self.assertIn(path + ": the chunk at (z, y, x) = (0, 0, 0) cannot be read", str(refused.exception))


if __name__ == "__main__":
    unittest.main()
