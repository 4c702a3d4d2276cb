# pvbatch script of the distributed ParaView tests: opens the series of a 1-rank run and of the
# same run on several ranks the way a user would, and checks that ParaView reads the same times,
# grid and values, bitwise. SERIES (default heat.hdf.series): the series file of both runs, whose
# snapshots on several ranks are virtual datasets over slab files (.hdf) or .pvti files joining
# one .vti piece per rank (heat.pvd).
# Usage: pvbatch check_distributed.py ONE_RANK_DIR MANY_RANKS_DIR [SERIES]   (exit 0: all passed)
import os
import sys

from paraview.simple import ForceTime, OpenDataFile
from vtkmodules.util.numpy_support import vtk_to_numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paraview_checks import check, failures, image_of  # noqa: E402 (after the path is set)


def frames(directory, series):
    """(times, [(dimensions, values)]) of a run's series as ParaView reads them."""
    reader = OpenDataFile(directory + "/" + series)
    if reader is None:
        return [], []
    times = [float(t) for t in reader.TimestepValues]
    read = []
    for t in times:
        image = image_of(ForceTime(Input=reader, ForcedTime=t, IgnorePipelineTime=1))
        array = image.GetPointData().GetArray("u") if image is not None else None
        read.append((tuple(image.GetDimensions()) if image else None, vtk_to_numpy(array) if array else None))
    return times, read


one_dir, many_dir = sys.argv[1], sys.argv[2]
series = sys.argv[3] if len(sys.argv) > 3 else "heat.hdf.series"
one_times, one = frames(one_dir, series)
many_times, many = frames(many_dir, series)
check(len(one_times) >= 2, "1 rank: %d snapshots in the series" % len(one_times))
check(many_times == one_times, "ranks: time values %s, 1 rank %s" % (many_times, one_times))
for t, (one_frame, many_frame) in zip(one_times, zip(one, many)):
    check(many_frame[0] == one_frame[0], "t=%g: dimensions %s, 1 rank %s" % (t, many_frame[0], one_frame[0]))
    same = (many_frame[1] is not None and one_frame[1] is not None and many_frame[1].dtype == one_frame[1].dtype
            and many_frame[1].tobytes() == one_frame[1].tobytes())
    check(same, "t=%g: the values of the whole grid equal the 1-rank run's, bitwise" % t)
sys.exit(1 if failures else 0)
