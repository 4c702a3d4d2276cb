#!/usr/bin/env bash
# Runs a set of tests several times on a loaded machine: one busy loop per core beside
# `ctest -j8`, so that a test whose assertion depends on timing fails here rather than now and then
# in CI (a shared 2-core machine). Reports each round's result; exit 0 when every round passed.
#
#   scripts/tests_under_load.sh [ROUNDS] [REGEX]    # default: 5 rounds of the MPI and pipeline tests
#   BUILD=build JOBS=8 scripts/tests_under_load.sh 5 'Mpirun|SnapshotPipeline'
set -uo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
REGEX=${2:-Mpirun|mpi_test|SnapshotPipeline|ChunkPipeline}
BUILD=${BUILD:-build}
JOBS=${JOBS:-8}
hogs=()
stop_hogs() { ((${#hogs[@]})) && kill "${hogs[@]}" 2>/dev/null; wait 2>/dev/null; }
trap stop_hogs EXIT
for ((core = 0; core < $(nproc); ++core)); do
  (while :; do :; done) &
  hogs+=($!)
done
failed=0
for ((round = 1; round <= ROUNDS; ++round)); do
  log=$(mktemp)
  ctest --test-dir "$BUILD" -j"$JOBS" -R "$REGEX" --output-on-failure >"$log" 2>&1
  rc=$?
  echo "round $round: $(grep -E "tests passed|tests failed" "$log" | tail -1) ($(grep -E "Total Test time" "$log" | grep -oE "[0-9.]+ sec"))"
  if ((rc != 0)); then
    failed=1
    grep -E "\(Failed\)|\(Timeout\)" "$log"
  fi
  rm -f "$log"
done
exit $failed
