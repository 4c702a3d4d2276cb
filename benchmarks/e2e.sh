#!/usr/bin/env bash
# Time to solution end to end (issue 25), in one command: the mission's command and the real run
# (600^3, 500 steps, a snapshot every 50), each also with --compress 1, each also with its
# snapshots written before stepping on (--snapshot-buffers 0: the synchronous pipeline, "before");
# then each codec of CODECS side by side (docs/design.md §4): wall, bytes written, ratio, the
# writer's compression speed (one snapshot written to /dev/shm, so the disk is out of it) and the
# largest error of any snapshot against the uncompressed real run's (heatrk4 compare);
# each run's own breakdown from its JSON summary, against the bounds measured in the same session
# on the same disk: the compute alone (--format none) and the write bound (each snapshot file's
# bytes written again with dd and fsync'd, file by file).
#
#   benchmarks/e2e.sh [BUILD_DIR [OUT_DIR]]
#
# BUILD_DIR defaults to build-gpu; OUT_DIR (scratch for the snapshots, on the disk to measure)
# to /tmp/heatrk4-e2e. Results: $RESULTS (default benchmarks/results)/e2e_<device>.txt (a table, one line per run)
# and e2e_<device>.json (every run's JSON summary), plus the plot e2e_<device>.png where matplotlib
# is installed (elsewhere: benchmarks/plot_e2e.py on the JSON), and the codecs' table
# e2e_codecs_<device>.txt. Settings: RESULTS, N (600), STEPS (500), EVERY (50), MISSION_STEPS (4),
# BACKEND (tiled), CODECS ("zfp:1e-6 zfp:1e-4 zfp:reversible 1"). A check here at a small size:
#   N=64 STEPS=20 EVERY=5 BACKEND=cpu RESULTS=/tmp/e2e benchmarks/e2e.sh build /tmp/heatrk4-e2e
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-build-gpu}
WORK=${2:-/tmp/heatrk4-e2e}
HEATRK4=$BUILD/apps/heatrk4
N=${N:-600}
STEPS=${STEPS:-500}
EVERY=${EVERY:-50}
MISSION_STEPS=${MISSION_STEPS:-4}
BACKEND=${BACKEND:-tiled}
CODECS=${CODECS:-zfp:1e-6 zfp:1e-4 zfp:reversible 1}
[[ -x $HEATRK4 ]] || { echo "e2e: $HEATRK4 is missing: build first" >&2; exit 2; }

device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
[[ -n $device ]] || device="host $(nproc) cores"
tag=$(echo "$device" | tr -cs 'A-Za-z0-9' '_' | sed 's/_$//')
RESULTS=${RESULTS:-benchmarks/results}
TABLE=$RESULTS/e2e_$tag.txt
JSONS=$RESULTS/e2e_$tag.json
mkdir -p "$WORK" "$RESULTS" || exit 2
echo "[" >"$JSONS"
first_json=1
status=0

# run LABEL ARGS...: one run into a fresh output directory; its wall time (process start to
# exit) and its JSON summary, labelled, appended to $JSONS.
run() {
  local label=$1
  shift
  rm -rf "$WORK/out"
  local t0 t1
  t0=$(date +%s.%N)
  env ${RUN_ENV:-} "$HEATRK4" "$@" --backend "$BACKEND" --output "$WORK/out" --json "$WORK/run.json" --quiet
  local rc=$?
  t1=$(date +%s.%N)
  if ((rc != 0)); then
    echo "e2e: $label failed with exit $rc" >&2
    status=$rc
    return "$rc"
  fi
  local bytes
  bytes=$(find "$WORK/out" -name 'heat_*.hdf' -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}')
  ((first_json)) || echo "," >>"$JSONS"
  first_json=0
  python3 - "$label" "$t0" "$t1" "$bytes" "$WORK/run.json" >>"$JSONS" <<'EOF'
import json, sys
label, t0, t1, nbytes, path = sys.argv[1:]
summary = json.load(open(path))
print(json.dumps({"label": label, "wall_s": float(t1) - float(t0), "snapshot_bytes": int(nbytes),
                  "summary": summary}))
EOF
}

