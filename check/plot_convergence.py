#!/usr/bin/env python3
"""Draws the log-log convergence plot of `heatrk4 convergence` from its CSV.

usage: plot_convergence.py convergence.csv convergence.png

Left: error against h for each stencil order p, with a dashed h^p reference line. Right: error
against dt, with a dashed dt^4 reference. The references run parallel to the data a factor of 3
below it, so both stay visible. Needs matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display on build machines
import matplotlib.pyplot as plt  # noqa: E402


def read_studies(path):
    studies = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["study"], int(row["order"]))
            studies.setdefault(key, []).append(row)
    return studies


def draw(ax, studies, kind, step_column, expected_of, xlabel, title):
    markers = {2: "o", 4: "s", 6: "^", 8: "D"}
    for (study, order), rows in sorted(studies.items()):
        if study != kind:
            continue
        steps = [float(r[step_column]) for r in rows]
        errors = [float(r["error"]) for r in rows]
        # The time errors of all orders coincide (RK4 does not see the stencil), so the markers
        # shrink with the order to keep every series visible.
        size = 9 - order / 2 if kind == "time" else 6
        line, = ax.loglog(steps, errors, marker=markers.get(order, "o"), markersize=size,
                          label=f"p = {order}")
        slope = expected_of(order)
        ref = [errors[-1] / 3 * (s / steps[-1]) ** slope for s in steps]
        ax.loglog(steps, ref, "--", color=line.get_color(), alpha=0.6, linewidth=1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("error of the decay factor")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    studies = read_studies(sys.argv[1])
    fig, (space, time) = plt.subplots(1, 2, figsize=(10, 4.2))
    draw(space, studies, "space", "h", lambda p: p, "h",
         "space: error vs h (dashed: slope p)")
    draw(time, studies, "time", "dt", lambda p: 4, "dt",
         "time: error vs dt (dashed: slope 4)")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
