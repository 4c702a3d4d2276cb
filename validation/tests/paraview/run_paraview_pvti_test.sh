#!/bin/sh
# The distributed VTK ParaView test (docs/design.md §7): the same run written as .vti on 1 rank
# and, under mpirun, as one .vti piece per rank joined by a .pvti on 2 and on 3 ranks; pvbatch,
# headless under xvfb-run, opens each heat.pvd and compares what it reads with the 1-rank run's.
# Exit 77 (CTest's SKIP_RETURN_CODE) when ParaView is not installed: this script installs nothing.
# Usage: run_paraview_pvti_test.sh HEATRK4 MPIEXEC "MPIEXEC_FLAGS" PARAVIEW_PYTHONPATH WORK_DIR
set -eu
heatrk4=$1 mpiexec=$2 mpiexec_flags=$3 pythonpath=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)

. "$here/pvbatch_common.sh"
require_paraview "$pythonpath"

rm -rf "$work"
mkdir -p "$work"
# nz 10: 2 ranks split it 5 and 5 planes, 3 ranks unevenly.
run="--backend cpu --nx 13 --ny 11 --nz 10 --order 2 --steps 4 --output-every 2 --init randn --format vtk --quiet"
# shellcheck disable=SC2086 # the option lists are meant to split
"$heatrk4" $run --output "$work/one"
for ranks in 2 3; do
  # shellcheck disable=SC2086
  TMPDIR=$work timeout 60 "$mpiexec" $mpiexec_flags -np $ranks "$heatrk4" $run --output "$work/ranks$ranks"
  last=$((ranks - 1))
  [ -f "$work/ranks$ranks/heat_000004.pvti" ] && [ -f "$work/ranks$ranks/heat_000004.rank${last}of$ranks.vti" ] ||
    { echo "FAILED: the $ranks-rank run wrote no .pvti over .vti pieces"; exit 1; }
  grep -q 'file="heat_000004.pvti"' "$work/ranks$ranks/heat.pvd" || { echo "FAILED: heat.pvd lists no .pvti"; exit 1; }
done
# run_pvbatch exits with pvbatch's status: the 2-rank run is judged in a shell of its own.
(run_pvbatch "$work/pvbatch2.log" "$here/check_distributed.py" "$work/one" "$work/ranks2" heat.pvd)
run_pvbatch "$work/pvbatch3.log" "$here/check_distributed.py" "$work/one" "$work/ranks3" heat.pvd
