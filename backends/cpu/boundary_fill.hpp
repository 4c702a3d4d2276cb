// The physical-boundary fill of a host field (docs/design.md §1, "Boundary"): before each
// application of the Laplacian, the r ghost points beyond each face whose condition is not layer
// are set from the current field, as AMReX fills domain boundaries after FillBoundary. The
// stencil loops then read ghosts like any neighbour and never branch on conditions.
#pragma once

#include <cstddef>

#include "core/heat_source.hpp"
#include "core/problem.hpp"

namespace heat {

namespace boundary_fill_detail {

// Calls body(base) for the flat index of each point of `axis`'s face planes whose other two
// coordinates lie in [r, n - r): the only ghost points a domain point's star stencil reads.
template <typename Body>
void for_face_rows(const Grid& g, int r, int axis, Body&& body) {
  const int n[3] = {g.nx, g.ny, g.nz};
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
  const int a1 = axis == 0 ? 1 : 0;
  const int a2 = axis == 2 ? 1 : 2;
  for (int j = r; j < n[a2] - r; ++j)
    for (int i = r; i < n[a1] - r; ++i) body(std::size_t(i) * stride[a1] + std::size_t(j) * stride[a2]);
}

}  // namespace boundary_fill_detail

// Fills the ghost points of every face of `p` whose condition is not layer, in `u` (the whole
// grid). Temperature faces first set their face points, so the later axes' reflections mirror the
// held values; where two faces share an edge point, the later axis (x, y, then z) sets it.
// With a source, a temperature face's reflection keeps the curvature the source gives the field
// there: u_t = 0 and u_yy = u_zz = 0 on the face leave u_xx = -q/K, so the ghost is
// 2T - u[f+m] - (m h)^2 q/K, which a quadratic meets exactly (a uniform source's steady parabola).
template <typename T>
void fill_boundaries(const Problem& p, T* u) {
  using namespace boundary_fill_detail;
  const Grid& g = p.grid;
  const int r = p.radius();
  const int n[3] = {g.nx, g.ny, g.nz};
  const double h[3] = {g.hx, g.hy, g.hz};
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryCondition& c = p.boundaries[face];
    if (c.kind != BoundaryKind::Temperature) continue;
    const int axis = face / 2;
    const std::size_t at = std::size_t(face % 2 == 0 ? r : n[axis] - 1 - r) * stride[axis];
    for_face_rows(g, r, axis, [&](std::size_t base) { u[base + at] = T(c.value); });
  }
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryCondition& c = p.boundaries[face];
    if (c.kind == BoundaryKind::Layer) continue;
    const int axis = face / 2;
    const bool low = face % 2 == 0;
    const int face_point = low ? r : n[axis] - 1 - r;
    const int outward = low ? -1 : 1;
    const int period = n[axis] - 2 * r;
    const std::size_t s = stride[axis];
    const double* rate = p.source ? p.source->rate.data() : nullptr;  // q/C: q/K = rate/alpha
    const ConvectiveWeights convective =
        c.kind == BoundaryKind::Convective ? convective_ghost_weights(r, c.value / p.conductivity * h[axis])
                                           : ConvectiveWeights{};
    for_face_rows(g, r, axis, [&](std::size_t base) {
      if (c.kind == BoundaryKind::Convective) {
        for (int m = 1; m <= r; ++m) {
          double value = c.t_inf;
          for (int j = 0; j <= r; ++j)
            value += convective[m - 1][j] * (double(u[base + std::size_t(face_point - outward * j) * s]) - c.t_inf);
          u[base + std::size_t(face_point + outward * m) * s] = T(value);
        }
        return;
      }
      // The inward gradient dT/dn_in the face's heat flux sets: heat into the domain is -K dT/dn_in.
      double inward_gradient = 0;
      if (c.kind == BoundaryKind::Flux) inward_gradient = -c.value / p.conductivity;
      for (int m = 1; m <= r; ++m) {
        const int ghost = face_point + outward * m;
        const double mirror = double(u[base + std::size_t(face_point - outward * m) * s]);
        double value = 0;
        switch (c.kind) {
          case BoundaryKind::Periodic: {
            // Period n - 2r: the high face point is the last of the period, not a copy of the low one.
            const int wrapped = r + ((ghost - r) % period + period) % period;
            value = double(u[base + std::size_t(wrapped) * s]);
            break;
          }
          case BoundaryKind::Insulated: value = mirror; break;
          case BoundaryKind::Temperature: {
            const double curvature = rate ? -rate[base + std::size_t(face_point) * s] / p.alpha : 0.0;
            value = 2 * c.value - mirror + double(m * m) * h[axis] * h[axis] * curvature;
            break;
          }
          default: value = mirror - 2 * m * h[axis] * inward_gradient; break;  // Flux
        }
        u[base + std::size_t(ghost) * s] = T(value);
      }
    });
  }
}

}  // namespace heat
