#!/usr/bin/env bash
# Time to solution end to end, in one command: the mission's command and the real run
# (600^3, 500 steps, a snapshot every 50), each also with --compress 1, each also with its
# snapshots written before stepping on (--snapshot-buffers 0: the synchronous pipeline, "before"),
# each once more into the directory the run before it filled ("replacing": heatrk4 replaces that
# run's snapshots itself, as a user's second run in heatrk4-out/ does; docs/design.md §4);
# then each codec of CODECS side by side (docs/design.md §4): wall, bytes written, ratio, the
# writer's compression speed (one snapshot written to /dev/shm, so the disk is out of it), the
# largest error of any snapshot against the uncompressed real run's (heatrk4 compare), and the
# mission's command (--n N --steps MISSION_STEPS --backend BACKEND, the README's headline) with and
# without each codec, MISSION_REPEATS times in turn (the median tabled), so that "the mission's
# command with a codec is no slower than without" is measured; with 2 GPUs or more (nvidia-smi
# -L), the same codec table on 2 ranks (mpirun -np 2, heatrk4's own route, each rank's slab
# compressed into its slab file); each run's own breakdown from its JSON summary, against the
# bounds measured in the same session on the same disk: the compute alone (--format none) and
# the write bound (each snapshot file's bytes written again with dd and fsync'd, file by file).
#
#   benchmarks/e2e.sh [BUILD_DIR [OUT_DIR]]
#
# BUILD_DIR defaults to build-gpu; OUT_DIR (scratch for the snapshots, on the disk to measure)
# to /tmp/heatrk4-e2e. Results: $RESULTS (default benchmarks/results)/e2e_<device>.txt (a table, one line per run)
# and e2e_<device>.json (every run's JSON summary), plus the plot e2e_<device>.png where matplotlib
# is installed (elsewhere: benchmarks/plot_e2e.py on the JSON), and the codecs' table
# e2e_codecs_<device>.txt. Settings: RESULTS, N (600), STEPS (500), EVERY (50), MISSION_STEPS (4),
# BACKEND (tiled), CODECS ("zfp:1e-6 zfp:1e-4 zfp:reversible 1"), MISSION_REPEATS (3), PARTS
# ("base codecs ranks": base is the first table's runs, codecs the codec table on one process,
# ranks the codec table on RANKS ranks; the uncompressed real run, which the codecs are compared
# with, always runs), RANKS (2 where nvidia-smi lists 2 GPUs or more, else 0: no ranks table),
# RANK_ARGS (added to the ranks' runs, e.g. --halo-exchange nccl), MPIRUN (mpirun). A check here at a small size
# (the ranks table on 2 cpu ranks):
#   N=64 STEPS=20 EVERY=5 BACKEND=cpu RANKS=2 RESULTS=/tmp/e2e benchmarks/e2e.sh build /tmp/heatrk4-e2e
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
MISSION_REPEATS=${MISSION_REPEATS:-3}
PARTS=${PARTS:-base codecs ranks}
has_part() { [[ " $PARTS " == *" $1 "* ]]; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
RANKS=${RANKS:-$((gpus >= 2 ? 2 : 0))}
RANK_ARGS=${RANK_ARGS:-}
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

# The launcher of every heatrk4 run: none (one process), or mpirun for the ranks' table.
LAUNCH=()

# run LABEL ARGS...: one run into a fresh output directory (REPLACING=1: into the one the run
# before it filled, which heatrk4 replaces itself: --overwrite); its wall time (process start to
# exit) and its JSON summary, labelled, appended to $JSONS. The earlier run's files are removed
# and synced to the disk before the clock starts, so that no run pays for another's.
run() {
  local label=$1
  shift
  if [[ ${REPLACING:-0} == 1 ]]; then set -- "$@" --overwrite; else rm -rf "$WORK/out"; fi
  sync
  local t0 t1
  t0=$(date +%s.%N)
  env ${RUN_ENV:-} "${LAUNCH[@]}" "$HEATRK4" "$@" --backend "$BACKEND" --output "$WORK/out" --json "$WORK/run.json" \
    --quiet
  local rc=$?
  t1=$(date +%s.%N)
  if ((rc != 0)); then
    echo "e2e: $label failed with exit $rc" >&2
    status=$rc
    return "$rc"
  fi
  local bytes
  # On ranks heat_<step>.hdf maps the slab files heat_<step>.rankRofN.h5, which hold the values.
  bytes=$(find "$WORK/out" -maxdepth 1 \( -name 'heat_*.hdf' -o -name 'heat_*.rank*.h5' \) -printf '%s\n' 2>/dev/null |
    awk '{s += $1} END {print s + 0}')
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
  sync
  echo "," >>"$JSONS"
  python3 -c "import json,sys; print(json.dumps({'label': sys.argv[1], 'write_bound_s': float(sys.argv[3]) - float(sys.argv[2])}))" \
    "$label" "$t0" "$t1" >>"$JSONS"
}

mission=(--n "$N" --steps "$MISSION_STEPS")
real=(--n "$N" --steps "$STEPS" --output-every "$EVERY")
for compress in 0 1; do
  c=(--compress "$compress")
  if has_part base; then
    run "mission compress=$compress" "${mission[@]}" "${c[@]}" && write_bound "mission compress=$compress"
    run "mission compress=$compress sync" "${mission[@]}" "${c[@]}" --snapshot-buffers 0
    REPLACING=1 run "mission compress=$compress replacing" "${mission[@]}" "${c[@]}"
  fi
  # The uncompressed real run's snapshots: what every codec's are compared with.
  if [[ $compress == 0 ]] || has_part base; then
    run "real compress=$compress" "${real[@]}" "${c[@]}" && has_part base && write_bound "real compress=$compress"
  fi
  if [[ $compress == 0 ]]; then rm -rf "$WORK/reference" && mv "$WORK/out" "$WORK/reference"; fi
  if has_part base; then
    run "real compress=$compress sync" "${real[@]}" "${c[@]}" --snapshot-buffers 0
    REPLACING=1 run "real compress=$compress replacing" "${real[@]}" "${c[@]}"
  fi
done
if has_part base; then
  # The compressor on one core against all of them (the issue's goal: >= 8x on 16 cores): writer_s.
  RUN_ENV="OMP_NUM_THREADS=1" run "mission compress=1 one core" "${mission[@]}" --compress 1
  run "compute alone" --n "$N" --steps "$STEPS" --format none
fi

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
# codec_table PREFIX: each codec's real run and its error, one snapshot compressed into memory (one
# process only), and the mission's command with and without each codec, in turn, MISSION_REPEATS
# times; labels start with PREFIX ("" for one process, "2 ranks " on ranks).
codec_table() {
  local prefix=$1 codec r
  [[ -n $prefix ]] && run "${prefix}codec none" "${real[@]}" && max_error "${prefix}codec none"
  for codec in $CODECS; do
    run "${prefix}codec $codec" "${real[@]}" --compress "$codec" && max_error "${prefix}codec $codec"
    [[ -z $prefix ]] && WORK=$SHM run "codec $codec in memory" "${mission[@]}" --compress "$codec"
  done
  [[ -z $prefix ]] && WORK=$SHM run "codec none in memory" "${mission[@]}"
  for ((r = 1; r <= MISSION_REPEATS; ++r)); do
    for codec in none $CODECS; do
      local c=()
      [[ $codec == none ]] || c=(--compress "$codec")
      run "${prefix}mission codec $codec #$r" "${mission[@]}" "${c[@]}"
    done
  done
}
has_part codecs && codec_table ""
if has_part ranks && ((RANKS >= 2)); then
  read -r -a rank_args <<<"$RANK_ARGS"
  LAUNCH=("${MPIRUN:-mpirun}" -np "$RANKS" -x NCCL_NVLS_ENABLE=0 -x "OMP_NUM_THREADS=$(($(nproc) / RANKS))"
    --bind-to none)
  ((EUID == 0)) && LAUNCH+=(--allow-run-as-root)
  ((RANKS > $(nproc))) && LAUNCH+=(--oversubscribe)
  real+=("${rank_args[@]}")
  mission+=("${rank_args[@]}")
  codec_table "$RANKS ranks "
  LAUNCH=()
elif has_part ranks; then
  echo "e2e: the codec table on ranks needs RANKS >= 2 (2 GPUs or more, or RANKS=2 with BACKEND=cpu): skipped" >&2
fi
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
         "| run | wall | setup | upload | compute | download | output wait | writer | replaced (wait) | GB written | "
         "write bound | bound | wall/bound |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
for label, e in runs.items():
    if " #" in label:
        continue  # the mission's command per codec, in the codecs' table
    t = e["summary"]["timing"]
    base = label.replace(" sync", "").replace(" one core", "").replace(" replacing", "")
    write = bounds.get(base)
    bound = None
    if write is not None:
        bound = t["setup_s"] + max(t["compute_s"], write)
    cell = lambda v: "%.3f" % v if v is not None else "-"
    replaced = "%s (%s)" % (cell(t["stale_removal_s"]), cell(t["stale_removal_wait_s"])) \
        if e["summary"].get("replaced_files") else "-"
    lines.append("| %s | %.2f | %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s | %s |" % (
        label, e["wall_s"], cell(t["setup_s"]), cell(t["upload_s"]), cell(t["compute_s"]),
        cell(t["download_s"]), cell(t.get("output_wait_s")), cell(t.get("writer_s")), replaced,
        e["snapshot_bytes"] / 1e9, cell(write), cell(bound),
        "%.2f" % (e["wall_s"] / bound) if bound else "-"))
lines.append("")
lines.append("compute alone (--format none, %s steps): %s s" % (runs.get("compute alone", {}).get(
    "summary", {}).get("problem", {}).get("steps"), compute_alone))
lines.append("bound = setup + max(compute, write bound); the issue's goals: real run wall/bound <= 1.15, "
             "the mission's command <= 1.2 s; replaced: the removal of the earlier run's snapshots beside the "
             "run (timing.stale_removal_s) and the run's wait for it at its end")
one, many = runs.get("mission compress=1 one core"), runs.get("mission compress=1")
if one and many:
    w1, wn = one["summary"]["timing"]["writer_s"], many["summary"]["timing"]["writer_s"]
    lines.append("compressed snapshot writes: one core %.3f s, all cores %.3f s (%.1fx)" % (w1, wn, w1 / wn))
lines.append("")
lines.append("setup phases (s), per run:")
for label, e in runs.items():
    if " #" in label:
        continue
    phases = e["summary"]["timing"].get("setup_phases", {})
    lines.append("  %-28s %s" % (label, ", ".join("%s %.3f" % (k[:-2], v) for k, v in phases.items())))
open(table, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
# The codecs side by side: bytes and ratio against the uncompressed real run, the writer's time
# to disk (compression and write) and its speed into memory (the compression alone).
python3 - "$JSONS" "$RESULTS/e2e_codecs_$tag.txt" "$device" <<'EOF'
import json, statistics, sys
jsons, table, device = sys.argv[1:]
entries = json.load(open(jsons))
runs = {e["label"]: e for e in entries if "summary" in e}
errors = {e["label"]: e["max_error"] for e in entries if "max_error" in e}
plain = runs.get("real compress=0")
if plain is None:
    sys.exit("e2e: no uncompressed real run to compare the codecs with")
problem = plain["summary"]["problem"]
field_bytes = problem["nx"] * problem["ny"] * problem["nz"] * (4 if problem["precision"] == "float" else 8)
# Every prefix a codec table was run with: "" (one process) and "N ranks ".
prefixes = sorted({label[:label.index("codec ")] for label in runs if "codec " in label
                   and not label.startswith("mission") and "mission codec" not in label})
lines = ["heatrk4 snapshot codecs on %s: the real run (%d^3 %s, %d steps, %s); the mission's command (%s steps, "
         "its final state only); one snapshot into memory for the speed"
         % (device, problem["nx"], problem["precision"], problem["steps"], plain["summary"]["backend"],
            runs.get("mission codec none #1", {}).get("summary", {}).get("problem", {}).get("steps", "-"))]


def mission_walls(prefix, codec):
    return [e["wall_s"] for label, e in runs.items() if label.startswith("%smission codec %s #" % (prefix, codec))]


for prefix in prefixes:
    base = runs.get(prefix + "codec none", plain)
    ranks = base["summary"].get("ranks", 1)
    lines += ["", "%s ranks (each rank's slab compressed into its slab file, halos over %s):"
              % (ranks, base["summary"].get("halo_exchange", "-")) if ranks > 1 else "one process:", "",
              "| codec | wall s | wall / none | GB written | ratio | writer s (disk) | compression GB/s (memory) | "
              "max error | mission wall s (median) | mission / none |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    none_mission = mission_walls(prefix, "none")

    def row(codec, e, memory):
        speed = field_bytes / memory["summary"]["timing"]["writer_s"] / 1e9 if memory else None
        error = errors.get(prefix + "codec " + codec, 0.0 if codec == "none" else None)
        walls = mission_walls(prefix, codec)
        median = statistics.median(walls) if walls else None
        versus = median / statistics.median(none_mission) if walls and none_mission else None
        lines.append("| %s | %.2f | %.2f | %.3f | %.2f | %.3f | %s | %s | %s | %s |" % (
            codec, e["wall_s"], e["wall_s"] / base["wall_s"], e["snapshot_bytes"] / 1e9,
            base["snapshot_bytes"] / max(e["snapshot_bytes"], 1), e["summary"]["timing"]["writer_s"],
            "%.2f" % speed if speed else "-", "%.3g" % error if error is not None else "-",
            "%.2f (%s)" % (median, " ".join("%.2f" % w for w in walls)) if walls else "-",
            "%.2f" % versus if versus else "-"))

    row("none", base, runs.get("codec none in memory") if not prefix else None)
    for label, e in runs.items():
        if label.startswith(prefix + "codec ") and not label.endswith(" in memory") and label != prefix + "codec none":
            codec = label[len(prefix + "codec "):]
            row(codec, e, runs.get(label + " in memory") if not prefix else None)
lines += ["", "wall: process start to exit; wall / none: against the uncompressed real run of the same table; "
          "ratio: the uncompressed run's bytes over the codec's; max error: the largest |difference| of any "
          "snapshot from the uncompressed one-process run's (heatrk4 compare); mission: the run's wall each time "
          "(codecs in turn), the median and its ratio to the median without a codec"]
open(table, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
# The plot: here where matplotlib is installed, or later from the JSON (benchmarks/plot_e2e.py).
python3 benchmarks/plot_e2e.py "$JSONS" "${TABLE%.txt}.png" "$device" || status=$?
exit $status
