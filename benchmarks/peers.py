#!/usr/bin/env python3
"""The reference problem (docs/design.md §1) written plainly in PyTorch, and the same function
under torch.compile, checked against heatrk4 from the same initial field and then timed beside
heatrk4's backends.

heatrk4 writes its initial field and its result (heat_000000.hdf and heat_<steps>.hdf); the peers
read the initial field, the spacing, alpha and dt from those files, take the same steps, and must
agree with heatrk4's result to |x - ref| <= 1e-6 + 1e-6*|ref| at every point. A peer that
disagrees is reported as DISAGREE and not timed. heatrk4's backends are timed by heatrk4-bench
(or taken from a CSV it wrote in the same session with --bench-csv).

  python3 benchmarks/peers.py --heatrk4 build-gpu/apps/heatrk4 \
      --bench build-gpu/benchmarks/heatrk4-bench --commit "$(git rev-parse --short HEAD)"

Exit status: 0 all agree, 1 a peer disagrees, 2 bad arguments, 3 heatrk4 or the bench failed.
--numpy runs the same peer code through numpy on the host (for checking this script on a
machine without a GPU: small --n, no torch, no heatrk4-bench).
"""
import argparse
import csv
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from peer_stencil import make_rk4, make_step, make_weights, run_steps

ATOL = RTOL = 1e-6  # the float agreement rule


class Failure(Exception):
    """A stage that could not run; carries the exit status."""

    def __init__(self, message, status=3):
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------------------------------
# heatrk4 and its files


def run_command(cmd, what):
    print(f"[peers] {what}: {' '.join(cmd)}", flush=True)
    t0 = time.perf_counter()
    done = subprocess.run(cmd)
    print(f"[peers]   -> exit {done.returncode} in {time.perf_counter() - t0:.1f} s", flush=True)
    if done.returncode != 0:
        raise Failure(f"{what} failed with exit status {done.returncode}: {' '.join(cmd)}")


def run_heatrk4(args, workdir):
    cmd = [args.heatrk4, "--n", str(args.n), "--steps", str(args.steps), "--order", str(args.order),
           "--init", "randn", "--seed", str(args.seed), "--backend", args.backend, "--precision", "float",
           "--output", workdir, "--output-every", str(args.steps), "--format", "hdf5", "--quiet",
           "--json", os.path.join(workdir, "run.json")]
    for option in ("alpha", "hx", "hy", "hz"):
        value = getattr(args, option)
        if value is not None:
            cmd += [f"--{option}", repr(value)]
    run_command(cmd, f"heatrk4 {args.backend}: initial field and result")
    with open(os.path.join(workdir, "run.json")) as f:
        return json.load(f)


def read_snapshot(path):
    if not os.path.isfile(path):
        raise Failure(f"heatrk4 did not write {path}")
    import h5py  # here, so that benchmarks/python_step.py can import the peer without h5py

    with h5py.File(path, "r") as f:
        u = f["VTKHDF/PointData/u"][...]
        spacing = [float(s) for s in f["VTKHDF"].attrs["Spacing"]]
        config = {key: f["heatrk4"].attrs[key] for key in ("alpha", "dt", "order", "step")}
    return u, spacing, {k: (float(v) if k in ("alpha", "dt") else int(v)) for k, v in config.items()}


def read_problem(workdir, steps, summary):
    u0, spacing, start = read_snapshot(os.path.join(workdir, "heat_000000.hdf"))
    final, final_spacing, end = read_snapshot(os.path.join(workdir, f"heat_{steps:06d}.hdf"))
    problem = summary["problem"]
    # The files are what the peer reads; the JSON summary must tell the same story.
    expected = {"alpha": problem["alpha"], "dt": problem["dt"], "order": problem["order"]}
    for key, value in expected.items():
        if start[key] != value or end[key] != value:
            raise Failure(f"/heatrk4 attribute {key} ({start[key]}, {end[key]}) differs from run.json ({value})")
    for axis, h in zip(("hx", "hy", "hz"), spacing):
        if h != problem[axis] or final_spacing != spacing:
            raise Failure(f"Spacing {spacing} in the files differs from run.json {axis} = {problem[axis]}")
    if end["step"] != steps or u0.dtype != np.float32 or final.dtype != np.float32:
        raise Failure(f"unexpected snapshots: step {end['step']} (want {steps}), dtypes {u0.dtype} {final.dtype}")
    print(f"[peers] problem from the files: {u0.shape[::-1]} points, spacing {spacing}, alpha {start['alpha']!r}, "
          f"dt {start['dt']!r}, order {start['order']}", flush=True)
    return u0, final, spacing, start


# ---------------------------------------------------------------------------------------------
# Agreement


