#!/usr/bin/env python3
"""Draws a run's monitors.csv (heatrk4 --monitor-every / --probe): heatrk4 plot runs this script,
compiled into the binary (apps/CMakeLists.txt), as `python3 - monitors.csv out.png`.

Top: the temperatures against time (each probe, min, max, mean). Bottom: the total heat (left
axis) and the heat entering through each face that has a rate (right axis). The figure is 10 x 7
inches at 100 dpi: 1000 x 700 pixels. Needs matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display on build machines
import matplotlib.pyplot as plt  # noqa: E402

WIDTH_INCHES, HEIGHT_INCHES, DPI = 10, 7, 100


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
    columns = {}
    for n, name in enumerate(header):
        cells = [r[n] for r in body]
        if all(cells):  # a face without a rate (layer) has empty cells
            columns[name] = [float(c) for c in cells]
    return header, columns


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_monitors.py monitors.csv out.png")
    header, columns = read_columns(sys.argv[1])
    time = columns["time"]
    figure, (temperatures, heat) = plt.subplots(2, 1, figsize=(WIDTH_INCHES, HEIGHT_INCHES), dpi=DPI, sharex=True)
    for name in header:
        if name in columns and (name.startswith("probe(") or name in ("min", "max", "mean")):
            temperatures.plot(time, columns[name], label=name, linestyle="--" if name in ("min", "max") else "-")
    temperatures.set_ylabel("temperature")
    temperatures.legend(fontsize=8)
    temperatures.grid(True, alpha=0.3)
    heat.plot(time, columns["total_heat"], color="black", label="total_heat")
    heat.set_ylabel("total heat C*sum(w u) dV")
    heat.set_xlabel("time")
    heat.grid(True, alpha=0.3)
    rates = heat.twinx()
    for name in header:
        if name in columns and name.startswith("heat_in_"):
            rates.plot(time, columns[name], linestyle=":", label=name)
    rates.set_ylabel("heat in through a face per unit time")
    lines = heat.get_legend_handles_labels(), rates.get_legend_handles_labels()
    heat.legend(lines[0][0] + lines[1][0], lines[0][1] + lines[1][1], fontsize=8)
    figure.tight_layout()
    figure.savefig(sys.argv[2], dpi=DPI)


if __name__ == "__main__":
    main()
