"""A point array made of boxes: material labels (--material-labels F.hdf:label) or a heat source
(--source file:F.hdf:q), on the run's grid (docs/design.md §1, "Materials" and "Sources").

usage: PYTHONPATH=build/python python3 scripts/box_array.py OUT.hdf --array NAME --n NX,NY,NZ --h H
                                       --fill VALUE [--box VALUE:X0,X1,Y0,Y1,Z0,Z1 ...]
Every point of the grid of NX x NY x NZ points, spacing H, takes --fill's value; then each --box, in
the order given, sets the points (i*H, j*H, k*H) inside its bounds (the bounds included, to a
millionth of H) to its value, so a later box overwrites an earlier one where they meet. The array is
written with heatrk4.write as the point array NAME of OUT.hdf (its folder made where missing). The
README's copper block example runs it."""
import argparse
import os

import numpy as np

import heatrk4


def numbers(text, count, kind):
    values = [kind(v) for v in text.split(",")]
    if len(values) != count:
        raise argparse.ArgumentTypeError(f"{text}: give {count} comma-separated numbers")
    return values


def box(text):
    value, _, bounds = text.partition(":")
    return float(value), numbers(bounds, 6, float)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--array", required=True, help="the point array's name")
    parser.add_argument("--n", required=True, type=lambda t: numbers(t, 3, int), help="NX,NY,NZ points")
    parser.add_argument("--h", required=True, type=float, help="spacing, the same on every axis")
    parser.add_argument("--fill", required=True, type=float, help="the value of every point no box holds")
    parser.add_argument("--box", action="append", default=[], type=box, help="VALUE:X0,X1,Y0,Y1,Z0,Z1")
    options = parser.parse_args()
    nx, ny, nz = options.n
    values = np.full((nz, ny, nx), options.fill)
    slack = 1e-6 * options.h
    z, y, x = np.meshgrid(*(np.arange(n) * options.h for n in (nz, ny, nx)), indexing="ij")
    for value, (x0, x1, y0, y1, z0, z1) in options.box:
        inside = ((x0 - slack <= x) & (x <= x1 + slack) & (y0 - slack <= y) & (y <= y1 + slack) &
                  (z0 - slack <= z) & (z <= z1 + slack))
        if not inside.any():
            parser.error(f"--box {value:g}:{x0:g},{x1:g},{y0:g},{y1:g},{z0:g},{z1:g} holds no point of the grid")
        values[inside] = value
    os.makedirs(os.path.dirname(options.output) or ".", exist_ok=True)
    heatrk4.write(options.output, values, h=options.h, array=options.array)
    counts = ", ".join(f"{v:g}: {int((values == v).sum())}" for v in np.unique(values))
    print(f"box_array: {options.output}:{options.array}, {nx} x {ny} x {nz} points; points by value {counts}")


if __name__ == "__main__":
    main()
