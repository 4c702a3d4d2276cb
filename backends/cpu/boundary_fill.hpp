// The physical-boundary fill of a host field (docs/design.md §1, "Boundary"): before each
// application of the Laplacian, the r ghost points beyond each face whose condition is not layer
// are set from the current field, as AMReX fills domain boundaries after FillBoundary. The
// stencil loops then read ghosts like any neighbour and never branch on conditions. Each ghost's
// value is core/boundary_ghosts.hpp's, which the CUDA backends' fill computes too. In a rank's
// box (parallel/decomposition.hpp) the halo exchange runs between the faces that read within a
// z-plane and the z faces, which read across planes: the ghost planes then hold the neighbours'
// planes as their x and y faces left them, as a single process's z faces find them.
#pragma once

#include "core/boundary_ghosts.hpp"
#include "core/ghost_exchange.hpp"
#include "core/problem.hpp"

namespace heat {

namespace boundary_fill_detail {

// The ghosts of `axis`'s faces of `p` whose condition is not layer, in `u`.
template <typename T>
void fill_axis(const Problem& p, T* u, int axis, FillPart part) {
  for (int face = 2 * axis; face < 2 * axis + 2; ++face) {
    if (p.boundaries[face].kind == BoundaryKind::Layer) continue;
    const FaceFill f = face_fill(p, face, part);
    // A radiation row solves for its ghosts (core/radiation_ghosts.hpp), worth threads; the
    // others' are a few loads each. Rows write only their own ghosts.
#pragma omp parallel for schedule(static) if (f.kind == BoundaryKind::Radiation)
    for (long long row = 0; row < f.rows(); ++row) fill_face_row(f, u, f.row_base(row));
  }
}

}  // namespace boundary_fill_detail

// Fills the ghost points of every face of `p` whose condition is not layer, in `u` (the whole
// grid, or a rank's box, whose ghost planes `exchange` fills where it is not null), with `part`
// of the conditions. Temperature faces first set their face points, so that reflections mirror
// the held values; where two faces share an edge point, the later axis (x, y, then z) sets it.
// The axes go in that order, a periodic face's rows spanning the earlier axes' ghosts
// (face_fill), each axis's exchange before its faces. With an exchange, the call is collective
// (the exchange's).
template <typename T>
void fill_boundaries(const Problem& p, T* u, HaloExchange<T>* exchange = nullptr, FillPart part = FillPart::Full) {
  using namespace boundary_fill_detail;
  for (int face = 0; face < kFaces; ++face) {
    if (p.boundaries[face].kind != BoundaryKind::Temperature) continue;
    const FaceFill f = face_fill(p, face, part);
    for (long long row = 0; row < f.rows(); ++row) hold_face_point(f, u, f.row_base(row));
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (exchange) exchange->exchange_across(u, axis);
    fill_axis(p, u, axis, part);
  }
}

}  // namespace heat
