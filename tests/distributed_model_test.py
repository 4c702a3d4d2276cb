#!/usr/bin/env python3
"""CTest distributed_model_checked: benchmarks/distributed_model.py runs (exit 0) and every row of its
'NVLink check' table, the model set against the recorded 1, 2 and 4 GPU runs, is within the limit
the script states. A check of the model against measurements: it fails when the model misses."""
import pathlib
import re
import subprocess
import sys

script = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "distributed_model.py"
run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
if run.returncode != 0:
    sys.exit("distributed_model.py exited with %d:\n%s" % (run.returncode, run.stderr))
limit = re.search(r"NVLink check: largest \|error\| [0-9.]+% \(limit ([0-9.]+)%\)", run.stdout)
section = run.stdout.split("## NVLink check", 1)[-1].split("\n## ", 1)[0]
table = [[cell.strip() for cell in line.split("|")[1:-1]] for line in section.splitlines() if line.startswith("| ")]
if limit is None or len(table) < 2:
    sys.exit("no NVLink check table or limit in the output:\n" + run.stdout)
rows = [dict(zip(table[0], row)) for row in table[1:]]
if not any(row["role"] == "prediction" for row in rows):
    sys.exit("the NVLink check has no prediction rows")
missed = [row for row in rows if abs(float(row["error"].rstrip("%"))) > float(limit.group(1))]
for row in missed:
    print("the model misses %s order %s %s by %s (limit %s%%)" % (row["call"], row["order"], row["run"], row["error"],
                                                                   limit.group(1)))
print("%d rows checked, %d beyond %s%%" % (len(rows), len(missed), limit.group(1)))
sys.exit(1 if missed else 0)
