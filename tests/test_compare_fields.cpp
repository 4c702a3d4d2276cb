// compare_fields (check/norms.hpp), which --check, verify and compare use, compares planes on
// several threads: held here to a plain serial loop over every point on random fields with planted
// failures, NaN and Inf, and bitwise the same on 1, 2 and 3 threads.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/initial_conditions.hpp"
#include "check/norms.hpp"

namespace heat {
namespace {

// The comparison as one loop in memory order: the definition compare_fields must keep.
template <typename A, typename B>
FieldDifference serial_compare(const Field<A>& x, const Field<B>& ref, double rtol, double atol, std::size_t keep) {
  FieldDifference d;
  double diff2 = 0, ref2 = 0;
  d.worst_ratio = -1;
  for (int k = 0; k < x.nz(); ++k)
    for (int j = 0; j < x.ny(); ++j)
      for (int i = 0; i < x.nx(); ++i) {
        const double v = double(x(i, j, k)), r = double(ref(i, j, k));
        const bool v_ok = std::isfinite(v), r_ok = std::isfinite(r);
        d.nonfinite_value += !v_ok;
        d.nonfinite_reference += !r_ok;
        const double err = (v_ok && r_ok) ? std::fabs(v - r) : INFINITY;
        const double ratio = err == 0 ? 0.0 : err / (atol + rtol * (r_ok ? std::fabs(r) : 0.0));
        if (v_ok && r_ok) {
          d.max_abs = std::max(d.max_abs, err);
          if (r != 0) d.max_rel = std::max(d.max_rel, err / std::fabs(r));
          diff2 += err * err;
          ref2 += r * r;
        }
        const PointMismatch here{i, j, k, v, r};
        if (std::isnan(ratio) ? d.worst_ratio < INFINITY : ratio > d.worst_ratio) {
          d.worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
          d.worst = here;
        }
        if (!(ratio <= 1.0)) {
          ++d.failures;
          if (d.first_failures.size() < keep) d.first_failures.push_back(here);
        }
      }
  d.rel_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  return d;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_point(const PointMismatch& a, const PointMismatch& b, const std::string& what) {
  EXPECT_EQ(a.i, b.i) << what;
  EXPECT_EQ(a.j, b.j) << what;
  EXPECT_EQ(a.k, b.k) << what;
  EXPECT_TRUE(same_bits(a.value, b.value)) << what << ": " << a.value << " vs " << b.value;
  EXPECT_TRUE(same_bits(a.reference, b.reference)) << what << ": " << a.reference << " vs " << b.reference;
}

// Everything but rel_l2 is a maximum, a count or a point, so it must be the serial loop's exactly;
// rel_l2 sums the squares plane by plane, so it may differ from the loop's in the last bits.
void expect_as_serial(const FieldDifference& got, const FieldDifference& want, const std::string& label) {
  EXPECT_TRUE(same_bits(got.max_abs, want.max_abs)) << label;
  EXPECT_TRUE(same_bits(got.max_rel, want.max_rel)) << label;
  EXPECT_NEAR(got.rel_l2, want.rel_l2, 1e-12 * want.rel_l2) << label;
  EXPECT_TRUE(same_bits(got.worst_ratio, want.worst_ratio)) << label << ": " << got.worst_ratio << " vs " << want.worst_ratio;
  expect_same_point(got.worst, want.worst, label + ", worst point");
  EXPECT_EQ(got.nonfinite_value, want.nonfinite_value) << label;
  EXPECT_EQ(got.nonfinite_reference, want.nonfinite_reference) << label;
  EXPECT_EQ(got.failures, want.failures) << label;
  ASSERT_EQ(got.first_failures.size(), want.first_failures.size()) << label;
  for (std::size_t n = 0; n < got.first_failures.size(); ++n)
    expect_same_point(got.first_failures[n], want.first_failures[n], label + ", failure " + std::to_string(n));
}

void expect_bitwise_equal(const FieldDifference& a, const FieldDifference& b, const std::string& label) {
  expect_as_serial(a, b, label);
  EXPECT_TRUE(same_bits(a.rel_l2, b.rel_l2)) << label << ": " << a.rel_l2 << " vs " << b.rel_l2;
}

// A result: the reference in float, nudged at random points by a few tolerances, some of them past
// one (failures), with NaN and Inf planted on either side when `nonfinite`, and the worst failure
// planted twice.
struct Pair {
  Field<float> result;
  Field<double> reference;
};
Pair make_pair(const Grid& g, std::uint64_t seed, bool nonfinite) {
  Pair p{Field<float>(g), randn_field(g, seed)};
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  for (std::size_t n = 0; n < p.reference.size(); ++n) {
    double& r = p.reference.data()[n];
    const double u = unit(random);
    const double tol = 1e-6 + 1e-6 * std::fabs(r);
    double v = r;
    if (u < 0.002) v = r + 3 * tol * unit(random);  // failures, of different sizes
    else if (u < 0.3) v = r + 0.9 * tol * (2 * unit(random) - 1);
    if (u > 0.999 && nonfinite) v = u > 0.9995 ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
    if (u < 0.0005 && nonfinite) r = std::numeric_limits<double>::quiet_NaN();
    if (u > 0.1 && u < 0.1005) r = 0;  // max_rel skips these
    p.result.data()[n] = float(v);
  }
  // The worst point twice, in the first plane and the last: of equal ratios the first one counts.
  for (std::size_t n : {std::size_t(0), p.reference.size() - 1}) {
    p.reference.data()[n] = 0.5;
    p.result.data()[n] = 0.5f + 0.25f;
  }
  return p;
}

TEST(CompareFields, AgreesWithASerialLoopOnRandomFields) {
  const Grid grids[] = {{37, 23, 19, 1, 1, 1}, {64, 48, 40, 1, 1, 1}, {5, 3, 2, 1, 1, 1}};
  for (const Grid& g : grids)
    for (bool nonfinite : {false, true})
      for (std::size_t keep : {std::size_t(0), std::size_t(5), std::size_t(1000)}) {
        const Pair p = make_pair(g, 7 + g.nx, nonfinite);
        const std::string label = std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) +
                                  (nonfinite ? " with NaN and Inf" : "") + ", keeping " + std::to_string(keep);
        const FieldDifference want = serial_compare(p.result, p.reference, 1e-6, 1e-6, keep);
        ASSERT_GT(want.failures, 0u) << label << ": the fields must plant failures";
        expect_as_serial(compare_fields(p.result, p.reference, 1e-6, 1e-6, keep), want, label);
      }
}

// Equal fields pass at zero tolerance, and the worst point stays the first one.
TEST(CompareFields, EqualFieldsAtZeroTolerance) {
  const Grid g{21, 17, 13, 1, 1, 1};
  const Field<double> ref = randn_field(g, 3);
  const FieldDifference d = compare_fields(ref, ref, 0, 0);
  EXPECT_TRUE(d.pass());
  expect_as_serial(d, serial_compare(ref, ref, 0, 0, 5), "equal fields");
}

TEST(CompareFields, OneTwoAndThreeThreadsBitwiseEqual) {
  const int saved = omp_get_max_threads();
  const Pair p = make_pair({48, 40, 33, 1, 1, 1}, 11, true);
  omp_set_num_threads(1);
  const FieldDifference one = compare_fields(p.result, p.reference, 1e-6, 1e-6);
  for (int threads : {2, 3}) {
    omp_set_num_threads(threads);
    expect_bitwise_equal(compare_fields(p.result, p.reference, 1e-6, 1e-6), one,
                         std::to_string(threads) + " threads against 1");
  }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace heat
