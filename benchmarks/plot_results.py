#!/usr/bin/env python3
"""Pictures of heatrk4-bench's CSV and peers.py's CSV.

  python3 benchmarks/plot_results.py --bench bench.csv --peers peers.csv --out-dir DIR

DIR/bench_sizes.png: ms per step against grid points for each backend, log-log, with the floor
(one device-to-device copy of u per step, the floor_ms_per_step column): one panel per order and
precision swept over two or more sizes, plus, where the CSV holds several orders at one size, a
panel of each backend's time as a multiple of the floor there.
DIR/reference_problem.png: the reference problem (600^3, order 8, float, 10 steps): heatrk4's
backends, PyTorch, torch.compile and the floor, in ms per 10 steps. Without --peers the bars come
from the bench CSV alone (heatrk4's backends and the floor).
Rows whose check failed are left out and named on stdout.
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

BACKEND_STYLE = {"naive": ("tab:red", "o"), "reuse": ("tab:orange", "s"), "tiled": ("tab:blue", "D"),
                 "cpu": ("tab:gray", "v")}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def bench_points(rows):
    """Rows that passed the check, with numbers parsed; the failed ones are reported."""
    good = []
    for r in rows:
        if r["check"] != "pass":
            print(f"plot_results: {r['backend']} {r['precision']} n={r['n']} order {r['order']} failed the check: "
                  f"not plotted")
            continue
        good.append({"device": r["device"], "backend": r["backend"], "precision": r["precision"], "n": int(r["n"]),
                     "order": int(r["order"]), "ms": float(r["ms_per_step"]),
                     "floor": float(r["floor_ms_per_step"]), "ratio": float(r["ratio_to_floor"])})
    return good


def size_panels(points):
    """(order, precision) pairs measured at two or more sizes, order 8 float first."""
    sizes = defaultdict(set)
    for p in points:
        sizes[(p["order"], p["precision"])].add(p["n"])
    swept = [key for key, ns in sizes.items() if len(ns) >= 2]
    return sorted(swept, key=lambda k: (k != (8, "float"), k[1], -k[0]))


def matrix_size(points):
    """The size with the most orders measured (the order x precision matrix), if several orders share one."""
    orders = defaultdict(set)
    for p in points:
        orders[p["n"]].add(p["order"])
    best = max(orders, key=lambda n: (len(orders[n]), n), default=None)
    return best if best is not None and len(orders[best]) >= 2 else None


def draw_sizes(ax, points, order, precision):
    mine = [p for p in points if p["order"] == order and p["precision"] == precision]
    for backend in sorted({p["backend"] for p in mine}, key=lambda b: list(BACKEND_STYLE).index(b)
                          if b in BACKEND_STYLE else 99):
        line = sorted((p for p in mine if p["backend"] == backend), key=lambda p: p["n"])
        color, marker = BACKEND_STYLE.get(backend, (None, "x"))
        ax.plot([p["n"] ** 3 for p in line], [p["ms"] for p in line], marker=marker, color=color, label=backend)
    floor = {}
    for p in mine:
        floor.setdefault(p["n"], p["floor"])
    ns = sorted(floor)
    ax.plot([n ** 3 for n in ns], [floor[n] for n in ns], "k--", label="floor (copy of u)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([n ** 3 for n in ns])
    ax.set_xticklabels([f"{n}³" for n in ns], rotation=45)
    ax.minorticks_off()
    ax.set_xlabel("grid points")
    ax.set_ylabel("ms per step")
    ax.set_title(f"order {order}, {precision}")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)


def draw_matrix(ax, points, n):
    """Each backend's time as a multiple of the floor, per order and precision, at one size."""
    mine = [p for p in points if p["n"] == n]
    groups = sorted({(p["precision"], p["order"]) for p in mine}, key=lambda g: (g[0] != "float", g[1]))
    backends = [b for b in BACKEND_STYLE if any(p["backend"] == b for p in mine)]
    width = 0.8 / max(1, len(backends))
    for b_index, backend in enumerate(backends):
        xs, ys = [], []
        for g_index, (precision, order) in enumerate(groups):
            match = [p for p in mine if p["backend"] == backend and p["precision"] == precision and p["order"] == order]
            if match:
                xs.append(g_index + (b_index - (len(backends) - 1) / 2) * width)
                ys.append(match[0]["ratio"])
        ax.bar(xs, ys, width, color=BACKEND_STYLE[backend][0], label=backend)
    ax.axhline(1.0, color="k", linestyle="--", label="floor")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([f"o{order}\n{precision}" for precision, order in groups])
    ax.set_ylabel("ms per step / floor")
    ax.set_title(f"{n}³: time as a multiple of the floor")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)


