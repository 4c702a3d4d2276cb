// The physical-boundary fill of a host field (docs/design.md §1, "Boundary"): before each
// application of the Laplacian, the r ghost points beyond each face whose condition is not layer
// are set from the current field, as AMReX fills domain boundaries after FillBoundary. The
// stencil loops then read ghosts like any neighbour and never branch on conditions. Each ghost's
// value is core/boundary_ghosts.hpp's, which the CUDA backends' fill computes too.
#pragma once

#include "core/boundary_ghosts.hpp"
#include "core/problem.hpp"

namespace heat {

// Fills the ghost points of every face of `p` whose condition is not layer, in `u` (the whole
// grid), with `part` of the conditions. Temperature faces first set their face points, so the later
// axes' reflections mirror the held values; where two faces share an edge point, the later axis
// (x, y, then z) sets it.
template <typename T>
void fill_boundaries(const Problem& p, T* u, FillPart part = FillPart::Full) {
  for (int face = 0; face < kFaces; ++face) {
    if (p.boundaries[face].kind != BoundaryKind::Temperature) continue;
    const FaceFill f = face_fill(p, face, part);
    for (long long row = 0; row < f.rows(); ++row) hold_face_point(f, u, f.row_base(row));
  }
  for (int face = 0; face < kFaces; ++face) {
    if (p.boundaries[face].kind == BoundaryKind::Layer) continue;
    const FaceFill f = face_fill(p, face, part);
    for (long long row = 0; row < f.rows(); ++row) fill_face_row(f, u, f.row_base(row));
  }
}

}  // namespace heat
