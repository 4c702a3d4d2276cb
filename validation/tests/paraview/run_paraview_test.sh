#!/bin/sh
# The ParaView test (issue 5): writes snapshots with heatrk4's writer, then pvbatch, headless
# under xvfb-run, opens them and compares what it reads with what was written.
# Exit 77 (CTest's SKIP_RETURN_CODE) when ParaView is not installed: this script installs nothing.
# Usage: run_paraview_test.sh FIXTURE_EXE PARAVIEW_PYTHONPATH WORK_DIR WITH_VTK(ON|OFF)
set -eu
fixture=$1 pythonpath=$2 work=$3 with_vtk=$4
here=$(cd "$(dirname "$0")" && pwd)

skip() { echo "SKIPPED: $*"; exit 77; }
command -v pvbatch >/dev/null 2>&1 || skip "pvbatch not found (the set-up command installs Debian's paraview)"
command -v xvfb-run >/dev/null 2>&1 || skip "xvfb-run not found (the set-up command installs xvfb and xauth)"
# Debian 12's python3-paraview conflicts with libvtk9-dev, so the set-up unpacks it into the
# build tree (see shared/platform.md); a normally installed one works too.
if [ -f "$pythonpath/paraview/simple.py" ]; then
  PYTHONPATH="$pythonpath${PYTHONPATH:+:$PYTHONPATH}"
  export PYTHONPATH
elif [ ! -f /usr/lib/python3/dist-packages/paraview/simple.py ]; then
  skip "ParaView's python modules are neither in $pythonpath nor installed (the set-up command unpacks python3-paraview there)"
fi

format=hdf5
[ "$with_vtk" = ON ] && format=both
rm -rf "$work"
for precision in float double; do
  "$fixture" "$work/$precision" "$precision" "$format"
done
# -a: a free display number, so parallel ctest runs do not collide. Once in ~20 CI runs the
# virtual X server was gone when pvbatch opened its window ("bad X server connection"): that is
# the harness, not a reader, so such a run is repeated once on a fresh server.
run_pvbatch() {
  status=0
  xvfb-run -a pvbatch "$here/check_snapshots.py" "$work" "$format" >"$work/pvbatch.log" 2>&1 || status=$?
}
run_pvbatch
if grep -q "bad X server connection" "$work/pvbatch.log"; then
  cat "$work/pvbatch.log"
  echo "RETRY: the virtual X server was not reachable; once more on a fresh one"
  run_pvbatch
fi
cat "$work/pvbatch.log"
# A reader that reports an error has not opened the file cleanly, even if values came through.
if grep -q " ERR| " "$work/pvbatch.log"; then
  echo "FAILED: ParaView reported errors (the ERR| lines above)"
  exit 1
fi
exit $status
