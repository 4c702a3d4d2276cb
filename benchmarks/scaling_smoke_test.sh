#!/bin/sh
# CTest: benchmarks/scaling.sh end to end with cpu ranks (1, 2 and 4, oversubscribed) on a small
# grid. Checks that its tables have every row, with positive times and efficiencies, an exchange
# share between 0 and 1 and the exchange's start beside them, that its checks ran and passed, and
# that the mission's command ran by one process and on every count; asserts no speed (CI's 2 cores
# are shared).
#
#   scaling_smoke_test.sh HEATRK4 HALO_BENCH MPIEXEC WORK_DIR
set -u
heatrk4=$1 halo_bench=$2 mpiexec=$3 work=$4
rm -rf "$work" && mkdir -p "$work/results" || exit 1
MPIRUN=$mpiexec "$(dirname "$0")/scaling.sh" --heatrk4 "$heatrk4" --halo-bench "$halo_bench" --backend cpu \
  --ranks "1 2 4" --strong-sizes 64 --weak-n 64 --orders "2 8" --precisions float --steps 3 --check-n 48 --bitwise-n 48 \
  --mission-n 48 --mission-repeats 2 --mission-pause 0 --halo-schemes "stage half step" --mpirun-args "--oversubscribe --bind-to none" --work "$work/scratch" \
  --timeout 60 "$work/results"
code=$?
[ "$code" -eq 0 ] || { echo "scaling.sh exited with $code"; exit 1; }

python3 - "$work/results" <<'EOF'
import json, math, os, sys

results = sys.argv[1]
report = json.load(open(os.path.join(results, "scaling.json")))
table = open(os.path.join(results, "scaling.txt")).read()
errors = []

def positive(x):
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0

for kind in ("strong", "weak"):
    rows = {(r["order"], r["ranks"]): r for r in report[kind]}
    for order in (2, 8):
        r = order // 2
        for ranks in (1, 2, 4):
            row = rows.get((order, ranks))
            where = "%s order %d on %d ranks" % (kind, order, ranks)
            if row is None:
                errors.append(where + ": missing")
                continue
            nz = 64 if kind == "strong" else ranks * (64 - 2 * r) + 2 * r
            if (row["nx"], row["ny"], row["nz"]) != (64, 64, nz):
                errors.append("%s: grid %dx%dx%d, expected 64x64x%d" % (where, row["nx"], row["ny"], row["nz"], nz))
            if row["exit"] != 0 or row["summary"]["ranks"] != ranks:
                errors.append(where + ": exit %d" % row["exit"])
            if not (positive(row["ms_per_step"]) and positive(row["efficiency"])):
                errors.append(where + ": ms/step %s, efficiency %s" % (row["ms_per_step"], row["efficiency"]))
            if ranks == 1 and row.get("efficiency") != 1.0:
                errors.append(where + ": the base's efficiency is %s, not 1" % row.get("efficiency"))
            share = row["exchange_share"]
            if ranks > 1 and not (positive(share) and share <= 1):
                errors.append(where + ": exchange share %s" % share)
            # The exchange's start is set-up, reported beside the steady state; one rank has none.
            start = row.get("halo_start_s")
            if (ranks > 1) != (isinstance(start, (int, float)) and start >= 0):
                errors.append(where + ": halo start %s" % start)
            if "%dx%dx%d" % (64, 64, nz) not in table:
                errors.append(where + ": not in scaling.txt")

checks = [(c["what"].split()[0], c.get("order"), c["ranks"], c["passed"]) for c in report["checks"]]
expected = [("reference", 8, 4, True), ("bitwise:", 2, 4, True), ("bitwise:", 8, 4, True)]
if checks != expected:
    errors.append("checks %s, expected %s" % (checks, expected))

halo = report["halo"]
for ranks in (2, 4):
    for order in (2, 8):
        row = [h for h in halo if (h["scheme"], h["ranks"], h["order"]) == ("stage", ranks, order)]
        if len(row) != 1 or row[0]["status"] != "ok" or not (positive(row[0]["us_per_exchange"])
                                                             and positive(row[0]["mb_per_rank"])
                                                             and row[0]["start_ms"] is not None):
            errors.append("halo stage order %d on %d ranks: %s" % (order, ranks, row))
# Order 8 with 2r = 8 ghost planes on 4 ranks needs 32 interior planes of 56; with 4r = 16, 64: skipped.
if not any(h["scheme"] == "half" and h["ranks"] == 4 and h["order"] == 8 and h["status"] == "ok"
           and positive(h["us_per_exchange"]) for h in halo):
    errors.append("halo half order 8 on 4 ranks: not measured: %s" % halo)
if not any(h["scheme"] == "step" and h["ranks"] == 4 and h["order"] == 8 and h["status"].startswith("skipped")
           for h in halo):
    errors.append("halo step order 8 on 4 ranks: not tabled as skipped: %s" % halo)
# The mission's command: one process without mpirun, then each count, every run of each done.
mission = [(g["launch"], g["ranks"], g["runs"], g["failed"]) for g in report["mission"]]
expected = [("plain", 1, 2, 0), ("mpirun", 1, 2, 0), ("mpirun", 2, 2, 0), ("mpirun", 4, 2, 0)]
if mission != expected:
    errors.append("mission %s, expected %s" % (mission, expected))
for g in report["mission"]:
    if not (positive(g["wall_s_median"]) and positive(g["setup_s_median"]) and g["over_one_process_s"] is not None):
        errors.append("mission on %s %d: %s" % (g["launch"], g["ranks"], g))
for heading in ("## Checks", "## Strong scaling", "## Weak scaling", "## Halo exchange alone", "## The mission's command"):
    if heading not in table:
        errors.append("scaling.txt has no '%s'" % heading)

for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
EOF