# write_bound LABEL: the run just made's snapshot files, written again (dd from the page cache)
# with an fsync each, as the writer does; the seconds, appended to $JSONS.
write_bound() {
  local label=$1 t0 t1
  mkdir -p "$WORK/bound"
  sync
  t0=$(date +%s.%N)
  for f in "$WORK"/out/heat_*.hdf; do
    dd if="$f" of="$WORK/bound/$(basename "$f")" bs=16M conv=fsync status=none || status=3
  done
  t1=$(date +%s.%N)
  rm -rf "$WORK/bound"
  echo "," >>"$JSONS"
  python3 -c "import json,sys; print(json.dumps({'label': sys.argv[1], 'write_bound_s': float(sys.argv[3]) - float(sys.argv[2])}))" \
    "$label" "$t0" "$t1" >>"$JSONS"
}

mission=(--n "$N" --steps "$MISSION_STEPS")
real=(--n "$N" --steps "$STEPS" --output-every "$EVERY")
for compress in 0 1; do
  c=(--compress "$compress")
  run "mission compress=$compress" "${mission[@]}" "${c[@]}" && write_bound "mission compress=$compress"
  run "mission compress=$compress sync" "${mission[@]}" "${c[@]}" --snapshot-buffers 0
  run "real compress=$compress" "${real[@]}" "${c[@]}" && write_bound "real compress=$compress"
  # The uncompressed real run's snapshots: what every codec's are compared with.
  if [[ $compress == 0 ]]; then rm -rf "$WORK/reference" && mv "$WORK/out" "$WORK/reference"; fi
  run "real compress=$compress sync" "${real[@]}" "${c[@]}" --snapshot-buffers 0
done
# The compressor on one core against all of them (the issue's goal: >= 8x on 16 cores): writer_s.
RUN_ENV="OMP_NUM_THREADS=1" run "mission compress=1 one core" "${mission[@]}" --compress 1
run "compute alone" --n "$N" --steps "$STEPS" --format none

# max_error LABEL: the largest |difference| of any snapshot of the run just made from the
# uncompressed real run's (the codec's promise), appended to $JSONS.
max_error() {
  local label=$1 worst=0 f e
  for f in "$WORK"/reference/heat_*.hdf; do
    e=$("$HEATRK4" compare "$f" "$WORK/out/$(basename "$f")" --atol 1e300 | sed -n 's/.*max abs \([^,]*\),.*/\1/p')
    [[ -n $e ]] || { echo "e2e: $label: compare of $(basename "$f") failed" >&2; status=3; return; }
    worst=$(python3 -c "import sys; print(max(float(sys.argv[1]), float(sys.argv[2])))" "$worst" "$e")
  done
  echo "," >>"$JSONS"
  python3 -c "import json,sys; print(json.dumps({'label': sys.argv[1], 'max_error': float(sys.argv[2])}))" \
    "$label" "$worst" >>"$JSONS"
}
# Each codec: the real run and its error, and one snapshot compressed into memory (/dev/shm), so
# that the writer's time is the compression's.
SHM=${SHM:-/dev/shm/heatrk4-e2e}
mkdir -p "$SHM" || exit 2
for codec in $CODECS; do
  run "codec $codec" "${real[@]}" --compress "$codec" && max_error "codec $codec"
  WORK=$SHM run "codec $codec in memory" "${mission[@]}" --compress "$codec"
done
WORK=$SHM run "codec none in memory" "${mission[@]}"
rm -rf "$SHM" "$WORK/reference"
echo "]" >>"$JSONS"

