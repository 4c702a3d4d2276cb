#include "check/analytic.hpp"

#include <algorithm>
#include <cmath>

#include "stencils/stencil.hpp"

namespace heat {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

double FourierMode::value(const Grid& g, int i, int j, int k) const {
  return std::cos(wavenumber[0] * (i * g.hx) + phase[0]) * std::cos(wavenumber[1] * (j * g.hy) + phase[1]) *
         std::cos(wavenumber[2] * (k * g.hz) + phase[2]);
}

double FourierMode::wavenumber_squared() const {
  return wavenumber[0] * wavenumber[0] + wavenumber[1] * wavenumber[1] + wavenumber[2] * wavenumber[2];
}

FourierMode mode_of_sine_field(const Grid& g, const std::array<int, 3>& modes) {
  const double length[3] = {(g.nx - 1) * g.hx, (g.ny - 1) * g.hy, (g.nz - 1) * g.hz};
  FourierMode m;
  for (int a = 0; a < 3; ++a) {
    m.wavenumber[a] = modes[a] * kPi / length[a];
    m.phase[a] = -0.5 * kPi;  // cos(x - pi/2) = sin(x)
  }
  return m;
}

Field<double> mode_field(const Grid& g, const FourierMode& mode) {
  Field<double> u(g);
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) u(i, j, k) = mode.value(g, i, j, k);
  return u;
}

double stencil_symbol_1d(int order, double theta) {
  const int radius = order / 2;
  double sum = stencil_coefficient(radius, 0);
  for (int k = 1; k <= radius; ++k) sum += 2.0 * stencil_coefficient(radius, k) * std::cos(k * theta);
  return sum;
}

double discrete_symbol(const Grid& g, int order, const FourierMode& mode) {
  const double h[3] = {g.hx, g.hy, g.hz};
  double lambda = 0;
  for (int a = 0; a < 3; ++a) lambda += stencil_symbol_1d(order, mode.wavenumber[a] * h[a]) / (h[a] * h[a]);
  return lambda;
}

double rk4_amplification(double z) { return 1.0 + z * (1.0 + z * (0.5 + z * (1.0 / 6.0 + z / 24.0))); }

double discrete_decay(const Problem& p, const FourierMode& mode, int steps) {
  const double z = p.dt * p.alpha * discrete_symbol(p.grid, p.order, mode);
  return std::pow(rk4_amplification(z), steps);
}

double semi_discrete_decay(const Problem& p, const FourierMode& mode, double time) {
  return std::exp(p.alpha * discrete_symbol(p.grid, p.order, mode) * time);
}

double continuous_decay(double alpha, const FourierMode& mode, double time) {
  return std::exp(-alpha * mode.wavenumber_squared() * time);
}

bool in_exact_region(const Grid& g, int order, int steps, int i, int j, int k) {
  const int margin = exact_region_margin(order, steps);
  const auto inside = [margin](int index, int n) { return index >= margin && n - 1 - index >= margin; };
  return inside(i, g.nx) && inside(j, g.ny) && inside(k, g.nz);
}

template <typename T>
double mode_decay_error(const Field<T>& u, const Field<double>& u0, int order, int steps, double decay) {
  Grid g;
  g.nx = u0.nx(), g.ny = u0.ny(), g.nz = u0.nz();
  double max_error = 0, max_mode = 0;
  bool any = false;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        if (!in_exact_region(g, order, steps, i, j, k)) continue;
        any = true;
        // A NaN must not vanish in max(), so it is turned into an infinite error.
        const double err = std::fabs(double(u(i, j, k)) - decay * u0(i, j, k));
        max_error = std::isnan(err) ? INFINITY : std::max(max_error, err);
        max_mode = std::max(max_mode, std::fabs(u0(i, j, k)));
      }
  if (!any) return -1;
  return max_mode > 0 ? max_error / max_mode : max_error;
}

template double mode_decay_error(const Field<float>&, const Field<double>&, int, int, double);
template double mode_decay_error(const Field<double>&, const Field<double>&, int, int, double);

}  // namespace heat
