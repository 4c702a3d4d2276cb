#!/bin/sh
# The distributed ParaView test (docs/design.md §7): the same run on 1 rank and, under mpirun, on
# 2; pvbatch, headless under xvfb-run, opens both series and compares what it reads.
# Exit 77 (CTest's SKIP_RETURN_CODE) when ParaView is not installed: this script installs nothing.
# Usage: run_paraview_distributed_test.sh HEATRK4 MPIEXEC "MPIEXEC_FLAGS" PARAVIEW_PYTHONPATH WORK_DIR
set -eu
heatrk4=$1 mpiexec=$2 mpiexec_flags=$3 pythonpath=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)

. "$here/pvbatch_common.sh"
require_paraview "$pythonpath"

rm -rf "$work"
mkdir -p "$work"
run="--backend cpu --nx 13 --ny 11 --nz 9 --order 2 --steps 4 --output-every 2 --init randn --quiet"
# shellcheck disable=SC2086 # the option lists are meant to split
"$heatrk4" $run --output "$work/one"
# shellcheck disable=SC2086
TMPDIR=$work timeout 60 "$mpiexec" $mpiexec_flags -np 2 "$heatrk4" $run --output "$work/two"
[ -f "$work/two/heat_000004.rank1of2.h5" ] || { echo "FAILED: the 2-rank run wrote no slab files"; exit 1; }
run_pvbatch "$work/pvbatch.log" "$here/check_distributed.py" "$work/one" "$work/two"
