"""Runs one test module of python/tests under unittest for CTest: exit 0 when its tests pass, 1
when one fails, 77 (CTest's SKIP_RETURN_CODE) when every test was skipped, so a suite that needs
a GPU or PyTorch is reported as skipped where they are missing, never as passed."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
suite = unittest.defaultTestLoader.loadTestsFromName(sys.argv[1])
result = unittest.TextTestRunner(verbosity=2).run(suite)
if not result.wasSuccessful():
    sys.exit(1)
if result.testsRun and len(result.skipped) == result.testsRun:
    print(f"every test of {sys.argv[1]} skipped: {result.skipped[0][1]}")
    sys.exit(77)
