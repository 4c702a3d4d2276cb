// Exact solutions that the solver must reproduce: a Fourier mode's discrete evolution and its
// continuous limit.
//
// On an unbounded lattice u0 = prod_a cos(k_a x_a + phase_a) is an eigenvector of the order-p
// Laplacian with eigenvalue lambda (the stencil's symbol), so n RK4 steps multiply it by
// P(dt*alpha*lambda)^n exactly, P the RK4 polynomial. Our grid is bounded and its boundary layer
// keeps the initial mode instead of decaying with it; that difference reaches r points further
// in per stage, 4r per step. Points at least 4rn from every face have never seen it, so there
// the discrete solution is exact to rounding.
#pragma once

#include <array>

#include "core/field.hpp"
#include "core/problem.hpp"

namespace heat {

// u0(x) = prod over axes of cos(wavenumber_a * x_a + phase_a), x_a = index * h_a.
struct FourierMode {
  std::array<double, 3> wavenumber{};  // radians per unit length
  std::array<double, 3> phase{};

  double value(const Grid& g, int i, int j, int k) const;
  double wavenumber_squared() const;
};

// The mode that sine_field(g, modes) samples: sin(m_a * pi * x_a / L_a), L_a = (n_a - 1) h_a.
FourierMode mode_of_sine_field(const Grid& g, const std::array<int, 3>& modes);

Field<double> mode_field(const Grid& g, const FourierMode& mode);

// c0 + sum_k 2 c_k cos(k theta): the 1D stencil applied to cos(theta*i + phase), divided by it.
double stencil_symbol_1d(int order, double theta);
// lambda: alpha*Lap(u0) = alpha*lambda*u0 on the unbounded lattice (lambda <= 0).
double discrete_symbol(const Grid& g, int order, const FourierMode& mode);

// P(z) = 1 + z + z^2/2 + z^3/6 + z^4/24: one classical RK4 step of u' = z u / dt.
double rk4_amplification(double z);

// The factors that multiply u0 at the points where they hold.
// Fully discrete: P(dt*alpha*lambda)^steps (the solver, to rounding, away from the faces).
double discrete_decay(const Problem& p, const FourierMode& mode, int steps);
// Exact in time, discrete in space: exp(alpha*lambda*t). Its gap to discrete_decay is RK4's error.
double semi_discrete_decay(const Problem& p, const FourierMode& mode, double time);
// The heat equation itself: exp(-alpha*|k|^2*t). Its gap to semi_discrete_decay is the stencil's.
double continuous_decay(double alpha, const FourierMode& mode, double time);

// Points whose index distance from every face is at least this are exact after `steps` steps.
constexpr int exact_region_margin(int order, int steps) { return 4 * (order / 2) * steps; }
bool in_exact_region(const Grid& g, int order, int steps, int i, int j, int k);

// max |u - decay*u0| over the exact region, divided by max |u0| there, so that the number is the
// error of the decay factor whatever part of the mode the region happens to sample.
// Returns -1 when the region is empty (the grid is too small for that many steps).
template <typename T>
double mode_decay_error(const Field<T>& u, const Field<double>& u0, int order, int steps, double decay);

}  // namespace heat
