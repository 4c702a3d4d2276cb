# pvbatch script of the ZFP ParaView test: opens each ZFP series that write_paraview_fixture wrote
# (run_paraview_zfp_test.sh) with OpenDataFile and checks that ParaView reads, at every time, the
# values heatrk4's own reader decodes (bitwise) and that they are within the codec's bound of the
# values written (reversible: bitwise). Usage: pvbatch check_zfp.py WORK_DIR
import os
import sys

import numpy as np
from paraview.simple import ForceTime, OpenDataFile
from vtkmodules.util.numpy_support import vtk_to_numpy

STEPS = (0, 3, 6)  # must match write_paraview_fixture.cpp
TIME_PER_STEP = 0.125
BOUNDS = {"zfp:1e-4": 1e-4, "zfp:reversible": 0.0}

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paraview_checks import check, failures, image_of  # noqa: E402 (after the path is set)


def main():
    work = sys.argv[1]
    for codec, bound in BOUNDS.items():
        for precision, dtype in (("float", np.float32), ("double", np.float64)):
            label = "%s %s" % (codec, precision)
            directory = os.path.join(work, codec, precision)
            reader = OpenDataFile(os.path.join(directory, "heat.hdf.series"))
            check(reader is not None, "%s: ParaView opens heat.hdf.series" % label)
            if reader is None:
                continue
            times = [float(t) for t in reader.TimestepValues]
            check(times == [s * TIME_PER_STEP for s in STEPS], "%s: time values %s" % (label, times))
            for step in STEPS:
                written = np.fromfile(os.path.join(directory, "u_%d.raw" % step), dtype=dtype)
                decoded = np.fromfile(os.path.join(directory, "decoded_%d.raw" % step), dtype=dtype)
                image = image_of(ForceTime(Input=reader, ForcedTime=step * TIME_PER_STEP, IgnorePipelineTime=1))
                array = image.GetPointData().GetArray("u") if image is not None else None
                check(array is not None, "%s step %d: ParaView reads the point array u" % (label, step))
                if array is None:
                    continue
                values = vtk_to_numpy(array)
                check(values.tobytes() == decoded.tobytes(),
                      "%s step %d: %d values bitwise heatrk4's own reading" % (label, step, values.size))
                error = float(np.max(np.abs(values.astype(np.float64) - written.astype(np.float64))))
                check(error <= bound, "%s step %d: max error %.3g within the bound %g" % (label, step, error, bound))
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    sys.stdout.flush()
    os._exit(1 if failures else 0)  # past ParaView's teardown under Xvfb (see check_snapshots.py)


main()