def compare_slab(x, ref, z0, slab):
    a = np.asarray(x[z0 : z0 + slab], dtype=np.float64)
    b = np.asarray(ref[z0 : z0 + slab], dtype=np.float64)
    err = np.abs(a - b)
    magnitude = np.abs(b)
    rel = np.divide(err, magnitude, out=np.zeros_like(err), where=magnitude != 0)
    ratio = err / (ATOL + RTOL * magnitude)
    bad = np.argwhere(~(ratio <= 1.0))  # NaN fails
    first = [(int(i), int(j), int(k + z0), float(a[k, j, i]), float(b[k, j, i])) for k, j, i in bad[:5]]
    return float(err.max()), float(rel.max()), float(ratio.max()), len(bad), first


def compare(x, ref, slab=16):
    """max abs, max rel (over ref != 0), failures and the first failing points of x against ref,
    in double, slab by slab on several threads (numpy releases the GIL). NaN anywhere shows as NaN."""
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        parts = list(pool.map(lambda z0: compare_slab(x, ref, z0, slab), range(0, ref.shape[0], slab)))
    worst = lambda values: max(values, key=lambda v: (v != v, v))  # NaN wins
    failures = sum(p[3] for p in parts)
    return {"max_abs": worst(p[0] for p in parts), "max_rel": worst(p[1] for p in parts),
            "worst_ratio": worst(p[2] for p in parts), "failures": failures, "agree": failures == 0,
            "first_failures": [f for p in parts for f in p[4]][:5]}


def describe(c):
    return (f"max abs {c['max_abs']:.3e}, max rel {c['max_rel']:.3e}, worst {c['worst_ratio']:.2f} of the "
            f"tolerance, {c['failures']} points outside")


# ---------------------------------------------------------------------------------------------
# heatrk4-bench rows


def bench_rows(path, n, order):
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["n"]) == n and int(row["order"]) == order and row["precision"] == "float":
                rows[row["backend"]] = row
    return rows


# ---------------------------------------------------------------------------------------------
# Peers under torch (the device run) or numpy (--numpy)


class TorchEngine:
    def __init__(self):
        import torch

        if not torch.cuda.is_available():
            raise Failure("torch sees no CUDA device (use --numpy to check this script on the host)", 2)
        self.torch = torch
        self.copy = torch.clone
        self.device_name = torch.cuda.get_device_name()
        self.versions = f"torch {torch.__version__}"

    def upload(self, a, dtype_name):
        return self.torch.from_numpy(a).to(device="cuda", dtype=getattr(self.torch, dtype_name))

    def download(self, t):
        return t.cpu().numpy()

    def variants(self, step):
        return [("pytorch", "PyTorch eager, float32", step),
                ("torch.compile", "PyTorch under torch.compile, float32", self.torch.compile(step))]

    def time_ms(self, fn):
        start, end = self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        self.torch.cuda.synchronize()
        return start.elapsed_time(end)

    def synchronize(self):
        self.torch.cuda.synchronize()

    def release(self):
        self.torch.cuda.empty_cache()


class NumpyEngine:
    device_name = "host (numpy)"
    versions = f"numpy {np.__version__}"
    copy = staticmethod(np.copy)

    def upload(self, a, dtype_name):
        return a.astype(dtype_name)

    def download(self, a):
        return a

    def variants(self, step):
        return [("numpy", "numpy on the host, float32", step)]

    def time_ms(self, fn):
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) * 1e3

    def synchronize(self):
        pass

    def release(self):
        pass


