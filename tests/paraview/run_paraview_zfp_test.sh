#!/bin/sh
# ParaView reads heatrk4's ZFP snapshots through the H5Z-ZFP plugin (HDF5_PLUGIN_PATH), as a user
# would: write_paraview_fixture writes ZFP series (an error bound and reversible, float and
# double), and pvbatch checks ParaView's values against heatrk4's own reading and the bound.
# Exit 77 (skipped) without ParaView or the plugin. Usage: run_paraview_zfp_test.sh FIXTURE_EXE
# PARAVIEW_PYTHONPATH WORK_DIR PLUGIN_DIR
set -eu
fixture=$1 pythonpath=$2 work=$3 plugins=$4
here=$(cd "$(dirname "$0")" && pwd)

. "$here/pvbatch_common.sh"
require_paraview "$pythonpath"
[ -f "$plugins/libh5zzfp.so" ] || skip "no H5Z-ZFP plugin in $plugins (Debian: hdf5-filter-plugin-zfp-serial)"
HDF5_PLUGIN_PATH=$plugins
export HDF5_PLUGIN_PATH

rm -rf "$work"
# Debian's ParaView loads libcfitsio, whose own stream_open shadows zfp's in the plugin (each
# read then fails with "filter returned failure during read"); zfp loaded first keeps its own.
libzfp=$(ldd "$plugins/libh5zzfp.so" | awk '/libzfp/ {print $3}')
for codec in zfp:1e-4 zfp:reversible; do
  for precision in float double; do
    "$fixture" "$work/$codec/$precision" "$precision" hdf5 "$codec"
  done
done
LD_PRELOAD=$libzfp
export LD_PRELOAD
run_pvbatch "$work/pvbatch.log" "$here/check_zfp.py" "$work"
