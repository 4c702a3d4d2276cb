#!/bin/sh
# The distributed ParaView tests (docs/design.md §7): the same run on 1 rank and, under mpirun, on
# 2, 3 and 4 (a 1x2x2 rank grid); pvbatch, headless under xvfb-run, opens each run's series and
# compares what it reads.
# FORMAT hdf5 (the default): .hdf snapshots over slab files in heat.hdf.series; vtk: .pvti files
# over one .vti piece per rank in heat.pvd, against the 1-rank run's .vti.
# Exit 77 (CTest's SKIP_RETURN_CODE) when ParaView is not installed: this script installs nothing.
# Usage: run_paraview_distributed_test.sh HEATRK4 MPIEXEC "MPIEXEC_FLAGS" PARAVIEW_PYTHONPATH WORK_DIR [FORMAT]
set -eu
heatrk4=$1 mpiexec=$2 mpiexec_flags=$3 pythonpath=$4 work=$5 format=${6:-hdf5}
here=$(cd "$(dirname "$0")" && pwd)

. "$here/pvbatch_common.sh"
require_paraview "$pythonpath"

rm -rf "$work"
mkdir -p "$work"
case $format in
  vtk) series=heat.pvd piece=vti over=pvti ;;
  *) series=heat.hdf.series piece=h5 over=hdf ;;
esac
# nz 10: even slabs on 2 ranks, uneven on 3.
run="--backend cpu --nx 13 --ny 11 --nz 10 --order 2 --steps 4 --output-every 2 --init randn --format $format --quiet"
# shellcheck disable=SC2086 # the option lists are meant to split
"$heatrk4" $run --output "$work/one"
# 4 ranks on a 1x2x2 grid: .hdf snapshots over slab files of boxes (.vti pieces stay whole planes).
for ranks in 2 3 4; do
  grid=
  [ "$ranks" = 4 ] && grid="--ranks-grid 1x2x2"
  # shellcheck disable=SC2086
  TMPDIR=$work timeout 60 "$mpiexec" $mpiexec_flags -np $ranks "$heatrk4" $run $grid --output "$work/ranks$ranks"
  last=$((ranks - 1))
  [ -f "$work/ranks$ranks/heat_000004.$over" ] && [ -f "$work/ranks$ranks/heat_000004.rank${last}of$ranks.$piece" ] ||
    { echo "FAILED: the $ranks-rank run wrote no heat_000004.$over over .$piece pieces"; exit 1; }
  grep -q "heat_000004.$over" "$work/ranks$ranks/$series" || { echo "FAILED: $series lists no .$over"; exit 1; }
done
# run_pvbatch exits with pvbatch's status: the 2-rank run is judged in a shell of its own.
(run_pvbatch "$work/pvbatch2.log" "$here/check_distributed.py" "$work/one" "$work/ranks2" $series)
(run_pvbatch "$work/pvbatch3.log" "$here/check_distributed.py" "$work/one" "$work/ranks3" $series)
run_pvbatch "$work/pvbatch4.log" "$here/check_distributed.py" "$work/one" "$work/ranks4" $series
