// The RK4 step as four stencil passes of one shape, out = u + c * a*Lap(in), in two forms: Horner's
// and the quadratic factors. Every tiled kernel and the cpu backend run one of them
// (linear_stages.cuh has the stage form).
#pragma once

namespace heat {

// For a linear operator RK4 is the Taylor polynomial of degree 4 in z = dt * a*Lap,
// P(z) = 1 + z + z^2/2 + z^3/6 + z^4/24, applied to u. On the boundary layer a*Lap is zero by
// definition, so there every pass gives its `u`: the scratch fields carry u's boundary layer.
template <typename T>
struct PassConstants {
  T c[4];
};

// One pass: out = u + c * a*Lap(in); `in` is `u` itself for a pass that reads one array.
template <typename T>
struct LinearPass {
  const T* in;
  const T* u;
  T c;
  T* out;
};

// Horner's form: v0 = u and v_s = u + c_s * a*Lap(v_{s-1}) with c = dt/4, dt/3, dt/2, dt. As
// separate passes it would move 11 arrays (every pass after the first reads u beside its
// operand); tiled runs it only with all four passes in one kernel (u read once, written once).
template <typename T>
PassConstants<T> make_horner_constants(double dt) {
  return {{static_cast<T>(dt / 4), static_cast<T>(dt / 3), static_cast<T>(dt / 2), static_cast<T>(dt)}};
}

// The quadratic factors: P(z) = (1 + a1 z + b1 z^2)(1 + a2 z + b2 z^2), whose roots are P's two
// pairs of complex conjugate roots, -1.7294 +- 0.8890i and -0.2706 +- 2.5048i (a_k = -2 Re / |root|^2,
// b_k = 1 / |root|^2). Each factor is two passes whose `u` is the factor's own input v:
// Q_k v = v + (a_k dt) a*Lap(v + (b_k/a_k dt) a*Lap v). So the first pass of each factor reads one
// array: single passes move 2 + 3 + 2 + 3 = 10 arrays, and two passes per kernel read one array
// and write one (4 arrays), with no u beside the operand. The same polynomial as Horner's; its
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
// first factor's result w = Q1 u.
template <typename T, typename Launch>
void factored_rk4_step(Launch&& launch, T* u, T* a, T* b, const PassConstants<T>& k) {
  launch(LinearPass<T>{u, u, k.c[0], a});
  launch(LinearPass<T>{a, u, k.c[1], b});
  launch(LinearPass<T>{b, b, k.c[2], a});
  // The last pass writes u, which no pass of the second factor reads.
  launch(LinearPass<T>{a, b, k.c[3], u});
}

}  // namespace heat
