#include "core/boundary_stability.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "stencils/stencil.hpp"

namespace heat {
namespace {

// Bounds that differ from the symbol's by rounding alone do not lower the limit.
constexpr double kRoundingMargin = 1e-12;

}  // namespace

double face_heat_transfer(const BoundaryCondition& c, double hottest) {
  if (c.kind == BoundaryKind::Convective) return c.value;
  if (c.kind != BoundaryKind::Radiation) return 0;
  const double t = std::max(hottest, c.t_inf);
  return 4 * c.value * kStefanBoltzmann * t * t * t;
}

double face_eigenvalue_bound(int order, const BoundaryCondition& c, double h, double conductivity, double hottest) {
  const double symbol = symbol_max_magnitude(order);
  if (c.kind != BoundaryKind::Convective && c.kind != BoundaryKind::Radiation) return symbol;
  const int r = order / 2;
  const ConvectiveWeights ghost = convective_ghost_weights(r, face_heat_transfer(c, hottest) / conductivity * h);
  double bound = symbol;
  // Row d (d points inward of the face point) over columns 0 .. 2r-1 counted from the face point.
  for (int d = 0; d < r; ++d) {
    std::array<double, 2 * kMaxRadius> row{};
    row[d] += stencil_coefficient(r, 0);
    for (int k = 1; k <= r; ++k) {
      const double ck = stencil_coefficient(r, k);
      row[d + k] += ck;
      if (d - k >= 0) {
        row[d - k] += ck;
        continue;
      }
      for (int j = 0; j <= r; ++j) row[j] += ck * ghost[k - d - 1][j];
    }
    double sum = 0;
    for (double a : row) sum += std::abs(a);
    bound = std::max(bound, sum);
  }
  return bound;
}

int face_limiting_cfl(const Problem& p, double hottest) {
  const double h[3] = {p.grid.hx, p.grid.hy, p.grid.hz};
  const double symbol = symbol_max_magnitude(p.order);
  int limiting = -1;
  double largest = symbol * (1 + kRoundingMargin);
  for (int face = 0; face < kFaces; ++face) {
    const double b = face_eigenvalue_bound(p.order, p.boundaries[face], h[face / 2], p.conductivity, hottest);
    if (b > largest) {
      largest = b;
      limiting = face;
    }
  }
  return limiting;
}

double stable_cfl_limit(const Problem& p, double hottest) {
  if (face_limiting_cfl(p, hottest) < 0) return max_stable_cfl(p.order);
  const double h[3] = {p.grid.hx, p.grid.hy, p.grid.hz};
  double weighted = 0;  // sum over axes of bound / h^2
  for (int axis = 0; axis < 3; ++axis) {
    const double low = face_eigenvalue_bound(p.order, p.boundaries[2 * axis], h[axis], p.conductivity, hottest);
    const double high = face_eigenvalue_bound(p.order, p.boundaries[2 * axis + 1], h[axis], p.conductivity, hottest);
    weighted += std::max(low, high) / (h[axis] * h[axis]);
  }
  return kRk4RealStabilityLimit * inverse_h2_sum(p.grid) / weighted;
}

}  // namespace heat
