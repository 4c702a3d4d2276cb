#!/usr/bin/env python3
"""Checks that tiled's kernels take their tile from the launch, not from the block's index.

    scripts/check_tile_indices.py    # CTest's tiled_kernels_take_their_tile_from_the_launch

A launch may cover only a share of a plane's tiles (the rim strips and the clear tiles of a rank
grid's overlap, core/step_columns.hpp): its block (x, y) writes tile (first_tile_x + x,
first_tile_y + y), which `block_tile_x` and `block_tile_y` (backends/tiled/column_pairs.cuh) give.
A kernel that reads blockIdx.x or blockIdx.y itself writes the first tiles of the plane in every
share, which passes every test that runs whole launches. Exits 1 naming each `file:line` under
backends/tiled/ that reads blockIdx.x or blockIdx.y outside those two functions.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TILED = ROOT / "backends/tiled"
ALLOWED = re.compile(r"__device__ __forceinline__ int block_tile_[xy]\(const LaunchPlanes& p\)")
BLOCK_XY = re.compile(r"\bblockIdx\.[xy]\b")


def main():
    found = []
    for path in sorted(TILED.glob("*.cu*")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if BLOCK_XY.search(line) and not ALLOWED.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    for line in found:
        print(line)
    if found:
        print("check_tile_indices: take the tile from block_tile_x/block_tile_y(args.planes), not blockIdx",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
