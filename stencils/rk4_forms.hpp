// RK4 in time, in every form a backend runs, written once for the host and the device
// (docs/design.md §1 and §5); the stencil each form applies is stencil.hpp's. Two families:
//
// - The stage form: k_s = a*Lap(u + c_s dt k_{s-1}) and u += dt/6 (k1 + 2k2 + 2k3 + k4), point by
//   point (cpu_reference, naive; reuse's linear form, backends/cuda/linear_stages.cuh, uses its
//   constants and combination).
// - The pass form: the step as four passes of one shape, out = base + c * a*Lap(in) (BasePlusLap),
//   with Horner's constants (tiled's four passes in one kernel) or the two quadratic factors'
//   (tiled otherwise, and the fast cpu backend).
#pragma once

#include "stencils/host_device.hpp"

namespace heat {

// ---- The stage form ----

// Classical RK4: stage s (1-based, s >= 2) evaluates the operator at u + kStageOffset[s-2]*dt*k_{s-1}.
constexpr double kStageOffset[3] = {0.5, 0.5, 1.0};
// The combination weights, times 6: u += dt/6 * (k1 + 2 k2 + 2 k3 + k4).
constexpr double kStageWeight6[4] = {1.0, 2.0, 2.0, 1.0};

// The time-step constants in the working precision, rounded once from double.
template <typename T>
struct Rk4Constants {
  T stage_dt[3];  // 0.5 dt, 0.5 dt, dt
  T dt_over_6;
};

template <typename T>
Rk4Constants<T> make_rk4_constants(double dt) {
  Rk4Constants<T> c{};
  for (int s = 0; s < 3; ++s) c.stage_dt[s] = static_cast<T>(kStageOffset[s] * dt);
  c.dt_over_6 = static_cast<T>(dt / 6.0);
  return c;
}

template <typename T>
HD inline T stage_input(T u, T stage_dt, T k_prev) { return u + stage_dt * k_prev; }

// Accumulates k1 + 2 k2 + 2 k3 + k4 stage by stage, in this order, so that a kernel
// that never holds all four stages at once rounds exactly like one that does.
template <typename T>
HD inline T rk4_accumulate(T sum, int stage, T k) {
  return stage == 0 ? k : (stage == 3 ? sum + k : sum + T(2) * k);
}

template <typename T>
HD inline T rk4_finish(T u, T dt_over_6, T sum) { return u + dt_over_6 * sum; }

template <typename T>
HD inline T rk4_combine(T u, T dt_over_6, T k1, T k2, T k3, T k4) {
  T sum = rk4_accumulate(T(0), 0, k1);
  sum = rk4_accumulate(sum, 1, k2);
  sum = rk4_accumulate(sum, 2, k3);
  sum = rk4_accumulate(sum, 3, k4);
  return rk4_finish(u, dt_over_6, sum);
}

// ---- The pass form ----

// For a linear operator RK4 is the Taylor polynomial of degree 4 in z = dt * a*Lap,
// P(z) = 1 + z + z^2/2 + z^3/6 + z^4/24, applied to u. On the boundary layer a*Lap is zero by
// definition, so there every pass gives its base: the scratch fields carry u's boundary layer.
template <typename T>
struct PassConstants {
  T c[4];
};

// One pass: out = base + c * a*Lap(in) on the interior; `in` is `base` itself for a pass that reads
// one array. Every pass of Horner's form and of the factors has this shape (and reuse's middle
// stages, base k1: backends/cuda/linear_stages.cuh); what runs it gathers the neighbours its own way.
// `add`, where not null, is read at the point written and added after the pass: a steady source's
// step increment s in a step's last pass (core/heat_source.hpp), one array read a step.
template <typename T>
struct BasePlusLap {
  const T* base;
  const T* in;
  T c;
  T* out;
  const T* add = nullptr;
};

// A pass at one point, from a*Lap(in) there.
template <typename T>
HD inline T base_plus_lap(T base, T c, T lap) {
  return base + c * lap;
}

// Horner's form: v0 = u and v_s = u + c_s * a*Lap(v_{s-1}) with c = dt/4, dt/3, dt/2, dt. As
// separate passes it would move 11 arrays (every pass after the first reads u beside its
// operand); tiled runs it only with all four passes in one kernel (u read once, written once).
template <typename T>
PassConstants<T> make_horner_constants(double dt) {
  return {{static_cast<T>(dt / 4), static_cast<T>(dt / 3), static_cast<T>(dt / 2), static_cast<T>(dt)}};
}

// The quadratic factors: P(z) = (1 + a1 z + b1 z^2)(1 + a2 z + b2 z^2), whose roots are P's two
// pairs of complex conjugate roots, -1.7294 +- 0.8890i and -0.2706 +- 2.5048i (a_k = -2 Re / |root|^2,
// b_k = 1 / |root|^2). Each factor is two passes whose base is the factor's own input v:
// Q_k v = v + (a_k dt) a*Lap(v + (b_k/a_k dt) a*Lap v). So the first pass of each factor reads one
// array: single passes move 2 + 3 + 2 + 3 = 10 arrays, and two passes per kernel read one array
// and write one (4 arrays), with no base beside the operand. The same polynomial as Horner's; its
// rounding differs within the tolerance of --check.
struct QuadraticFactor {
  double a, b;
};
inline constexpr QuadraticFactor kRk4Factors[2] = {{0.91474668699459514598, 0.26446261479904986361},
                                                   {0.085253313005404854023, 0.15755219957394281479}};

// c = the passes' constants in order: (b1/a1) dt, a1 dt, (b2/a2) dt, a2 dt.
template <typename T>
PassConstants<T> make_factored_constants(double dt) {
  PassConstants<T> k{};
  for (int f = 0; f < 2; ++f) {
    k.c[2 * f] = static_cast<T>(kRk4Factors[f].b / kRk4Factors[f].a * dt);
    k.c[2 * f + 1] = static_cast<T>(kRk4Factors[f].a * dt);
  }
  return k;
}

constexpr int kFactoredStepArrays = 10;

// One step through launch(pass), with two scratch fields: a holds each factor's inner pass, b the
// first factor's result w = Q1 u; `source_step`, where not null, is added in the last pass.
template <typename T, typename Launch>
void factored_rk4_step(Launch&& launch, T* u, T* a, T* b, const PassConstants<T>& k,
                       const T* source_step = nullptr) {
  launch(BasePlusLap<T>{u, u, k.c[0], a});
  launch(BasePlusLap<T>{u, a, k.c[1], b});
  launch(BasePlusLap<T>{b, b, k.c[2], a});
  // The last pass writes u, which no pass of the second factor reads.
  launch(BasePlusLap<T>{b, a, k.c[3], u, source_step});
}

}  // namespace heat
