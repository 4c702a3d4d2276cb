// The finite-difference math of heatrk4 in space, written once for the host and the device (RK4 in
// time is rk4_forms.hpp). Every backend gathers neighbours its own way and then calls these
// functions, so the order of floating-point operations (and so the rounding) is the same everywhere.
#pragma once

#include <cstddef>

#include "stencils/host_device.hpp"

namespace heat {

constexpr int kMaxRadius = 4;

// Central second-derivative coefficients c_0..c_r of docs/design.md §1, in double.
// Row r-1 holds the stencil of radius r (order 2r); unused entries are zero.
HD constexpr double stencil_coefficient(int radius, int k) {
  constexpr double table[kMaxRadius][kMaxRadius + 1] = {
      {-2.0, 1.0, 0.0, 0.0, 0.0},
      {-5.0 / 2.0, 4.0 / 3.0, -1.0 / 12.0, 0.0, 0.0},
      {-49.0 / 18.0, 3.0 / 2.0, -3.0 / 20.0, 1.0 / 90.0, 0.0},
      {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0},
  };
  return table[radius - 1][k];
}

constexpr bool is_supported_order(int order) {
  return order == 2 || order == 4 || order == 6 || order == 8;
}

// Largest magnitude of the 1D stencil's symbol, max over theta of |sum c_k 2cos(k theta) + c0|
// (attained at theta = pi). RK4 is stable while dt*alpha*S*m_p stays inside its real interval.
constexpr double symbol_max_magnitude(int order) {
  double sum = 0.0;
  const int radius = order / 2;
  for (int k = 0; k <= radius; ++k) {
    const double sign = (k % 2 == 0) ? 1.0 : -1.0;
    sum += (k == 0 ? 1.0 : 2.0) * sign * stencil_coefficient(radius, k);
  }
  return sum < 0 ? -sum : sum;
}

// Where RK4's stability polynomial crosses |P(z)| = 1 on the negative real axis.
constexpr double kRk4RealStabilityLimit = 2.785293563405282;

// The largest stable cfl (dt*alpha*S) for an order: 0.6963, 0.5222, 0.4608, 0.4284.
constexpr double max_stable_cfl(int order) {
  return kRk4RealStabilityLimit / symbol_max_magnitude(order);
}

// alpha * c_k / h_axis^2 for one radius, in the working precision. The centre weight
// folds the three axes' c_0 together so one multiply handles it.
template <int R, typename T>
struct StencilWeights {
  static constexpr int kRadius = R;
  T center;
  T axis[3][R];  // axis[a][k-1] multiplies u[+k] + u[-k] along axis a (0 = x, 1 = y, 2 = z)
};

template <int R, typename T>
StencilWeights<R, T> make_weights(double alpha, double hx, double hy, double hz) {
  const double inv_h2[3] = {1.0 / (hx * hx), 1.0 / (hy * hy), 1.0 / (hz * hz)};
  StencilWeights<R, T> w{};
  const double c0 = stencil_coefficient(R, 0);
  w.center = static_cast<T>(alpha * c0 * (inv_h2[0] + inv_h2[1] + inv_h2[2]));
  for (int a = 0; a < 3; ++a)
    for (int k = 1; k <= R; ++k) w.axis[a][k - 1] = static_cast<T>(alpha * stencil_coefficient(R, k) * inv_h2[a]);
  return w;
}

// alpha * Lap(u) at one point. pair_sum(axis, k) returns u[+k] + u[-k] along that axis.
// The summation order is fixed here, so every backend rounds the same way.
template <int R, typename T, typename PairSum>
HD inline T apply_stencil(const StencilWeights<R, T>& w, T center_value, PairSum&& pair_sum) {
  T acc = w.center * center_value;
HEAT_UNROLL
  for (int k = 1; k <= R; ++k) {
    acc += w.axis[0][k - 1] * pair_sum(0, k);
    acc += w.axis[1][k - 1] * pair_sum(1, k);
    acc += w.axis[2][k - 1] * pair_sum(2, k);
  }
  return acc;
}

}  // namespace heat
