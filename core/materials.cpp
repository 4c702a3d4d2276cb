#include "core/materials.hpp"

#include <algorithm>
#include <cmath>

#include "core/boundary_ghosts.hpp"
#include "core/boundary_stability.hpp"
#include "core/dispatch.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "stencils/material_stencil.hpp"

namespace heat {

void require_positive_everywhere(const Field<double>& f, const Grid& g, const std::string& what) {
  const double* v = f.data();
  for (std::size_t n = 0; n < f.size(); ++n) {
    if (v[n] > 0 && std::isfinite(v[n])) continue;
    const std::size_t nx = std::size_t(g.nx), ny = std::size_t(g.ny);
    throw InputError(what + " holds " + number_text(v[n]) + " at (" + std::to_string(n % nx) + "," +
                     std::to_string(n / nx % ny) + "," + std::to_string(n / (nx * ny)) +
                     "): a conductivity or heat capacity must be a positive number at every point");
  }
}

void set_convective_weights(const Problem& p, Materials& m) {
  const double h[3] = {p.grid.hx, p.grid.hy, p.grid.hz};
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryCondition& c = p.boundaries[face];
    std::vector<double>& weights = m.convective_weights[face];
    weights.clear();
    if (c.kind != BoundaryKind::Convective) continue;
    Problem layout = p;  // the face's rows, without the weights being set
    layout.materials = nullptr;
    const FaceFill f = face_fill(layout, face, FillPart::Homogeneous);
    weights.assign(std::size_t(f.rows()) * kConvectiveRowWeights, 0.0);
    for (long long row = 0; row < f.rows(); ++row) {
      const double k = m.conductivity.data()[f.at(f.row_base(row), f.face_point)];
      const ConvectiveWeights w = convective_ghost_weights(f.radius, c.value / k * h[f.axis]);
      double* to = weights.data() + row * kConvectiveRowWeights;
      for (int i = 0; i < f.radius; ++i)
        for (int j = 0; j <= f.radius; ++j) to[i * (kMaxConvectiveRadius + 1) + j] = w[i][j];
    }
  }
}

ValueRange stepped_range(const Problem& p, const Field<double>& f) {
  const Grid& g = p.grid;
  const int r = p.radius();
  double low = f.data()[g.index(r, r, r)], high = low;
#pragma omp parallel for collapse(2) reduction(min : low) reduction(max : high)
  for (int k = r; k < g.nz - r; ++k)
    for (int j = r; j < g.ny - r; ++j)
      for (int i = r; i < g.nx - r; ++i) {
        const double v = f.data()[g.index(i, j, k)];
        low = std::min(low, v);
        high = std::max(high, v);
      }
  return {low, high};
}

double largest_diffusivity(const Problem& p, const Materials& m) {
  const Grid& g = p.grid;
  const int r = p.radius();
  double largest = 0;
#pragma omp parallel for collapse(2) reduction(max : largest)
  for (int k = r; k < g.nz - r; ++k)
    for (int j = r; j < g.ny - r; ++j)
      for (int i = r; i < g.nx - r; ++i) {
        const std::size_t n = g.index(i, j, k);
        largest = std::max(largest, m.conductivity.data()[n] / m.heat_capacity.data()[n]);
      }
  return largest;
}

namespace {

// A convective face's rows and the factor by which each raises the eigenvalue bound of the r
// points beside the face along its axis: the constant stencil's bound at the row's Biot number
// (H h over K at its face point) over the symbol's.
struct ConvectiveRows {
  FaceFill fill;
  std::vector<double> factor;
};

std::array<ConvectiveRows, kFaces> convective_rows(const Problem& p) {
  const double h[3] = {p.grid.hx, p.grid.hy, p.grid.hz};
  Problem layout = p;
  layout.materials = nullptr;
  std::array<ConvectiveRows, kFaces> rows;
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryCondition& c = p.boundaries[face];
    if (c.kind != BoundaryKind::Convective) continue;
    ConvectiveRows& face_rows = rows[face];
    face_rows.fill = face_fill(layout, face, FillPart::Homogeneous);
    const FaceFill& f = face_rows.fill;
    face_rows.factor.resize(std::size_t(f.rows()));
    for (long long row = 0; row < f.rows(); ++row) {
      const double k = p.materials->conductivity.data()[f.at(f.row_base(row), f.face_point)];
      face_rows.factor[std::size_t(row)] =
          face_eigenvalue_bound(p.order, c, h[f.axis], k) / symbol_max_magnitude(p.order);
    }
  }
  return rows;
}

}  // namespace

double material_cfl_limit(const Problem& p) {
  const Materials& m = *p.materials;
  const Grid& g = p.grid;
  const long long stride[3] = {1, g.nx, (long long)g.nx * g.ny};
  const double h[3] = {g.hx, g.hy, g.hz};
  const std::array<ConvectiveRows, kFaces> convective = convective_rows(p);
  const int r = p.radius();
  const double* K = m.conductivity.data();
  double largest = 0;
  with_radius(p.order, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
#pragma omp parallel for collapse(2) reduction(max : largest)
    for (int k = r; k < g.nz - r; ++k)
      for (int j = r; j < g.ny - r; ++j)
        for (int i = r; i < g.nx - r; ++i) {
          const long long n = (long long)g.index(i, j, k);
          const int along[3] = {i, j, k};
          double bound = 0;
          for (int axis = 0; axis < 3; ++axis) {
            // Beside a convective face, its row's factor.
            double factor = 1;
            for (int face = 2 * axis; face < 2 * axis + 2; ++face) {
              const ConvectiveRows& rows = convective[std::size_t(face)];
              if (rows.factor.empty() || std::abs(along[axis] - rows.fill.face_point) >= r) continue;
              const long long base = n - (long long)along[axis] * stride[axis];
              factor = std::max(factor, rows.factor[std::size_t(rows.fill.row_index(base))]);
            }
            // K by value: clang's OpenMP regions cannot reach the enclosing function's locals
            // from a lambda nested this deep.
            const auto k_at = [K, &stride, axis](long long from, int m) { return K[from + m * stride[axis]]; };
            double centre = 0, off = 0;
            for (int d = 1; d <= R; ++d) {
              const auto pair = [&](long long lo) {
                return pair_conductance<R, double>(
                    d, [&](int m) { return k_at(lo, m); }, [&](int m) { return 1.0 / k_at(lo, m); });
              };
              const double both = pair(n) + pair(n - d * stride[axis]);
              centre += stencil_coefficient(R, d) * both;
              off += std::abs(stencil_coefficient(R, d)) * both;
            }
            bound += factor * (std::abs(centre) + off) / (h[axis] * h[axis]);
          }
          largest = std::max(largest, bound / m.heat_capacity.data()[n]);
        }
  });
  return kRk4RealStabilityLimit * largest_diffusivity(p, m) * inverse_h2_sum(g) / largest;
}

}  // namespace heat
