// Copying a whole field between host arrays of the same grid, spread over the OpenMP threads
// (each thread then first-touches the pages it will step).
#pragma once

#include "core/field.hpp"

namespace heat {

template <typename T>
void copy_field_points(const Field<T>& from, Field<T>& to) {
  const T* src = from.data();
  T* dst = to.data();
  parallel_for_points(from.size(), [&](std::size_t n) { dst[n] = src[n]; });
}

}  // namespace heat
