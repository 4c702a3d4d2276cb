// The trapezoid rule over the body, the points a run steps ([r, n-1-r] on each axis): the
// quadrature the faces' closures conserve exactly (docs/design.md §1, "Boundary"), by which the
// total heat C * sum(w u) dV, a source's power sum(w q) dV and the monitors' mean are counted.
#pragma once

#include "core/field.hpp"
#include "core/problem.hpp"

namespace heat {

// The weight of point i of an axis of n points whose faces are `low` and `high`: 1/2 at the face
// point of a reflecting face (every condition but layer and periodic), else 1 (a layer face's
// points beyond the body are data, a periodic axis has no end).
inline double trapezoid_weight(int i, int n, int radius, const BoundaryCondition& low, const BoundaryCondition& high) {
  const auto reflects = [](const BoundaryCondition& c) {
    return c.kind != BoundaryKind::Layer && c.kind != BoundaryKind::Periodic;
  };
  return (i == radius && reflects(low)) || (i == n - 1 - radius && reflects(high)) ? 0.5 : 1.0;
}

// trapezoid_weight of point i along `axis` (0 = x) of p.
inline double body_weight(const Problem& p, int axis, int i) {
  const int n[3] = {p.grid.nx, p.grid.ny, p.grid.nz};
  return trapezoid_weight(i, n[axis], p.radius(), p.boundaries[2 * axis], p.boundaries[2 * axis + 1]);
}

// sum(w f) hx hy hz over the body, the same sum for any thread count.
double body_integral(const Problem& p, const Field<double>& f);

}  // namespace heat
