"""README.md's Python example for NumPy and the cpu backend runs as it is written there, on a
machine without a GPU: the block is read from the README, not copied into the test."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest

import heatrk4

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def numpy_example():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    numpy_blocks = [b for b in blocks if "import numpy" in b and "torch" not in b]
    if len(numpy_blocks) != 1:
        raise AssertionError(f"README.md has {len(numpy_blocks)} NumPy examples, the test expects one")
    return numpy_blocks[0]


class ReadmeExample(unittest.TestCase):
    def test_the_numpy_example_runs_as_written(self):
        # The module this suite tests, wherever the example runs from.
        path = os.pathsep.join([os.path.dirname(os.path.abspath(heatrk4.__file__)), os.environ.get("PYTHONPATH", "")])
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([sys.executable, "-c", numpy_example()], cwd=tmp, capture_output=True, text=True,
                                  env=dict(os.environ, PYTHONPATH=path), timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        first, second = done.stdout.splitlines()
        self.assertTrue(first.startswith("0.") and "largest change" in first, first)
        self.assertGreater(float(first.split()[-1]), 0.0)
        self.assertRegex(second, r"^(cpu|tiled) [0-9.e+-]+ ms/step$")


if __name__ == "__main__":
    unittest.main()
