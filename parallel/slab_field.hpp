// Copies between a whole field and one rank's box (decomposition.hpp).
#pragma once

#include <algorithm>
#include <vector>

#include "parallel/decomposition.hpp"
#include "core/field.hpp"
#include "core/initial_conditions.hpp"

namespace heat {

// The planes of the grid a box holds, in box order, as runs of consecutive planes: one run,
// [box_begin, box_end), unless the box wraps, whose planes beyond the interior are the ones a
// period away (Slab::ring_plane).
inline std::vector<Planes> box_sources(const Slab& s, const Grid& global) {
  std::vector<Planes> runs;
  for (int z = s.box_begin; z < s.box_end; ++z) {
    const int source = s.ring_plane(z, global.nz);
    if (!runs.empty() && runs.back().first + runs.back().count == source)
      ++runs.back().count;
    else
      runs.push_back(Planes{source, 1});
  }
  return runs;
}

// A box made of the planes of box_sources, each run's from planes_of(run), a Field<T> of
// run.count planes.
template <typename T, typename PlanesOf>
Field<T> box_from_runs(const Slab& s, const Grid& global, PlanesOf&& planes_of) {
  auto box = Field<T>::uninitialized(global.nx, global.ny, s.box_planes());
  T* to = box.data();
  for (const Planes& run : box_sources(s, global)) {
    const Field<T> planes = planes_of(run);
    to = std::copy(planes.data(), planes.data() + planes.size(), to);
  }
  return box;
}

// The box's planes of a whole field: the box a rank starts from when every rank holds the whole
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
