"""The part of scripts/mutation_check.sh that reads the list, applies each mutation to the scratch
copy, builds, runs the tests and keeps the score. Run it through mutation_check.sh, which makes
the scratch copy and configures its build."""
import argparse
import pathlib
import re
import signal
import subprocess
import sys
import time

FIELDS = ("name", "file", "old", "new", "build", "tests")
DEFAULTS = ("default-build", "default-tests")


def parse_list(path):
    """(defaults, records): records are dicts of FIELDS; defaults hold default-build/-tests."""
    defaults, records, current = {}, [], None
    for number, raw in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            current = None
            continue
        if line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(": ")
        if not sep and line.endswith(":"):
            key, value = line[:-1], ""
        elif not sep:
            sys.exit(f"{path}:{number}: expected 'key: value', got: {line}")
        if key in DEFAULTS:
            defaults[key] = value
            continue
        if key not in FIELDS:
            sys.exit(f"{path}:{number}: unknown key '{key}' (one of {', '.join(FIELDS + DEFAULTS)})")
        if key == "name":
            current = {"name": value, "line": number}
            records.append(current)
        elif current is None:
            sys.exit(f"{path}:{number}: '{key}' before any 'name:'")
        elif key in current:
            sys.exit(f"{path}:{number}: '{key}' twice in record '{current['name']}'")
        else:
            current[key] = value
    for r in records:
        missing = [k for k in ("file", "old", "new") if k not in r]
        if missing:
            sys.exit(f"{path}:{r['line']}: record '{r['name']}' lacks {', '.join(missing)}")
        if r["old"] == r["new"]:
            sys.exit(f"{path}:{r['line']}: record '{r['name']}' changes nothing")
    return defaults, records


def stale_reason(root, record):
    """Why a record no longer applies to the tree at root, or None."""
    path = root / record["file"]
    if not path.is_file():
        return f"{record['file']} does not exist"
    count = path.read_text().count(record["old"])
    if count != 1:
        return f"its old text occurs {count} times in {record['file']} (must be once)"
    return None


def run(command, log, cwd=None):
    with open(log, "w") as out:
        return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, cwd=cwd).returncode


def build(args, targets, log):
    command = ["cmake", "--build", args.build, "-j", str(args.jobs)]
    if targets:
        command += ["--target", *targets]
    return run(command, log) == 0


def tests_pass(args, regex, log):
    # Without the last run's timings ctest runs the tests in the order they are defined, not the
    # slowest first, so that --stop-on-failure ends a killed mutant at its first failing test.
    (pathlib.Path(args.build) / "Testing" / "Temporary" / "CTestCostData.txt").unlink(missing_ok=True)
    command = ["ctest", "--test-dir", args.build, "-j", str(args.jobs), "--timeout", "600", "--no-tests=error",
               "--stop-on-failure", "--output-on-failure"]
    if regex:
        command += ["-R", regex]
    return run(command, log) == 0


def plan_of(record, defaults, full):
    """(targets, test regex) of one record; everything with --full."""
    if full:
        return [], ""
    targets = record.get("build", defaults.get("default-build", "")).split()
    return (["heatrk4", *[t for t in targets if t != "heatrk4"]] if targets else []), record.get(
        "tests", defaults.get("default-tests", ""))


def stop(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")  # so that the mutated file is put back


def main():
    signal.signal(signal.SIGTERM, stop)
    p = argparse.ArgumentParser()
    for name in ("list", "src", "build", "logs", "only", "repo"):
        p.add_argument("--" + name, default="")
    for name in ("jobs", "full", "check-list"):
        p.add_argument("--" + name, type=int, default=0)
    args = p.parse_args()
    defaults, records = parse_list(args.list)
    records = [r for r in records if re.search(args.only, r["name"])]
    if not records:
        sys.exit(f"mutation_check: no record of {args.list} matches --only '{args.only}'")

    stale = {r["name"]: why for r in records if (why := stale_reason(pathlib.Path(args.repo), r))}
    if args.check_list:
        for name, why in stale.items():
            print(f"stale     {name}: {why}")
        print(f"{len(records) - len(stale)} of {len(records)} records apply")
        return 1 if stale else 0

    src, logs = pathlib.Path(args.src), pathlib.Path(args.logs)
    live = [r for r in records if r["name"] not in stale]
    # The baseline: the unmutated copy must build and pass every test a mutation is judged by.
    plans = [plan_of(r, defaults, args.full) for r in live]
    all_targets = sorted({t for targets, _ in plans for t in targets}) if not args.full else []
    # One ctest run per distinct regex: CMake's regular expressions allow too few groups to join them.
    regexes = [""] if args.full else sorted({regex for _, regex in plans})
    print(f"baseline: building {' '.join(all_targets) or 'everything'} ...", flush=True)
    if not build(args, all_targets, logs / "baseline-build.log"):
        sys.exit(f"mutation_check: the unmutated copy does not build: {logs / 'baseline-build.log'}")
    for n, regex in enumerate(regexes):
        log = logs / f"baseline-tests-{n}.log"
        if not tests_pass(args, regex, log):
            print(f"mutation_check: the unmutated copy fails its tests: {log}", file=sys.stderr)
            sys.exit(2)

    results = []
    for n, (record, (targets, regex)) in enumerate(zip(live, plans), 1):
        path = src / record["file"]
        original = path.read_text()
        path.write_text(original.replace(record["old"], record["new"], 1))
        slug = "".join(c if c.isalnum() else "-" for c in record["name"]).strip("-")[:60]
        started = time.monotonic()
        try:
            if not build(args, targets, logs / f"{slug}.build.log"):
                outcome = "no-build"
            else:
                outcome = "survived" if tests_pass(args, regex, logs / f"{slug}.tests.log") else "killed"
        finally:
            path.write_text(original)
        results.append((record["name"], outcome))
        print(f"[{n}/{len(live)}] {outcome:9} {record['name']} ({time.monotonic() - started:.0f} s)", flush=True)

    killed = sum(outcome == "killed" for _, outcome in results)
    print(f"\nscore: {killed} of {len(records)} mutations killed ({args.list})")
    for name, outcome in results:
        if outcome != "killed":
            print(f"{outcome:9} {name}: see {logs}")
    for name, why in stale.items():
        print(f"stale     {name}: {why}")
    # Put the copy back as it was, so the next run's baseline build has nothing to redo.
    build(args, all_targets, logs / "restore-build.log")
    return 0 if killed == len(records) else 1


if __name__ == "__main__":
    sys.exit(main())