def plot_sizes(points, path):
    panels = size_panels(points)
    n_matrix = matrix_size(points)
    count = len(panels) + (1 if n_matrix else 0)
    if count == 0:
        print("plot_results: no backend was measured at two sizes or two orders: no size plot")
        return False
    fig, axes = plt.subplots(1, count, figsize=(6 * count, 5), squeeze=False)
    for ax, (order, precision) in zip(axes[0], panels):
        draw_sizes(ax, points, order, precision)
    if n_matrix:
        draw_matrix(axes[0][-1], points, n_matrix)
    fig.suptitle(f"heatrk4 backends against the floor, {points[0]['device']}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"plot_results: wrote {path}")
    return True


def reference_bars(points, peers_rows, n, order, steps):
    """(label, ms per `steps` steps, colour) for the reference problem."""
    bars = []
    if peers_rows:
        for r in peers_rows:
            if r["name"].endswith("(run)"):
                continue  # the host-clock run of heatrk4; the bench rows carry the same backend
            if not r["ms_for_steps"]:
                print(f"plot_results: {r['name']} has no time ({r['check']}): not plotted")
                continue
            name = r["name"]
            backend = name.replace("heatrk4 ", "")
            colour = BACKEND_STYLE.get(backend, ("k" if name.startswith("floor") else "tab:green", ""))[0]
            if name == "pytorch":
                colour = "tab:purple"
            bars.append((name, float(r["ms_for_steps"]), colour))
        return sorted(bars, key=lambda bar: bar[0].startswith("floor"))  # the floor last
    mine = [p for p in points if p["n"] == n and p["order"] == order and p["precision"] == "float"]
    for p in sorted(mine, key=lambda p: list(BACKEND_STYLE).index(p["backend"]) if p["backend"] in BACKEND_STYLE
                    else 99):
        bars.append((f"heatrk4 {p['backend']}", p["ms"] * steps, BACKEND_STYLE.get(p["backend"], ("k", ""))[0]))
    if mine:
        bars.append(("floor (copy of u)", mine[0]["floor"] * steps, "k"))
    return bars


def plot_reference(points, peers_rows, path, n, order, steps):
    if peers_rows:
        n, order, steps = int(peers_rows[0]["n"]), int(peers_rows[0]["order"]), int(peers_rows[0]["steps"])
        device = peers_rows[0]["device"]
    else:
        device = points[0]["device"] if points else ""
    bars = reference_bars(points, peers_rows, n, order, steps)
    if not bars:
        print(f"plot_results: nothing measured at {n}³ order {order} float: no reference-problem plot")
        return False
    tiled = next((ms for label, ms, _ in bars if label == "heatrk4 tiled"), None)
    fig, ax = plt.subplots(figsize=(1.6 * len(bars) + 2, 5))
    xs = range(len(bars))
    ax.bar(xs, [ms for _, ms, _ in bars], color=[c for _, _, c in bars])
    for x, (label, ms, _) in zip(xs, bars):
        note = f"{ms:.1f} ms" + (f"\n{ms / tiled:.2f}x tiled" if tiled else "")
        ax.annotate(note, (x, ms), ha="center", va="bottom", fontsize=8, xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([label for label, _, _ in bars], rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel(f"ms per {steps} steps (log)")
    ax.set_title(f"reference problem: {n}³, order {order}, float, {steps} steps\n{device}")
    ax.grid(True, axis="y", which="major", alpha=0.3)
    ax.margins(y=0.25)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"plot_results: wrote {path}")
    return True


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bench", required=True, help="heatrk4-bench CSV (the size sweep and/or the order matrix)")
    p.add_argument("--peers", help="peers.py CSV; without it the bar chart has heatrk4 and the floor only")
    p.add_argument("--out-dir", default=".", help="where the PNGs go")
    p.add_argument("--n", type=int, default=600, help="size of the reference problem in the bench CSV")
    p.add_argument("--order", type=int, default=8)
    p.add_argument("--steps", type=int, default=10)
    args = p.parse_args(argv)
    points = bench_points(read_csv(args.bench))
    peers_rows = None
    if args.peers:
        if os.path.isfile(args.peers):
            peers_rows = read_csv(args.peers)
        else:
            print(f"plot_results: {args.peers} does not exist: the bar chart shows heatrk4 and the floor only")
    os.makedirs(args.out_dir, exist_ok=True)
    made = plot_sizes(points, os.path.join(args.out_dir, "bench_sizes.png")) if points else False
    made_bars = plot_reference(points, peers_rows, os.path.join(args.out_dir, "reference_problem.png"), args.n,
                               args.order, args.steps)
    return 0 if (made and made_bars) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