def run_peers(args, engine, u0_host, ref_host, spacing, config):
    radius = config["order"] // 2
    hx, hy, hz = spacing

    def step_in(dtype_name):
        weights = make_weights(config["alpha"], hx, hy, hz, radius, dtype_name)
        return make_step(weights, make_rk4(config["dt"], dtype_name), radius, engine.copy)

    reference64, heatrk4_vs_64 = None, None
    if args.double_reference:
        print("[peers] double reference: the eager peer in float64 from the same initial field", flush=True)
        reference64 = engine.download(run_steps(step_in("float64"), engine.upload(u0_host, "float64"), args.steps))
        engine.release()
        check = compare(ref_host, reference64)
        heatrk4_vs_64 = {k: check[k] for k in ("max_abs", "max_rel", "failures", "worst_ratio")}
        print(f"[peers]   heatrk4 {args.backend} against float64: {describe(check)}", flush=True)

    u0 = engine.upload(u0_host, "float32")
    results = []
    for name, what, step in engine.variants(step_in("float32")):
        print(f"[peers] {name}: {what}, {args.steps} steps; first run (warm-up, compile) then the check", flush=True)
        t0 = time.perf_counter()
        u = run_steps(step, u0, args.steps)
        engine.synchronize()
        first_s = time.perf_counter() - t0
        result_host = engine.download(u)
        del u
        check = compare(result_host, ref_host)
        row = {"name": name, "what": what, "check": "agree" if check["agree"] else "DISAGREE",
               "first_run_s": first_s, **{k: check[k] for k in ("max_abs", "max_rel", "failures", "worst_ratio")}}
        print(f"[peers]   first run {first_s:.2f} s; against heatrk4 {args.backend}: {row['check']}: "
              f"{describe(check)}", flush=True)
        for i, j, k, value, reference in check["first_failures"]:
            print(f"[peers]   failing ({i},{j},{k}): {value:.9g} vs heatrk4 {reference:.9g}", flush=True)
        if reference64 is not None:
            against64 = compare(result_host, reference64)
            row["against_float64"] = {k: against64[k] for k in ("max_abs", "max_rel", "failures", "worst_ratio")}
            print(f"[peers]   {name} against float64: {describe(against64)}", flush=True)
        del result_host
        if check["agree"]:
            times = [engine.time_ms(lambda: run_steps(step, u0, args.steps)) for _ in range(args.repeats)]
            row["ms"] = statistics.median(times)
            row["repeat_ms"] = times
            print(f"[peers]   {args.steps} steps: median {row['ms']:.2f} ms of {args.repeats} "
                  f"({', '.join(f'{t:.1f}' for t in times)})", flush=True)
        else:
            row["ms"] = None
            print(f"[peers]   {name} DISAGREES with heatrk4 {args.backend}: not timed", flush=True)
        results.append(row)
        engine.release()
    return results, heatrk4_vs_64


# ---------------------------------------------------------------------------------------------
# Report


def git_commit(given):
    if given:
        return given
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        done = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"
    except OSError:
        return "unknown"


def build_table(args, peers, bench, summary):
    """Rows of the comparison: heatrk4's backends, the floor, the peers; ms per args.steps steps."""
    rows = []
    for backend in ("naive", "reuse", "tiled"):
        if backend in bench:
            b = bench[backend]
            timed = b["check"] == "pass"
            rows.append({"name": f"heatrk4 {backend}", "source": "heatrk4-bench (CUDA events, median)",
                         "check": "pass" if timed else "FAILED", "max_abs": "", "max_rel": "",
                         "ms": float(b["ms_per_step"]) * args.steps if timed else None})
    rows.append({"name": f"heatrk4 {args.backend} (run)", "source": "heatrk4 --json rate.ms_per_step (host clock)",
                 "check": "reference", "max_abs": "", "max_rel": "",
                 "ms": float(summary["rate"]["ms_per_step"]) * args.steps})
    floors = [float(b["floor_ms_per_step"]) for b in bench.values() if float(b["floor_ms_per_step"]) > 0]
    if floors:
        rows.append({"name": "floor (copy of u per step)", "source": "heatrk4-bench device-to-device copy",
                     "check": "", "max_abs": "", "max_rel": "", "ms": floors[0] * args.steps})
    for p in peers:
        rows.append({"name": p["name"], "source": p["what"], "check": p["check"], "max_abs": p["max_abs"],
                     "max_rel": p["max_rel"], "ms": p["ms"]})
    tiled = next((r["ms"] for r in rows if r["name"] == "heatrk4 tiled" and r["ms"]), None)
    if tiled is None:
        tiled = next((r["ms"] for r in rows if r["name"] == "heatrk4 tiled (run)" and r["ms"]), None)
    for r in rows:
        r["ratio_to_tiled"] = r["ms"] / tiled if (r["ms"] and tiled) else None
    return rows


def print_table(args, rows, meta):
    print(f"\nReference problem: {args.n}^3, order {args.order}, float, {args.steps} steps on {meta['device']} "
          f"({meta['date']}, commit {meta['commit']})")
    print(f"{'':30s} {'check':>9s} {'max abs':>10s} {'max rel':>10s} {'ms/' + str(args.steps) + ' steps':>14s} "
          f"{'x tiled':>9s}")
    for r in rows:
        fmt = lambda v, f: (f % v) if isinstance(v, float) else str(v)
        ms = f"{r['ms']:.2f}" if r["ms"] else "not timed"
        ratio = f"{r['ratio_to_tiled']:.2f}" if r["ratio_to_tiled"] else ""
        print(f"{r['name']:30s} {r['check']:>9s} {fmt(r['max_abs'], '%.2e'):>10s} {fmt(r['max_rel'], '%.2e'):>10s} "
              f"{ms:>14s} {ratio:>9s}")


