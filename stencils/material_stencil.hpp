// div(K grad u) in flux form, for K that varies in space (docs/design.md §1, "Materials"), written
// once for every backend as stencil.hpp's constant-coefficient Laplacian is.
//
// Along each axis, each pair of points k apart (k = 1..r) exchanges heat through a conductance
// M times the central coefficient c_k / h^2:
//
//   div(K grad u)_p = sum_axes sum_k c_k / h^2 [M(p, p+k) (u[p+k] - u[p]) + M(p-k, p) (u[p-k] - u[p])]
//
// Each pair's term enters its two points with opposite signs, so the sum over a closed body is
// zero: heat is conserved to rounding. With M the arithmetic mean (K_lo + K_hi)/2 this is
// (1/2)[D(K u) + K D(u) - u D(K)], D the constant stencil of order 2r, which is (K u')' to order
// 2r where K is smooth; where K is constant it is K D(u). But the mean of the two ends ignores
// what lies between them: a wide pair would jump over a thin insulator, with a negative c_k, and
// the operator would gain positive eigenvalues. So M starts from the pair's series conductance,
// the points between taken as resistors in series (trapezoid weights):
//
//   S = k / (1/(2 K_lo) + sum_{0<m<k} 1/K_{lo+m} + 1/(2 K_hi)),   A = (K_lo + K_hi)/2,
//   delta = 1 - S/A,   M = S / (S/A + delta^r)  (= S / (1 - delta + delta^r)).
//
// Where K is smooth, delta = O(h^2) and M = A (1 + O(h^2r)): the order 2r stays. Across a sharp
// jump delta -> 1 and M -> S, the series conductance: at order 2 (r = 1, k = 1) M is S, the
// harmonic mean of the two points, which keeps the flux continuous across an interface on a face
// and reproduces a layered wall's piecewise-linear profile exactly. Every M is positive and lies
// between S and A's neighbourhood (1 - delta + delta^r >= 3/4 at r = 2, 0.53 at r = 4).
#pragma once

#include "stencils/host_device.hpp"
#include "stencils/stencil.hpp"

namespace heat {

// c_k / h_axis^2 for one radius, in the working precision.
template <int R, typename T>
struct MaterialWeights {
  T axis[3][R];
};

template <int R, typename T>
MaterialWeights<R, T> make_material_weights(double hx, double hy, double hz) {
  const double inv_h2[3] = {1.0 / (hx * hx), 1.0 / (hy * hy), 1.0 / (hz * hz)};
  MaterialWeights<R, T> w{};
  for (int a = 0; a < 3; ++a)
    for (int k = 1; k <= R; ++k) w.axis[a][k - 1] = static_cast<T>(stencil_coefficient(R, k) * inv_h2[a]);
  return w;
}

// M of the pair (lo, lo + k) from K and 1/K along its axis: k_at(m) and inverse_at(m) for m = 0..k
// from lo. Both points of a pair compute it from lo, so they agree to the bit.
template <int R, typename T, typename KAt, typename InverseAt>
HD inline T pair_conductance(int k, KAt&& k_at, InverseAt&& inverse_at) {
  T resistance = T(0.5) * (inverse_at(0) + inverse_at(k));
  for (int m = 1; m < k; ++m) resistance += inverse_at(m);
  const T series = T(k) / resistance;
  if (R == 1) return series;
  const T ratio = series / (T(0.5) * (k_at(0) + k_at(k)));  // S/A
  const T delta = T(1) - ratio;
  T power = delta;
  HEAT_UNROLL
  for (int i = 1; i < R; ++i) power *= delta;
  return series / (ratio + power);
}

// div(K grad u) at one point from its pairs' conductances: u_at(axis, m) gives u at m points from
// the point along the axis (m from -R to R), conductance_at(axis, k, lo) the M of the pair k apart
// whose lower point lies lo points from the point (lo = 0: the pair above, -k: the pair below).
// Every backend sums in this order, however it comes by M (computed where read, or stored).
template <int R, typename T, typename UAt, typename ConductanceAt>
HD inline T apply_conductance_stencil(const MaterialWeights<R, T>& w, T center, UAt&& u_at,
                                      ConductanceAt&& conductance_at) {
  T acc = T(0);
  HEAT_UNROLL
  for (int axis = 0; axis < 3; ++axis) {
    HEAT_UNROLL
    for (int k = 1; k <= R; ++k) {
      const T up = conductance_at(axis, k, 0);
      const T down = conductance_at(axis, k, -k);
      acc += w.axis[axis][k - 1] * (up * (u_at(axis, k) - center) + down * (u_at(axis, -k) - center));
    }
  }
  return acc;
}

// div(K grad u) at one point, each pair's M computed from K and 1/K: k_at(axis, m) and
// inverse_at(axis, m) give them at m points from the point along the axis (m from -R to R).
template <int R, typename T, typename UAt, typename KAt, typename InverseAt>
HD inline T apply_material_stencil(const MaterialWeights<R, T>& w, T center, UAt&& u_at, KAt&& k_at,
                                   InverseAt&& inverse_at) {
  return apply_conductance_stencil<R, T>(w, center, u_at, [&](int axis, int k, int lo) {
    return pair_conductance<R, T>(
        k, [&](int m) { return k_at(axis, lo + m); }, [&](int m) { return inverse_at(axis, lo + m); });
  });
}

}  // namespace heat