python3 - "$JSONS" "$TABLE" "$device" <<'EOF'
import json, sys
jsons, table, device = sys.argv[1:]
entries = json.load(open(jsons))
runs = {e["label"]: e for e in entries if "summary" in e}
bounds = {e["label"]: e["write_bound_s"] for e in entries if "write_bound_s" in e}
compute_alone = runs.get("compute alone", {}).get("summary", {}).get("timing", {}).get("compute_s")
lines = ["heatrk4 end to end on %s" % device, "",
         "| run | wall | setup | upload | compute | download | output wait | writer | GB written | "
         "write bound | bound | wall/bound |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
for label, e in runs.items():
    t = e["summary"]["timing"]
    base = label.replace(" sync", "").replace(" one core", "")
    write = bounds.get(base)
    bound = None
    if write is not None:
        bound = t["setup_s"] + max(t["compute_s"], write)
    cell = lambda v: "%.3f" % v if v is not None else "-"
    lines.append("| %s | %.2f | %s | %s | %s | %s | %s | %s | %.2f | %s | %s | %s |" % (
        label, e["wall_s"], cell(t["setup_s"]), cell(t["upload_s"]), cell(t["compute_s"]),
        cell(t["download_s"]), cell(t.get("output_wait_s")), cell(t.get("writer_s")),
        e["snapshot_bytes"] / 1e9, cell(write), cell(bound),
        "%.2f" % (e["wall_s"] / bound) if bound else "-"))
lines.append("")
lines.append("compute alone (--format none, %s steps): %s s" % (runs.get("compute alone", {}).get(
    "summary", {}).get("problem", {}).get("steps"), compute_alone))
lines.append("bound = setup + max(compute, write bound); the issue's goals: real run wall/bound <= 1.15, "
             "the mission's command <= 1.2 s")
one, many = runs.get("mission compress=1 one core"), runs.get("mission compress=1")
if one and many:
    w1, wn = one["summary"]["timing"]["writer_s"], many["summary"]["timing"]["writer_s"]
    lines.append("compressed snapshot writes: one core %.3f s, all cores %.3f s (%.1fx)" % (w1, wn, w1 / wn))
lines.append("")
lines.append("setup phases (s), per run:")
for label, e in runs.items():
    phases = e["summary"]["timing"].get("setup_phases", {})
    lines.append("  %-28s %s" % (label, ", ".join("%s %.3f" % (k[:-2], v) for k, v in phases.items())))
open(table, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
# The codecs side by side: bytes and ratio against the uncompressed real run, the writer's time
# to disk (compression and write) and its speed into memory (the compression alone).
python3 - "$JSONS" "$RESULTS/e2e_codecs_$tag.txt" "$device" <<'EOF'
import json, sys
jsons, table, device = sys.argv[1:]
entries = json.load(open(jsons))
runs = {e["label"]: e for e in entries if "summary" in e}
errors = {e["label"]: e["max_error"] for e in entries if "max_error" in e}
plain = runs.get("real compress=0")
if plain is None:
    sys.exit("e2e: no uncompressed real run to compare the codecs with")
problem = plain["summary"]["problem"]
field_bytes = problem["nx"] * problem["ny"] * problem["nz"] * (4 if problem["precision"] == "float" else 8)
lines = ["heatrk4 snapshot codecs on %s: the real run (%d^3 %s, %d steps); one snapshot into memory for the speed"
         % (device, problem["nx"], problem["precision"], problem["steps"]), "",
         "| codec | wall s | GB written | ratio | writer s (disk) | compression GB/s (memory) | max error |",
         "|---|---|---|---|---|---|---|"]


def row(codec, e, memory):
    speed = field_bytes / memory["summary"]["timing"]["writer_s"] / 1e9 if memory else None
    error = errors.get("codec " + codec, 0.0 if codec == "none" else None)
    lines.append("| %s | %.2f | %.3f | %.2f | %.3f | %s | %s |" % (
        codec, e["wall_s"], e["snapshot_bytes"] / 1e9, plain["snapshot_bytes"] / max(e["snapshot_bytes"], 1),
        e["summary"]["timing"]["writer_s"], "%.2f" % speed if speed else "-",
        "%.3g" % error if error is not None else "-"))


row("none", plain, runs.get("codec none in memory"))
for label, e in runs.items():
    if label.startswith("codec ") and not label.endswith(" in memory"):
        row(label[len("codec "):], e, runs.get(label + " in memory"))
lines += ["", "wall: process start to exit; ratio: the uncompressed run's bytes over the codec's; max error: the "
          "largest |difference| of any snapshot from the uncompressed run's (heatrk4 compare)"]
open(table, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
# The plot: here where matplotlib is installed, or later from the JSON (benchmarks/plot_e2e.py).
python3 benchmarks/plot_e2e.py "$JSONS" "${TABLE%.txt}.png" "$device" || status=$?
exit $status
