// The cpu backends' float steps, bitwise against RK4 written out here by hand in float. The
// Fourier-mode tests bound float results only to float rounding (5e-7), which would let a wrong
// float constant through (dt/6 off by 1e-6 moves a result by a few ulps); a bitwise comparison
// sees any such change. It can be bitwise because design.md fixes the order of every operation:
// weights alpha*c_k/h^2 rounded once from double, the centre's three axes folded into one
// weight, then per k the x, y and z pairs; the step's constants rounded once from double. The
// cpu backend's vector code fuses exactly `acc += w * pair` and `u + c * L` (one rounding each);
// the hand-written steps do the same where asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstring>

#include "bitwise.hpp"
#include "backends/cpu/fast_backend.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

// The central second-derivative coefficients c_0..c_r (Fornberg's table), written out again.
constexpr double kCoefficients[4][5] = {
    {-2.0, 1.0},
    {-5.0 / 2.0, 4.0 / 3.0, -1.0 / 12.0},
    {-49.0 / 18.0, 3.0 / 2.0, -3.0 / 20.0, 1.0 / 90.0},
    {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0},
};

// acc + a * b, rounded once where `fused`.
float multiply_add(float acc, float a, float b, bool fused) { return fused ? std::fma(a, b, acc) : acc + a * b; }

// alpha * Lap(v) at every interior point in float; zero on the boundary layer.
Field<float> float_laplacian(const Problem& p, const Field<float>& v, bool fused = false) {
  const Grid& g = p.grid;
  const int r = p.radius();
  const double* c = kCoefficients[r - 1];
  const double inverse_h2[3] = {1.0 / (g.hx * g.hx), 1.0 / (g.hy * g.hy), 1.0 / (g.hz * g.hz)};
  const float centre = float(p.alpha * c[0] * (inverse_h2[0] + inverse_h2[1] + inverse_h2[2]));
  float axis[3][4] = {};
  for (int a = 0; a < 3; ++a)
    for (int k = 1; k <= r; ++k) axis[a][k - 1] = float(p.alpha * c[k] * inverse_h2[a]);
  Field<float> out(g);
  for (int z = r; z < g.nz - r; ++z)
    for (int y = r; y < g.ny - r; ++y)
      for (int x = r; x < g.nx - r; ++x) {
        float sum = centre * v(x, y, z);
        for (int k = 1; k <= r; ++k) {
          sum = multiply_add(sum, axis[0][k - 1], v(x + k, y, z) + v(x - k, y, z), fused);
          sum = multiply_add(sum, axis[1][k - 1], v(x, y + k, z) + v(x, y - k, z), fused);
          sum = multiply_add(sum, axis[2][k - 1], v(x, y, z + k) + v(x, y, z - k), fused);
        }
        out(x, y, z) = sum;
      }
  return out;
}

// out = u + c * L, point by point (on the boundary layer L is zero, so out keeps u there).
Field<float> plus_scaled(const Field<float>& u, float c, const Field<float>& L, bool fused = false) {
  Field<float> out = u;
  for (std::size_t n = 0; n < u.size(); ++n) out.data()[n] = multiply_add(u.data()[n], c, L.data()[n], fused);
  return out;
}

// Classical RK4 in stages: k1 = L(u), k2 = L(u + dt/2 k1), k3 = L(u + dt/2 k2), k4 = L(u + dt k3),
// u += dt/6 (k1 + 2 k2 + 2 k3 + k4), the sum taken left to right.
Field<float> stage_form_step(const Problem& p, const Field<float>& u) {
  const float half_dt = float(0.5 * p.dt), dt = float(p.dt), dt_over_6 = float(p.dt / 6.0);
  const Field<float> k1 = float_laplacian(p, u);
  const Field<float> k2 = float_laplacian(p, plus_scaled(u, half_dt, k1));
  const Field<float> k3 = float_laplacian(p, plus_scaled(u, half_dt, k2));
  const Field<float> k4 = float_laplacian(p, plus_scaled(u, dt, k3));
  Field<float> sum = k1;
  for (std::size_t n = 0; n < u.size(); ++n) {
    float s = k1.data()[n];
    s = s + 2.0f * k2.data()[n];
    s = s + 2.0f * k3.data()[n];
    s = s + k4.data()[n];
    sum.data()[n] = s;
  }
  return plus_scaled(u, dt_over_6, sum);
}

