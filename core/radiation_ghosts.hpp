// A radiation face's ghosts (docs/design.md §1, "Boundary"): the condition dT/dn_in = G(T),
// G(T) = c (T^4 - T_INF^4) with c = EPS sigma / K, linearised about the row's current face value
// T_f (Newton: G(T_f) + G'(T_f) (T - T_f), G' = 4 c T_f^3 = h_rad / K) and closed as a convective
// face is: with w = u - T_f and x inward in units of h, the polynomial q of degree 2r through w at
// the face point and the r points inward of it with q' = h G(T_f) + b q and q^(2i+1) = b q^(2i)
// (0 < i < r) at the face, b = h G'(T_f). The first meets the condition exactly at the current
// face value; the others are what the heat equation makes of the linearised one
// (convective_ghost_weights), true of the nonlinear condition at i = 1 where the face's value does
// not vary along it (G'' |grad_t T|^2 is dropped), and above that up to terms in G''. At r = 1 it
// is the flux closure with Q from the face value: u[f+1] - 2 h G(T_f).
#pragma once

#include "stencils/host_device.hpp"

namespace heat {

constexpr int kMaxRadiationRadius = 4;

// The ghosts m = 1..radius into ghosts[m-1] from the face value `face` and `inward[j-1]` = u at
// j points inward (j = 1..radius); `coefficient` c = EPS sigma / K, `spacing` h along the axis.
// One r x r solve a row: about r^3/3 + 3 r^2 multiply-adds.
HD inline void radiation_ghosts(int radius, double coefficient, double t_inf, double spacing, double face,
                                const double* inward, double* ghosts) {
  const double face2 = face * face, t_inf2 = t_inf * t_inf;
  const double step = spacing * coefficient * (face2 * face2 - t_inf2 * t_inf2);  // h G(T_f)
  const double b = 4 * spacing * coefficient * face2 * face;                       // h G'(T_f)
  // q = step x + sum_{i=1..r} a_i (x^2i + [i < r] b x^(2i+1) / (2i+1)), of degree 2r: row j - 1
  // fits q(j) = w_j.
  const auto odd_part = [&](int i, double x) { return i < radius ? b * x / (2 * i + 1) : 0.0; };
  double rows[kMaxRadiationRadius][kMaxRadiationRadius + 1];
  for (int j = 1; j <= radius; ++j) {
    double power = double(j) * j;  // j^2i
    for (int i = 1; i <= radius; ++i, power *= double(j) * j) rows[j - 1][i - 1] = power * (1 + odd_part(i, j));
    rows[j - 1][radius] = inward[j - 1] - face - step * j;
  }
  // Gaussian elimination with partial pivoting, then back substitution into rows[i][radius].
  for (int col = 0; col < radius; ++col) {
    int pivot = col;
    for (int row = col + 1; row < radius; ++row)
      if ((rows[row][col] < 0 ? -rows[row][col] : rows[row][col]) >
          (rows[pivot][col] < 0 ? -rows[pivot][col] : rows[pivot][col]))
        pivot = row;
    if (pivot != col)
      for (int k = 0; k <= radius; ++k) {
        const double held = rows[col][k];
        rows[col][k] = rows[pivot][k];
        rows[pivot][k] = held;
      }
    for (int row = col + 1; row < radius; ++row) {
      const double factor = rows[row][col] / rows[col][col];
      for (int k = col; k <= radius; ++k) rows[row][k] -= factor * rows[col][k];
    }
  }
  double a[kMaxRadiationRadius];
  for (int i = radius - 1; i >= 0; --i) {
    double rest = rows[i][radius];
    for (int k = i + 1; k < radius; ++k) rest -= rows[i][k] * a[k];
    a[i] = rest / rows[i][i];
  }
  // q(-m): the even powers keep their sign, the odd ones change it.
  for (int m = 1; m <= radius; ++m) {
    double ghost = face - step * m;
    double power = double(m) * m;
    for (int i = 1; i <= radius; ++i, power *= double(m) * m) ghost += a[i - 1] * power * (1 - odd_part(i, m));
    ghosts[m - 1] = ghost;
  }
}

}  // namespace heat