def write_outputs(args, rows, peers, meta):
    for path in (args.csv, args.json):
        if os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(args.csv, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["device", "date", "commit", "n", "order", "precision", "steps", "name", "source", "check",
                      "max_abs", "max_rel", "ms_for_steps", "ms_per_step", "ratio_to_tiled"])
        for r in rows:
            out.writerow([meta["device"], meta["date"], meta["commit"], args.n, args.order, "float", args.steps,
                          r["name"], r["source"], r["check"], r["max_abs"], r["max_rel"],
                          r["ms"] if r["ms"] else "", r["ms"] / args.steps if r["ms"] else "",
                          r["ratio_to_tiled"] if r["ratio_to_tiled"] else ""])
    with open(args.json, "w") as f:
        json.dump({**meta, "n": args.n, "order": args.order, "precision": "float", "steps": args.steps,
                   "repeats": args.repeats, "checked_against": f"heatrk4 {args.backend}",
                   "tolerance": {"atol": ATOL, "rtol": RTOL}, "rows": rows, "peers": peers}, f, indent=1)
    print(f"[peers] wrote {args.csv} and {args.json}", flush=True)


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--heatrk4", default=os.path.join(root, "build-gpu", "apps", "heatrk4"), help="heatrk4 binary")
    bench = p.add_mutually_exclusive_group()
    bench.add_argument("--bench", help="heatrk4-bench binary: run it here for heatrk4's backends")
    bench.add_argument("--bench-csv", help="a CSV heatrk4-bench wrote in this session (instead of --bench)")
    p.add_argument("--n", type=int, default=600)
    p.add_argument("--order", type=int, default=8, choices=(2, 4, 6, 8))
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--alpha", type=float, help="passed to heatrk4 (default: heatrk4's)")
    p.add_argument("--hx", type=float, help="passed to heatrk4 (default: heatrk4's unit cube)")
    p.add_argument("--hy", type=float)
    p.add_argument("--hz", type=float)
    p.add_argument("--backend", default="tiled", help="heatrk4 backend whose result the peers must match")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per peer, at least 5; the median is reported")
    p.add_argument("--no-double-reference", dest="double_reference", action="store_false",
                   help="skip the float64 run that shows how far the peer and heatrk4 each are from double")
    p.add_argument("--commit", help="git commit of the build (default: git rev-parse, where .git exists)")
    p.add_argument("--csv", default=os.path.join(root, "benchmarks", "results", "peers.csv"))
    p.add_argument("--json", default=os.path.join(root, "benchmarks", "results", "peers.json"))
    p.add_argument("--workdir", help="directory for heatrk4's snapshots (default: a temporary one, removed)")
    p.add_argument("--numpy", action="store_true", help="run the peer through numpy on the host (no GPU needed)")
    args = p.parse_args(argv)
    if args.repeats < 5:
        p.error(f"--repeats {args.repeats}: the median needs at least 5 timed runs")
    if not os.access(args.heatrk4, os.X_OK):
        p.error(f"--heatrk4 {args.heatrk4} is not an executable (build it first: scripts/device_check.sh build)")
    if args.bench and not os.access(args.bench, os.X_OK):
        p.error(f"--bench {args.bench} is not an executable")
    if args.bench_csv and not os.path.isfile(args.bench_csv):
        p.error(f"--bench-csv {args.bench_csv} does not exist")
    return args


def main(argv):
    args = parse_args(argv)
    engine = NumpyEngine() if args.numpy else TorchEngine()
    workdir = args.workdir or tempfile.mkdtemp(prefix="heatrk4-peers-")
    os.makedirs(workdir, exist_ok=True)
    try:
        summary = run_heatrk4(args, workdir)
        bench = {}
        if args.bench:
            bench_csv = os.path.join(workdir, "bench.csv")
            run_command([args.bench, "--sizes", str(args.n), "--orders", str(args.order), "--precisions", "float",
                         "--backends", "naive", "reuse", "tiled", "--steps", str(args.steps), "--csv", bench_csv],
                        "heatrk4-bench")
            bench = bench_rows(bench_csv, args.n, args.order)
        elif args.bench_csv:
            bench = bench_rows(args.bench_csv, args.n, args.order)
            print(f"[peers] heatrk4 backends from {args.bench_csv}: {', '.join(bench) or 'no matching rows'}")
        u0, final, spacing, config = read_problem(workdir, args.steps, summary)
        peers, heatrk4_vs_64 = run_peers(args, engine, u0, final, spacing, config)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    meta = {"device": engine.device_name, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds"), "commit": git_commit(args.commit), "software": engine.versions,
            "heatrk4_device": summary.get("device", ""), "heatrk4_against_float64": heatrk4_vs_64}
    rows = build_table(args, peers, bench, summary)
    print_table(args, rows, meta)
    write_outputs(args, rows, peers, meta)
    disagree = [p["name"] for p in peers if p["check"] != "agree"]
    if disagree:
        print(f"[peers] DISAGREE: {', '.join(disagree)} did not match heatrk4 {args.backend}; see above", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as e:
        print(f"[peers] FAILED: {e}", file=sys.stderr, flush=True)
        sys.exit(e.status)
