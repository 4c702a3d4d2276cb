// Copies between a whole field and one rank's box (decomposition.hpp).
#pragma once

#include <algorithm>

#include "parallel/decomposition.hpp"
#include "core/field.hpp"

namespace heat {

// The planes [box_begin, box_end) of a whole field: the box a rank starts from when every rank
// holds the whole initial field.
template <typename T>
Field<T> box_of(const Field<T>& whole, const Slab& s) {
  auto box = Field<T>::uninitialized(whole.nx(), whole.ny(), s.box_planes());
  const T* from = whole.data() + whole.index(0, 0, s.box_begin);
  std::copy(from, from + box.size(), box.data());
  return box;
}

}  // namespace heat
