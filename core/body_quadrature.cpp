#include "core/body_quadrature.hpp"

#include <vector>

namespace heat {

double body_integral(const Problem& p, const Field<double>& f) {
  const int r = p.radius();
  const int n[3] = {p.grid.nx, p.grid.ny, p.grid.nz};
  // Plane by plane, then the planes in order: the same sum for any thread count.
  std::vector<double> planes(std::size_t(n[2] > 2 * r ? n[2] - 2 * r : 0), 0.0);
#pragma omp parallel for schedule(static)
  for (int k = r; k < n[2] - r; ++k) {
    double plane = 0;
    for (int j = r; j < n[1] - r; ++j)
      for (int i = r; i < n[0] - r; ++i) plane += body_weight(p, 0, i) * body_weight(p, 1, j) * f(i, j, k);
    planes[std::size_t(k - r)] = body_weight(p, 2, k) * plane;
  }
  double sum = 0;
  for (double plane : planes) sum += plane;
  return sum * p.grid.hx * p.grid.hy * p.grid.hz;
}

}  // namespace heat
