// Parts of a grid that a rank holds: runs of planes, and boxes of a run along each axis; plain
// values, the same on the host and the device.
#pragma once

#include "stencils/host_device.hpp"

namespace heat {

// Planes [first, first + count) of a grid along z (or a run of points along any axis): the part
// of a field one rank of a distributed run holds (its box).
struct Planes {
  int first = 0;
  int count = 0;
};

// A box of a grid: a run of consecutive points along each axis, the part of a field one rank of a
// rank grid holds where its box does not wrap.
struct GridBox {
  Planes x, y, z;
};

// Point m of `box` (x fastest): its indices in a grid of nx x ny points a plane, and its flat
// index n there (randn's counter).
struct BoxPoint {
  long long n;
  int i, j, k;
};
HD inline BoxPoint box_point(int nx, int ny, const GridBox& box, long long m) {
  const long long row = m / box.x.count;
  BoxPoint p;
  p.i = box.x.first + int(m - row * box.x.count);
  p.j = box.y.first + int(row % box.y.count);
  p.k = box.z.first + int(row / box.y.count);
  p.n = p.i + (long long)nx * (p.j + (long long)ny * p.k);
  return p;
}

}  // namespace heat
