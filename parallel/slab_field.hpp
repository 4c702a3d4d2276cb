// Copies between a whole field and one rank's box (decomposition.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "parallel/decomposition.hpp"
#include "core/field.hpp"
#include "core/initial_conditions.hpp"

namespace heat {

// Point `i` after `runs` of consecutive points: the last run one longer where i follows it.
inline void append_point(std::vector<Planes>& runs, int i) {
  if (!runs.empty() && runs.back().first + runs.back().count == i)
    ++runs.back().count;
  else
    runs.push_back(Planes{i, 1});
}

// The planes of the grid a box holds, in box order, as runs of consecutive planes: one run,
// [box_begin, box_end), unless the box wraps, whose planes beyond the interior are the ones a
// period away (Slab::ring_plane).
inline std::vector<Planes> box_sources(const Slab& s, const Grid& global) {
  std::vector<Planes> runs;
  for (int z = s.box_begin; z < s.box_end; ++z) append_point(runs, s.ring_plane(z, global.nz));
  return runs;
}

// The points of the grid that a box's points along x or y hold, in box order: each its own, and
// where the axis wraps, one beyond the grid (wider ghosts than r) the point one period away. Not
// ring_point's: a single process's fill of a periodic x or y face leaves the points beyond the
// later axes' faces (edges and corners) as they were, and so must the box.
inline std::vector<int> box_sources_along(const AxisSplit& a, int n, int radius) {
  std::vector<int> points;
  const int period = n - 2 * radius;
  for (int i = a.box_begin; i < a.box_end; ++i) points.push_back(i < 0 ? i + period : i >= n ? i - period : i);
  return points;
}

// The points of the grid a box holds along x, y and z, in box order, each axis's as runs of
// consecutive points (Planes: first and count, along any axis): the box is their product.
inline std::array<std::vector<Planes>, 3> box_source_runs(const Slab& s, const Grid& global) {
  std::array<std::vector<Planes>, 3> runs;
  for (int i : box_sources_along(s.x, global.nx, s.radius)) append_point(runs[0], i);
  for (int j : box_sources_along(s.y, global.ny, s.radius)) append_point(runs[1], j);
  runs[2] = box_sources(s, global);
  return runs;
}

// Whole planes of the grid cut to the box's columns and rows, written from `to` on; returns the end.
template <typename T>
T* copy_box_rows(const Field<T>& planes, const Slab& s, const Grid& global, T* to) {
  if (s.is_slab()) return std::copy(planes.data(), planes.data() + planes.size(), to);
  const std::vector<int> xs = box_sources_along(s.x, global.nx, s.radius);
  const std::vector<int> ys = box_sources_along(s.y, global.ny, s.radius);
  for (int k = 0; k < planes.nz(); ++k)
    for (int j : ys)
      for (int i : xs) *to++ = planes(i, j, k);
  return to;
}

// A box made of the planes of box_sources, each run's from planes_of(run), a Field<T> of
// run.count whole planes, cut to the box's columns and rows.
template <typename T, typename PlanesOf>
Field<T> box_from_runs(const Slab& s, const Grid& global, PlanesOf&& planes_of) {
  const Grid box_grid = s.box_grid(global);
  auto box = Field<T>::uninitialized(box_grid.nx, box_grid.ny, box_grid.nz);
  T* to = box.data();
  for (const Planes& run : box_sources(s, global)) to = copy_box_rows(planes_of(run), s, global, to);
  return box;
}

// The box's points of a whole field: the box a rank starts from when every rank holds the whole
// initial field.
template <typename T>
Field<T> box_of(const Field<T>& whole, const Slab& s) {
  const Grid g{whole.nx(), whole.ny(), whole.nz()};
  return box_from_runs<T>(s, g, [&](const Planes& run) {
    auto planes = Field<T>::uninitialized(whole.nx(), whole.ny(), run.count);
    const T* from = whole.data() + whole.index(0, 0, run.first);
    std::copy(from, from + planes.size(), planes.data());
    return planes;
  });
}

}  // namespace heat
