#!/usr/bin/env bash
# The whole benchmark on the device machine, in one command: heatrk4-bench over the order x
# precision matrix at 600^3 and over the size sweep at order 8 float, the PyTorch peers against
# heatrk4 (benchmarks/peers.py), and the pictures (benchmarks/plot_results.py).
#
#   benchmarks/run_all.sh [BUILD_DIR [OUT_DIR]]
#
# BUILD_DIR defaults to build-gpu (what scripts/device_check.sh builds); OUT_DIR to $OUT, else
# benchmarks/results/latest. OUT_DIR gets 7 flat files: bench.csv, bench.json, peers.csv,
# peers.json, bench_sizes.png, reference_problem.png and run_all.log (everything printed here).
# Settings from the environment: SIZES (the sweep; default 128 192 256 384 512 768 1024, sizes
# that do not fit the GPU are skipped), MATRIX_N (600), REPEATS (10), COMMIT (the git commit
# to record where the copy has no .git), PYTHON (python3).
# Exit status: 0 when every stage ran and every check passed, else the first failing stage's.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-build-gpu}
RESULTS=${2:-${OUT:-benchmarks/results/latest}}
PYTHON=${PYTHON:-python3}
read -r -a SWEEP <<<"${SIZES:-128 192 256 384 512 768 1024}"
MATRIX_N=${MATRIX_N:-600}
REPEATS=${REPEATS:-10}
BENCH=$BUILD/benchmarks/heatrk4-bench
HEATRK4=$BUILD/apps/heatrk4

mkdir -p "$RESULTS" || exit 2
# A stale file from an earlier run must not pass for this run's result.
for name in bench.csv bench.json peers.csv peers.json bench_sizes.png reference_problem.png; do
  rm -f "${RESULTS:?}/$name"
done
LOG=$RESULTS/run_all.log
: >"$LOG"
# Per-size CSVs and JSONs, merged at the end; kept out of RESULTS, which the transfer limits.
PARTS=$(mktemp -d /tmp/heatrk4-run-all.XXXXXX)
trap 'rm -rf "$PARTS"' EXIT
status=0
t_start=$SECONDS

say() { echo "$*" | tee -a "$LOG"; }

# Runs one stage, prints and logs what it ran, its output and its exit status.
stage() {
  local name=$1
  shift
  say "== $name: $*"
  local t0=$SECONDS
  "$@" 2>&1 | tee -a "$LOG"
  local rc=${PIPESTATUS[0]}
  if ((rc == 0)); then
    say "   -> $name: exit 0 in $((SECONDS - t0)) s"
  else
    say "   -> $name: FAILED with exit $rc in $((SECONDS - t0)) s"
    ((status == 0)) && status=$rc
  fi
  return "$rc"
}

for binary in "$BENCH" "$HEATRK4"; do
  if [[ ! -x $binary ]]; then
    say "run_all: $binary is missing: build first (scripts/device_check.sh build)"
    exit 2
  fi
done

COMMIT=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
say "run_all: commit $COMMIT, build $BUILD, results in $RESULTS, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee -a "$LOG"

# A size fits when naive's five fields (u and k1..k4, the largest working set of the backends)
# plus a spare one fit in 90% of the GPU's memory.
gpu_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | head -n1 | tr -d ' ')
fits() {
  local n=$1
  [[ $gpu_mib =~ ^[0-9]+$ ]] || return 0
  (((6 * n * n * n * 4) / 1048576 < gpu_mib * 9 / 10))
}

# 1. Every order and precision at MATRIX_N (this also gives the reference problem's rows).
stage "bench-matrix-$MATRIX_N" "$BENCH" --sizes "$MATRIX_N" --orders 2 4 6 8 --precisions float double \
  --backends naive reuse tiled --repeats "$REPEATS" --csv "$PARTS/bench_0_matrix.csv" \
  --json "$PARTS/bench_0_matrix.json"

# 2. The size sweep at order 8 float, one size per run so that a size that fails loses only itself.
for n in "${SWEEP[@]}"; do
  [[ $n == "$MATRIX_N" ]] && continue # measured in the matrix
  if ! fits "$n"; then
    say "== bench-$n: skipped: $n^3 does not fit in ${gpu_mib} MiB"
    continue
  fi
  stage "bench-$n" "$BENCH" --sizes "$n" --orders 8 --precisions float --backends naive reuse tiled \
    --repeats "$REPEATS" --csv "$PARTS/bench_$(printf %05d "$n").csv" --json "$PARTS/bench_$(printf %05d "$n").json"
done

# Merge: one header, rows in the order measured; the JSON rows likewise, with the run's metadata.
stage merge "$PYTHON" - "$PARTS" "$RESULTS" "$COMMIT" <<'EOF'
import csv, datetime, glob, json, os, sys
parts, results, commit = sys.argv[1:4]
rows, json_rows, device = [], [], ""
for path in sorted(glob.glob(os.path.join(parts, "bench_*.csv"))):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        rows += list(reader)
    with open(path[:-4] + ".json") as f:
        part = json.load(f)
    device = part["device"]
    json_rows += part["rows"]
if not rows:
    sys.exit("merge: no bench CSV was written")
with open(os.path.join(results, "bench.csv"), "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(header)
    out.writerows(rows)
with open(os.path.join(results, "bench.json"), "w") as f:
    json.dump({"device": device, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "commit": commit, "rows": json_rows}, f, indent=1)
print(f"merge: {len(rows)} rows into {results}/bench.csv and bench.json")
EOF

# 3. The peers, against heatrk4's tiled result, beside the matrix's timings of the same session
# (or heatrk4-bench run by peers.py itself where the matrix left no CSV).
heatrk4_times=(--bench-csv "$RESULTS/bench.csv")
[[ -f $RESULTS/bench.csv ]] || heatrk4_times=(--bench "$BENCH")
stage peers "$PYTHON" benchmarks/peers.py --heatrk4 "$HEATRK4" "${heatrk4_times[@]}" \
  --n "$MATRIX_N" --commit "$COMMIT" --csv "$RESULTS/peers.csv" --json "$RESULTS/peers.json"

# 4. The pictures, whatever the stages before produced.
peers_arg=()
[[ -f $RESULTS/peers.csv ]] && peers_arg=(--peers "$RESULTS/peers.csv")
stage plots "$PYTHON" benchmarks/plot_results.py --bench "$RESULTS/bench.csv" "${peers_arg[@]}" \
  --out-dir "$RESULTS" --n "$MATRIX_N"

say "run_all: $((SECONDS - t_start)) s; files in $RESULTS:"
ls -l "$RESULTS" | tee -a "$LOG"
if ((status != 0)); then
  say "run_all: FAILED: a stage above exited $status (look for FAILED, DISAGREE)"
else
  say "run_all: every stage passed"
fi
exit "$status"
