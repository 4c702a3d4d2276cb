// The problem a run solves: grid, spacing, order, diffusivity and time step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/boundary_conditions.hpp"

namespace heat {

enum class Precision { Float, Double };

inline const char* precision_name(Precision p) { return p == Precision::Float ? "float" : "double"; }

struct Grid {
  int nx = 0, ny = 0, nz = 0;
  double hx = 1.0, hy = 1.0, hz = 1.0;

  std::size_t points() const { return std::size_t(nx) * std::size_t(ny) * std::size_t(nz); }
  std::size_t index(int i, int j, int k) const {
    return (std::size_t(k) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i);
  }
};

struct HeatSource;  // core/heat_source.hpp
struct Materials;   // core/materials.hpp

struct Problem {
  Grid grid;
  int order = 8;
  double alpha = 1.0;
  double dt = 0.0;
  // alpha = conductivity / heat_capacity; only flux and convective faces read the conductivity.
  double conductivity = 1.0;
  double heat_capacity = 1.0;
  Boundaries boundaries;  // all Layer: the outer r points keep their initial values
  // A steady heat source q (W/m^3) as the backends take it; null: none. Shared, since a problem is
  // copied freely and its source is two fields of the grid.
  std::shared_ptr<const HeatSource> source;
  // K(x) and C(x) as fields on the grid (C u_t = div(K grad u) + q in flux form); null: the
  // constants above, stepped by the constant-coefficient kernels. Shared and immutable, as source.
  // With fields, alpha is the largest K/C, by which --cfl sets dt.
  std::shared_ptr<const Materials> materials;

  int radius() const { return order / 2; }
  // Points that are updated each step: the grid less the layer of width r (a face's ghost points
  // where its condition is not layer).
  std::size_t interior_points() const {
    const auto inner = [&](int n) { return std::size_t(n > 2 * radius() ? n - 2 * radius() : 0); };
    return inner(grid.nx) * inner(grid.ny) * inner(grid.nz);
  }
  bool in_interior(int i, int j, int k) const {
    const int r = radius();
    return i >= r && i < grid.nx - r && j >= r && j < grid.ny - r && k >= r && k < grid.nz - r;
  }
};

// S = 1/hx^2 + 1/hy^2 + 1/hz^2, so that dt = cfl / (alpha * S).
inline double inverse_h2_sum(const Grid& g) {
  return 1.0 / (g.hx * g.hx) + 1.0 / (g.hy * g.hy) + 1.0 / (g.hz * g.hz);
}
inline double dt_from_cfl(const Grid& g, double alpha, double cfl) { return cfl / (alpha * inverse_h2_sum(g)); }
inline double cfl_from_dt(const Grid& g, double alpha, double dt) { return dt * alpha * inverse_h2_sum(g); }

}  // namespace heat
