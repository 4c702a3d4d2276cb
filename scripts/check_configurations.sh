#!/usr/bin/env bash
# The suite in the configurations users build, each with one part switched off: CUDA, VTK, MPI,
# libzfp, Python. Each configuration builds in build-conf/<name> and runs the whole suite (no
# fuzzers), which must pass with the absent part's tests skipped; the last line of each is its
# count. Every configuration is built without CUDA (the build with CUDA and its GPU suite are
# scripts/device_check.sh's), so each one's count is of the host's tests. Meant for a machine with
# many cores (a device call); CI keeps the default build.
#
#   scripts/check_configurations.sh [NAME...]     # default: every configuration
#   JOBS=16 OUT=/tmp/confs scripts/check_configurations.sh cuda-off mpi-off
#
# Exit 0 when every configuration built and passed; 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
OUT=${OUT:-/tmp/heatrk4-configurations}
mkdir -p "$OUT"
[ -d .deps/usr ] && export CMAKE_PREFIX_PATH="$PWD/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
[ -d .deps/usr ] && export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

declare -A switches=(
  [cuda-off]="-DHEAT_WITH_CUDA=OFF"
  [vtk-off]="-DHEAT_WITH_VTK=OFF"
  [mpi-off]="-DHEAT_WITH_MPI=OFF"
  [zfp-off]="-DHEAT_WITH_ZFP=OFF"
  [python-off]="-DHEAT_WITH_PYTHON=OFF"
)
names=("$@")
((${#names[@]})) || names=(cuda-off vtk-off mpi-off zfp-off python-off)
# The device has no VTK (scripts/stage_device_deps.sh stages none), so there every configuration is
# VTK-off as well.
failed=0
for name in "${names[@]}"; do
  [ -n "${switches[$name]:-}" ] || { echo "check_configurations: no configuration '$name'" >&2; exit 1; }
  dir=build-conf/$name
  log=$OUT/$name.log
  t0=$SECONDS
  if cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DHEAT_WITH_FUZZERS=OFF -DHEAT_WITH_CUDA=OFF \
       ${switches[$name]} >"$log" 2>&1 &&
     cmake --build "$dir" -j"$JOBS" >>"$log" 2>&1; then
    OMP_NUM_THREADS=2 ctest --test-dir "$dir" -j"$((JOBS / 2 > 0 ? JOBS / 2 : 1))" --output-on-failure >>"$log" 2>&1
    rc=$?
    summary=$(grep -E "tests passed|tests failed" "$log" | tail -1)
    skipped=$(grep -c "(Skipped)\|\*\*\*Skipped" "$log")
  else
    rc=1
    summary="did not build (see $log)"
    skipped=0
  fi
  ((rc == 0)) || failed=1
  echo "$name: $summary; $skipped skipped; $((SECONDS - t0)) s" | tee -a "$OUT/summary.txt"
done
exit $failed