// P(z) = (1 + a1 z + b1 z^2)(1 + a2 z + b2 z^2), one factor per pair of complex conjugate roots
// of 24 P(z) = z^4 + 4 z^3 + 12 z^2 + 24 z + 24 (a = -2 Re r / |r|^2, b = 1 / |r|^2), the pair
// with the more negative real part first. Its roots found here by Durand-Kerner's iteration.
std::array<std::array<double, 2>, 2> rk4_quadratic_factors() {
  const std::array<double, 5> monic = {24, 24, 12, 4, 1};  // coefficients of z^0 .. z^4
  const auto poly = [&](std::complex<double> z) {
    std::complex<double> v = monic[4];
    for (int n = 3; n >= 0; --n) v = v * z + monic[std::size_t(n)];
    return v;
  };
  std::array<std::complex<double>, 4> roots;
  for (int n = 0; n < 4; ++n) roots[std::size_t(n)] = std::pow(std::complex<double>(0.4, 0.9), n);
  for (int iteration = 0; iteration < 500; ++iteration)
    for (std::size_t n = 0; n < 4; ++n) {
      std::complex<double> denominator = 1;
      for (std::size_t m = 0; m < 4; ++m)
        if (m != n) denominator *= roots[n] - roots[m];
      roots[n] -= poly(roots[n]) / denominator;
    }
  std::vector<std::complex<double>> upper;
  for (const auto& r : roots)
    if (r.imag() > 0) upper.push_back(r);
  EXPECT_EQ(upper.size(), 2u);
  std::sort(upper.begin(), upper.end(), [](auto x, auto y) { return x.real() < y.real(); });
  std::array<std::array<double, 2>, 2> factors{};
  for (std::size_t f = 0; f < 2; ++f) {
    const double modulus2 = std::norm(upper[f]);
    factors[f] = {-2 * upper[f].real() / modulus2, 1 / modulus2};
  }
  return factors;
}

// The factored form as four passes out = v + c L(w): per factor (a, b), w = v + (b/a dt) L(v),
// then v' = v + (a dt) L(w), so that v' = (1 + a z + b z^2) v.
Field<float> factored_form_step(const Problem& p, const Field<float>& u, bool fused) {
  static const auto factors = rk4_quadratic_factors();
  Field<float> v = u;
  for (const auto& [a, b] : factors) {
    const Field<float> w = plus_scaled(v, float(b / a * p.dt), float_laplacian(p, v, fused), fused);
    v = plus_scaled(v, float(a * p.dt), float_laplacian(p, w, fused), fused);
  }
  return v;
}

Problem float_problem(int order) {
  Problem p;
  p.grid = {2 * order + 7, 2 * order + 4, 2 * order + 9, 0.9, 1.2, 0.7};
  p.order = order;
  p.alpha = 0.8;
  // cfl = 0.125 * 0.8 * (1/0.81 + 1/1.44 + 1/0.49) = 0.397, stable for every order and large
  // enough that every stage's contribution is far above float rounding.
  p.dt = 0.125;
  return p;
}

constexpr int kSteps = 3;

template <typename ByHand>
void expect_matches(const std::string& label, ByHand&& by_hand, int order, Backend<float>& solver) {
  const Problem p = float_problem(order);
  const Field<float> start = randn_field<float>(p.grid, 1234 + order);
  Field<float> expected = start;
  for (int s = 0; s < kSteps; ++s) expected = by_hand(p, expected);
  Field<float> u = start;
  advance(solver, u, kSteps);
  test::expect_boundary_kept_interior_changed(p, start, u, label);
  EXPECT_EQ(test::bitwise_differences(u, expected), 0) << label << ", order " << order;
}

TEST(FloatStepsByHand, CpuReferenceIsTheStageFormBitwise) {
  for (int order : {2, 4, 6, 8}) {
    auto solver = default_registry().find(kCpuReferenceName)->make<float>(float_problem(order), BackendOptions{});
    expect_matches(kCpuReferenceName, stage_form_step, order, *solver);
  }
}

// The cpu backend on each instruction set this machine runs: the generic code unfused, the vector
// code fused (cpu_isa_for_rows says which one a grid's rows get).
TEST(FloatStepsByHand, CpuIsTheFactoredFormBitwise) {
  for (CpuIsa isa : {CpuIsa::Generic, best_cpu_isa()}) {
    for (int order : {2, 4, 6, 8}) {
      const Problem p = float_problem(order);
      const bool fused = cpu_isa_for_rows(isa, p.grid.nx - 2 * p.radius(), sizeof(float)) != CpuIsa::Generic;
      CpuFastBackend<float> solver(p, {}, CpuPassGrouping::Pairs, isa);
      expect_matches(std::string("cpu on ") + cpu_isa_name(isa),
                     [fused](const Problem& q, const Field<float>& u) { return factored_form_step(q, u, fused); }, order,
                     solver);
    }
  }
}

TEST(FloatStepsByHand, TheRegistrysCpuIsTheFastBackend) {
  // The registry's cpu is the backend checked above on the best instruction set.
  const Problem p = float_problem(4);
  const Field<float> start = randn_field<float>(p.grid, 5);
  Field<float> a = start, b = start;
  advance(*default_registry().find("cpu")->make<float>(p, BackendOptions{}), a, kSteps);
  CpuFastBackend<float> fast(p, BackendOptions{});
  advance(fast, b, kSteps);
  EXPECT_EQ(test::bitwise_differences(a, b), 0);
}

TEST(FloatStepsByHand, TheTwoFormsDifferOnlyByRounding) {
  // The two hand-written forms are the same polynomial, reached two ways: they differ in the last
  // bits only, so neither oracle above is a wrong formula (a wrong factor would differ by far more).
  const Problem p = float_problem(4);
  const Field<float> start = randn_field<float>(p.grid, 99);
  const Field<float> a = stage_form_step(p, start), b = factored_form_step(p, start, false);
  for (std::size_t n = 0; n < a.size(); ++n) ASSERT_NEAR(a.data()[n], b.data()[n], 1e-5) << n;
}

}  // namespace
}  // namespace heat
