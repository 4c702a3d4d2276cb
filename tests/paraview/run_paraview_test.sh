#!/bin/sh
# The ParaView test (issue 5): writes snapshots with heatrk4's writer, then pvbatch, headless
# under xvfb-run, opens them and compares what it reads with what was written.
# Exit 77 (CTest's SKIP_RETURN_CODE) when ParaView is not installed: this script installs nothing.
# Usage: run_paraview_test.sh FIXTURE_EXE PARAVIEW_PYTHONPATH WORK_DIR WITH_VTK(ON|OFF)
set -eu
fixture=$1 pythonpath=$2 work=$3 with_vtk=$4
here=$(cd "$(dirname "$0")" && pwd)

. "$here/pvbatch_common.sh"
require_paraview "$pythonpath"

format=hdf5
[ "$with_vtk" = ON ] && format=both
rm -rf "$work"
for precision in float double; do
  "$fixture" "$work/$precision" "$precision" "$format"
done
run_pvbatch "$work/pvbatch.log" "$here/check_snapshots.py" "$work" "$format"
