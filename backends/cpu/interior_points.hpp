// The host loop over a field's interior (the points within r of no face): OpenMP over (z, y)
// rows, a unit-stride x loop that the compiler vectorises. Each point is computed independently
// of the thread that owns it, so what a body computes is bitwise the same for any thread count.
#pragma once

#include <cstddef>

#include "core/problem.hpp"

namespace heat {

// Calls body(p) for the flat index p of every interior point of `g` at radius `r`.
template <typename Body>
void for_interior_points(const Grid& g, int r, Body&& body) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = r; k < g.nz - r; ++k)
    for (int j = r; j < g.ny - r; ++j) {
      const std::size_t row = g.index(0, j, k);
#pragma omp simd
      for (int i = r; i < g.nx - r; ++i) body(row + std::size_t(i));
    }
}

}  // namespace heat
