#!/usr/bin/env python3
"""The tables of benchmarks/scaling.sh: reads its manifest (one line per run: what ran, its exit
code and its JSON summary or halo_bench output), computes ms per step, the efficiencies and the
exchange's share, and writes scaling.txt and scaling.json. Standard library only (CI has no numpy).

Efficiencies are against the smallest rank count that ran for the same link, grid, order and
precision (normally 1 rank): strong T(b) * b / (N * T(N)), weak T(b) / T(N). With scaling.sh's
--links each row names its link (scaling_links.sh), and each link's latency and bandwidth come from
halo_bench's exchanges at its smallest and largest grid."""
import argparse
import csv
import datetime
import json
import math
import os
import statistics
import sys

# halo_bench's scheme names: exchanges per RK4 step.
EXCHANGES_PER_STEP = {"stage": 4, "half": 2, "step": 1}


def read_manifest(path):
    with open(path, newline="") as f:
        entries = list(csv.DictReader(f, delimiter="\t"))
    for entry in entries:
        entry["link"] = entry.get("link") or "default"
    return entries


def load_summary(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def summary_and_exit(entry, ranks):
    """A run's JSON summary and its exit code, made a failure where the run left no summary (-1) or
    one of another rank count (-2: a heatrk4 built without MPI runs as N 1-rank jobs under mpirun)."""
    summary, code = load_summary(entry["file"]), int(entry["exit"])
    if summary is None:
        return None, code or -1
    if summary.get("ranks") != ranks:
        return None, code or -2
    return summary, code


def run_row(entry, steps):
    """A heatrk4 run: its timing per step from the JSON summary (None where it failed)."""
    row = {
        "kind": entry["kind"], "n": int(entry["n"]), "nx": int(entry["nx"]), "ny": int(entry["ny"]),
        "nz": int(entry["nz"]), "order": int(entry["order"]), "precision": entry["precision"],
        "ranks": int(entry["ranks"]), "exit": int(entry["exit"]), "wall_s": float(entry["wall_s"]),
        "link": entry["link"], "ms_per_step": None, "exchange_ms_per_step": None, "exchange_share": None,
    }
    summary, row["exit"] = summary_and_exit(entry, row["ranks"])  # a failed --check still writes one
    if summary is None:
        return row
    timing = summary["timing"]
    steps = summary["problem"]["steps"] or steps
    row["ms_per_step"] = 1e3 * timing["compute_s"] / steps
    row["exchange_ms_per_step"] = 1e3 * timing.get("exchange_s", 0.0) / steps
    row["exchange_share"] = timing.get("exchange_s", 0.0) / timing["compute_s"] if timing["compute_s"] > 0 else None
    # The exchange's start (communicator, first connections): paid in set-up, outside compute_s.
    row["halo_start_s"] = timing.get("setup_phases", {}).get("halo_connect_s")
    row["device"] = summary.get("device")
    row["summary"] = summary
    return row


def add_efficiencies(rows, kind):
    """Speed-up and efficiency of each row against the smallest count of its group."""
    groups = {}
    for row in rows:
        groups.setdefault((row["link"], row["n"], row["order"], row["precision"]), []).append(row)
    for group in groups.values():
        done = [r for r in group if r["exit"] == 0 and r["ms_per_step"]]
        if not done:
            continue
        base = min(done, key=lambda r: r["ranks"])
        for row in done:
            ratio = base["ms_per_step"] / row["ms_per_step"]
            row["base_ranks"] = base["ranks"]
            if kind == "strong":
                row["speedup"] = ratio * base["ranks"]
                row["efficiency"] = ratio * base["ranks"] / row["ranks"]
            else:
                row["efficiency"] = ratio


def halo_rows(entry):
    """halo_bench's table lines (prec order ghost ranks MB/rank us GB/s [start_ms]), or one skipped/failed row."""
    base = {"n": int(entry["n"]), "ranks": int(entry["ranks"]), "scheme": entry["scheme"], "link": entry["link"]}
    if entry["exit"] == "skipped":
        return [dict(base, order=int(entry["order"]), status="skipped: too few planes")]
    rows = []
    try:
        with open(entry["file"]) as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        fields = line.split()
        if len(fields) not in (7, 8) or fields[0] not in ("float", "double"):
            continue
        us = float(fields[5])
        rows.append(dict(base, precision=fields[0], order=int(fields[1]), ghost=int(fields[2]),
                         mb_per_rank=float(fields[4]), us_per_exchange=us, gb_per_s=float(fields[6]),
                         us_per_step=us * EXCHANGES_PER_STEP[entry["scheme"]],
                         start_ms=float(fields[7]) if len(fields) == 8 else None, status="ok"))
    if entry["exit"] != "0":
        rows.append(dict(base, order=entry["order"], status="failed (exit %s)" % entry["exit"]))
    return rows


def link_fits(halo):
    """Each link's latency (us) and bandwidth (GB/s) per scheme, order, precision and count, through
    halo_bench's exchanges at the smallest and the largest grid it ran."""
    groups = {}
    for row in halo:
        if row["status"] == "ok":
            groups.setdefault((row["link"], row["scheme"], row["precision"], row["order"], row["ranks"]), []).append(row)
    fits = []
    for (link, scheme, precision, order, ranks), rows in sorted(groups.items()):
        small, large = min(rows, key=lambda r: r["n"]), max(rows, key=lambda r: r["n"])
        fit = {"link": link, "scheme": scheme, "precision": precision, "order": order, "ranks": ranks,
               "n_small": small["n"], "n_large": large["n"], "latency_us": None, "gb_per_s": None}
        seconds = (large["us_per_exchange"] - small["us_per_exchange"]) * 1e-6
        if large["n"] > small["n"] and seconds > 0:
            fit["gb_per_s"] = (large["mb_per_rank"] - small["mb_per_rank"]) * 1e6 / seconds / 1e9
            fit["latency_us"] = small["us_per_exchange"] - small["mb_per_rank"] * 1e6 / (fit["gb_per_s"] * 1e9) * 1e6
        fits.append(fit)
    return fits


def tune_rows(entries, chosen):
    """halo_bench through NCCL's sockets for each NTHREADSxNSOCKS pair scaling.sh tried."""
    rows = []
    for entry in entries:
        measured = [r for r in halo_rows(dict(entry, scheme="step")) if r["status"] == "ok"]
        rows.append({"pair": entry["scheme"], "n": int(entry["n"]), "order": int(entry["order"]),
                     "exit": entry["exit"], "us_per_exchange": measured[0]["us_per_exchange"] if measured else None,
                     "gb_per_s": measured[0]["gb_per_s"] if measured else None, "chosen": entry["scheme"] == chosen})
    return rows


def transport_rows(entries):
    """nccl-socket's exchange proven to run through NCCL's NET/Socket transport (its log names it)."""
    return [{"what": "nccl-socket runs through NET/Socket", "n": int(e["n"]), "order": int(e["order"]),
             "precision": e["precision"], "ranks": int(e["ranks"]), "passed": e["exit"] == "0",
             "detail": "NCCL_DEBUG=INFO names it" if e["exit"] == "0" else "NCCL's log does not name it"}
            for e in entries]


def link_suffix(link):
    return "" if link == "default" else " (%s)" % link


def check_rows(entries, steps):
    """The reference problem's --check on the largest count: pass and the distance from the reference."""
    rows = []
    for entry in entries:
        row = run_row(entry, steps)
        check = row.get("summary", {}).get("check")
        detail = ("max abs %s, max rel %s" % (fmt(check.get("max_abs"), ".3g"), fmt(check.get("max_rel"), ".3g"))
                  if check else status_text(row))
        row.update(what="reference problem --check" + link_suffix(entry["link"]), passed=bool(check and check.get("pass")) and row["exit"] == 0,
                   detail=detail)
        rows.append(row)
    return rows


def bitwise_rows(entries):
    """1 rank against the largest count, every snapshot compared with no tolerance."""
    return [{"what": "bitwise: 1 rank against N" + link_suffix(e["link"]), "n": int(e["n"]), "order": int(e["order"]),
             "precision": e["precision"], "ranks": int(e["ranks"]), "exit": int(e["exit"]),
             "passed": e["exit"] == "0", "detail": "every snapshot equal" if e["exit"] == "0"
             else "heatrk4 compare: exit %s" % e["exit"]} for e in entries]


def mission_rows(entries):
    """The mission's command: each launch's wall time, and its set-up from the JSON summary."""
    rows = []
    for entry in entries:
        ranks = int(entry["ranks"])
        summary, code = summary_and_exit(entry, ranks)
        rows.append({"launch": entry["scheme"], "ranks": ranks, "n": int(entry["n"]), "exit": code,
                     "wall_s": float(entry["wall_s"]), "setup_s": summary["timing"]["setup_s"] if summary else None})
    return rows


def mission_groups(rows):
    """Per launch (one process without mpirun, then each count): the runs' median wall time and
    set-up, and the median wall time's excess over one process's."""
    groups = {}
    for row in rows:
        groups.setdefault((row["launch"], row["ranks"]), []).append(row)
    summaries = []
    for (launch, ranks), group in groups.items():
        done = [r for r in group if r["exit"] == 0]
        walls = [r["wall_s"] for r in done]
        summaries.append({
            "launch": launch, "ranks": ranks, "n": group[0]["n"], "runs": len(group), "failed": len(group) - len(done),
            "wall_s_median": statistics.median(walls) if walls else None,
            "wall_s_min": min(walls) if walls else None, "wall_s_max": max(walls) if walls else None,
            "setup_s_median": statistics.median([r["setup_s"] for r in done]) if done else None})
    plain = next((g for g in summaries if g["launch"] == "plain" and g["wall_s_median"] is not None), None)
    for g in summaries:
        g["over_one_process_s"] = (g["wall_s_median"] - plain["wall_s_median"]
                                   if plain and g["wall_s_median"] is not None else None)
    return summaries


def mission_table(groups):
    header = ["launch", "ranks", "runs", "wall s median", "min", "max", "set-up s median", "over one process s",
              "status"]
    lines = [["heatrk4" if g["launch"] == "plain" else "mpirun -np %d" % g["ranks"], str(g["ranks"]), str(g["runs"]),
              fmt(g["wall_s_median"], ".2f"), fmt(g["wall_s_min"], ".2f"), fmt(g["wall_s_max"], ".2f"),
              fmt(g["setup_s_median"], ".3f"), fmt(g["over_one_process_s"], "+.2f"),
              "ok" if not g["failed"] else "%d failed" % g["failed"]] for g in groups]
    return columns(header, lines)


def checks_table(rows):
    header = ["check", "n", "order", "prec", "ranks", "result", "detail"]
    lines = [[r["what"], str(r["n"]), str(r["order"]), r["precision"], str(r["ranks"]),
              "PASS" if r["passed"] else "FAIL", r["detail"]] for r in rows]
    return columns(header, lines)


def fmt(value, spec, missing="-"):
    return missing if value is None else format(value, spec)


def percent(value):
    return fmt(None if value is None else 100 * value, ".1f") + ("%" if value is not None else "")


def status_text(row):
    special = {0: "ok", -1: "no summary", -2: "ranks != summary's ranks (heatrk4 without MPI?)"}
    return special.get(row["exit"], "failed (exit %d)" % row["exit"])


def with_links(rows):
    """A link column in front where any row ran over a link other than the default."""
    return any(r["link"] != "default" for r in rows)


def run_table(rows, kind):
    strong, linked = kind == "strong", with_links(rows)
    header = (["link"] if linked else []) + ["n", "order", "prec", "ranks", "grid", "ms/step"] + (
        ["speedup"] if strong else []) + ["efficiency", "exch ms/step", "exch share", "halo start s", "status"]
    lines = []
    for r in rows:
        lines.append(([r["link"]] if linked else []) + [str(r["n"]), str(r["order"]), r["precision"], str(r["ranks"]),
                      "%dx%dx%d" % (r["nx"], r["ny"], r["nz"]), fmt(r["ms_per_step"], ".3f")]
                     + ([fmt(r.get("speedup"), ".2f")] if strong else [])
                     + [percent(r.get("efficiency")), fmt(r["exchange_ms_per_step"], ".3f"),
                        percent(r["exchange_share"]), fmt(r.get("halo_start_s"), ".3f"), status_text(r)])
    return columns(header, lines)


def halo_table(rows):
    linked = with_links(rows)
    header = (["link"] if linked else []) + ["n", "scheme", "prec", "order", "ghost", "ranks", "MB/rank", "us/exchange",
                                             "GB/s", "us/step", "start ms", "status"]
    lines = [([r["link"]] if linked else []) + [str(r["n"]), r["scheme"], r.get("precision", "-"), str(r["order"]), fmt(r.get("ghost"), "d"),
              str(r["ranks"]), fmt(r.get("mb_per_rank"), ".2f"), fmt(r.get("us_per_exchange"), ".1f"),
              fmt(r.get("gb_per_s"), ".1f"), fmt(r.get("us_per_step"), ".1f"), fmt(r.get("start_ms"), ".1f"),
              r["status"]] for r in rows]
    return columns(header, lines)


def link_table(fits):
    header = ["link", "scheme", "prec", "order", "ranks", "n small / large", "latency us", "GB/s"]
    lines = [[f["link"], f["scheme"], f["precision"], str(f["order"]), str(f["ranks"]),
              "%d / %d" % (f["n_small"], f["n_large"]), fmt(f["latency_us"], ".1f"), fmt(f["gb_per_s"], ".3f")]
             for f in fits]
    return columns(header, lines)


def tune_table(rows):
    header = ["threads x sockets", "n", "order", "us/exchange", "GB/s", "status"]
    lines = [[r["pair"], str(r["n"]), str(r["order"]), fmt(r["us_per_exchange"], ".1f"), fmt(r["gb_per_s"], ".3f"),
              ("ok" if r["exit"] == "0" else "failed (exit %s)" % r["exit"]) + (", chosen" if r["chosen"] else "")]
             for r in rows]
    return columns(header, lines)


def largest_table(rows):
    header = ["n", "order", "prec", "ranks", "ms/step", "setup s", "output wait s", "writer s", "files", "GB", "status"]
    lines = []
    for r in rows:
        timing = r.get("summary", {}).get("timing", {})
        lines.append([str(r["n"]), str(r["order"]), r["precision"], str(r["ranks"]), fmt(r["ms_per_step"], ".3f"),
                      fmt(timing.get("setup_s"), ".2f"), fmt(timing.get("output_wait_s"), ".2f"),
                      fmt(timing.get("writer_s"), ".2f"), fmt(r.get("files"), "d"),
                      fmt(None if r.get("bytes") is None else r["bytes"] / 1e9, ".2f"), status_text(r)])
    return columns(header, lines)


def columns(header, lines):
    widths = [max(len(x) for x in column) for column in zip(header, *lines)] if lines else [len(h) for h in header]
    text = ["  ".join(x.rjust(w) for x, w in zip(line, widths)).rstrip() for line in [header] + lines]
    return "\n".join(text) + "\n"


def snapshot_files(summary_path):
    """The largest run's snapshot files (scaling.sh lists them beside its summary) and their bytes."""
    listing = os.path.splitext(summary_path)[0] + ".files"
    try:
        with open(listing) as f:
            sizes = [int(line.split("\t")[0]) for line in f if line.strip()]
    except OSError:
        return None, None
    return len(sizes), sum(sizes)


def finite_positive(value):
    return value is not None and math.isfinite(value) and value > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--out-dir", required=True)
    for name in ("device", "commit", "backend", "halo-memory", "heatrk4-args", "mpirun-args", "socket-threads"):
        parser.add_argument("--" + name, default="")
    for name in ("gpus", "steps", "largest-steps", "threads"):
        parser.add_argument("--" + name, type=int, default=0)
    args = parser.parse_args()

    entries = read_manifest(args.manifest)
    strong = [run_row(e, args.steps) for e in entries if e["kind"] == "strong"]
    weak = [run_row(e, args.steps) for e in entries if e["kind"] == "weak"]
    largest = [run_row(e, args.largest_steps) for e in entries if e["kind"] == "largest"]
    for row, entry in zip(largest, [e for e in entries if e["kind"] == "largest"]):
        row["files"], row["bytes"] = snapshot_files(entry["file"])
    halo = [row for e in entries if e["kind"] == "halo" for row in halo_rows(e)]
    checks = (transport_rows([e for e in entries if e["kind"] == "transport"])
              + check_rows([e for e in entries if e["kind"] == "check"], 10)
              + bitwise_rows([e for e in entries if e["kind"] == "bitwise"]))
    links = link_fits(halo)
    tuning = tune_rows([e for e in entries if e["kind"] == "tune"], args.socket_threads)
    add_efficiencies(strong, "strong")
    add_efficiencies(weak, "weak")
    mission = mission_groups(mission_rows([e for e in entries if e["kind"] == "mission"]))

    devices = sorted({r["device"] for r in strong + weak + largest if r.get("device")})
    meta = {
        "device": args.device, "gpus": args.gpus, "run_devices": devices, "commit": args.commit,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "backend": args.backend, "steps": args.steps, "omp_threads_per_rank": args.threads,
        "halo_memory": args.halo_memory, "heatrk4_args": args.heatrk4_args, "mpirun_args": args.mpirun_args,
        "links": sorted({e["link"] for e in entries}), "socket_threads": args.socket_threads,
    }
    text = ["# heatrk4 scaling: %s (%d GPUs listed), backend %s, %d steps per run, commit %s, %s"
            % (args.device, args.gpus, args.backend, args.steps, args.commit, meta["date"]),
            "# heatrk4 reports: %s; extra heatrk4 args: '%s'; mpirun args: '%s'; %d OpenMP threads per rank"
            % (", ".join(devices) or "-", args.heatrk4_args, args.mpirun_args, args.threads),
            "# ms/step = compute_s / steps (slowest rank): steady state, the exchange's start excluded (paid in"
            " set-up, its 'halo start s' beside it); efficiency against the smallest count of each group;"
            " exch = the halo exchange's time (slowest rank) and its share of compute", ""]
    if checks:
        text += ["## Checks: the answers before the times", checks_table(checks)]
    if strong:
        text += ["## Strong scaling: one grid over N ranks, efficiency T(b) b / (N T(N))", run_table(strong, "strong")]
    if weak:
        text += ["## Weak scaling: n^3 per rank (nz = N (n - 2r) + 2r), efficiency T(b) / T(N)", run_table(weak, "weak")]
    if halo:
        text += ["## Halo exchange alone (halo_bench, %s memory, median, slowest rank; us/step = 4 exchanges per"
                 " step for 'stage', 1 for 'step')" % args.halo_memory, halo_table(halo)]
    if any(f["link"] != "default" for f in links):
        text += ["## Links: latency and bandwidth through halo_bench's exchanges at the smallest and largest grid",
                 link_table(links)]
    if tuning:
        text += ["## NCCL's socket threads (halo_bench on 2 ranks over nccl-socket; the fastest is the runs')",
                 tune_table(tuning)]
    if largest:
        text += ["## Largest grid: a few steps and one snapshot", largest_table(largest)]
    if mission:
        text += ["## The mission's command (--n %d --steps 4, its snapshot written): the whole launch's wall time,"
                 " set-up and exit included" % mission[0]["n"], mission_table(mission)]
    table = "\n".join(text)
    with open(os.path.join(args.out_dir, "scaling.txt"), "w") as f:
        f.write(table)
    with open(os.path.join(args.out_dir, "scaling.json"), "w") as f:
        json.dump({"meta": meta, "checks": checks, "strong": strong, "weak": weak, "halo": halo, "links": links,
                   "socket_tuning": tuning, "largest": largest, "mission": mission}, f, indent=1)
    sys.stdout.write(table)

    failed = ([r for r in strong + weak + largest if r["exit"] != 0] + [r for r in checks if not r["passed"]]
              + [r for r in halo if r["status"].startswith("failed")] + [g for g in mission if g["failed"]]
              + [r for r in tuning if r["exit"] != "0"])
    insane = [r for r in strong + weak if r["exit"] == 0 and not (finite_positive(r["ms_per_step"])
                                                                    and finite_positive(r.get("efficiency")))]
    if insane:
        print("scaling_report: runs without a positive time or efficiency: %s" % [(r["kind"], r["ranks"]) for r in insane])
    return 3 if failed or insane else 0


if __name__ == "__main__":
    sys.exit(main())
