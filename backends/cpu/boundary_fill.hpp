// The physical-boundary fill of a host field (docs/design.md §1, "Boundary"): before each
// application of the Laplacian, the r ghost points beyond each face whose condition is not layer
// are set from the current field, as AMReX fills domain boundaries after FillBoundary. The
// stencil loops then read ghosts like any neighbour and never branch on conditions. In a rank's
// box (parallel/decomposition.hpp) the halo exchange runs between the faces that read within a
// z-plane and the z faces, which read across planes: the ghost planes then hold the neighbours'
// planes as their x and y faces left them, as a single process's z faces find them.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "core/ghost_exchange.hpp"
#include "core/problem.hpp"

namespace heat {

namespace boundary_fill_detail {

// Calls body(base) for the flat index of each point of `axis`'s face planes whose other two
// coordinates lie in [edge, n - edge): at edge = r, the only ghost points a domain point's star
// stencil reads; at 0, the whole plane.
template <typename Body>
void for_face_rows(const Grid& g, int edge, int axis, Body&& body) {
  const int n[3] = {g.nx, g.ny, g.nz};
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
  const int a1 = axis == 0 ? 1 : 0;
  const int a2 = axis == 2 ? 1 : 2;
  for (int j = edge; j < n[a2] - edge; ++j)
    for (int i = edge; i < n[a1] - edge; ++i) body(std::size_t(i) * stride[a1] + std::size_t(j) * stride[a2]);
}

// Sets the face points of every temperature face of `p` in `u`.
template <typename T>
void set_temperature_faces(const Problem& p, T* u) {
  const Grid& g = p.grid;
  const int r = p.radius();
  const int n[3] = {g.nx, g.ny, g.nz};
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryCondition& c = p.boundaries[face];
    if (c.kind != BoundaryKind::Temperature) continue;
    const int axis = face / 2;
    const std::size_t at = std::size_t(face % 2 == 0 ? r : n[axis] - 1 - r) * stride[axis];
    for_face_rows(g, r, axis, [&](std::size_t base) { u[base + at] = T(c.value); });
  }
}

// Fills the ghosts of the faces of `axes` (x = 0, y = 1, z = 2) of `p` whose condition is not
// layer, in `u`.
template <typename T>
void fill_ghosts(const Problem& p, T* u, std::initializer_list<int> axes) {
  const Grid& g = p.grid;
  const int r = p.radius();
  const int n[3] = {g.nx, g.ny, g.nz};
  const double h[3] = {g.hx, g.hy, g.hz};
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
  for (int axis : axes)
    for (int face = 2 * axis; face < 2 * axis + 2; ++face) {
      const BoundaryCondition& c = p.boundaries[face];
      if (c.kind == BoundaryKind::Layer) continue;
      const bool low = face % 2 == 0;
      const int face_point = low ? r : n[axis] - 1 - r;
      const int outward = low ? -1 : 1;
      const int period = n[axis] - 2 * r;
      const std::size_t s = stride[axis];
      if (c.kind == BoundaryKind::Periodic) {
        // Whole planes, as the halo exchange copies them where z wraps across ranks. Period
        // n - 2r: the high face point is the last of the period, not a copy of the low one.
        for_face_rows(g, 0, axis, [&](std::size_t base) {
          for (int m = 1; m <= r; ++m) {
            const int ghost = face_point + outward * m;
            const int wrapped = r + ((ghost - r) % period + period) % period;
            u[base + std::size_t(ghost) * s] = u[base + std::size_t(wrapped) * s];
          }
        });
        continue;
      }
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
            case BoundaryKind::Insulated: value = mirror; break;
            case BoundaryKind::Temperature: value = 2 * c.value - mirror; break;
            default: value = mirror - 2 * m * h[axis] * inward_gradient; break;  // Flux
          }
          u[base + std::size_t(ghost) * s] = T(value);
        }
      });
    }
}

}  // namespace boundary_fill_detail

// Fills the ghost points of every face of `p` whose condition is not layer, in `u` (the whole
// grid, or a rank's box, whose ghost planes `exchange` fills where it is not null). Temperature
// faces first set their face points, so that reflections mirror the held values; where two faces
// share an edge point, the later axis (x, y, then z) sets it. With an exchange, the call is
// collective (the exchange's).
template <typename T>
void fill_boundaries(const Problem& p, T* u, HaloExchange<T>* exchange = nullptr) {
  using namespace boundary_fill_detail;
  set_temperature_faces(p, u);
  fill_ghosts(p, u, {0, 1});
  if (exchange) exchange->exchange(u);
  fill_ghosts(p, u, {2});
}

}  // namespace heat
