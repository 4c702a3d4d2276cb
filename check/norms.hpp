// The comparison norms that --check, verify and compare all use, written once.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "core/field.hpp"

namespace heat {

// The default tolerances of docs/design.md §3 (--check, verify, compare): float results are
// held to 1e-6 + 1e-6|ref|, double ones to 1e-12 + 1e-12|ref|.
constexpr double default_tolerance(Precision p) { return p == Precision::Float ? 1e-6 : 1e-12; }
template <typename T>
constexpr double default_tolerance() {
  return default_tolerance(sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double);
}

struct PointMismatch {
  int i = 0, j = 0, k = 0;
  double value = 0, reference = 0;
};

struct FieldDifference {
  double max_abs = 0;    // max |x - ref|
  double max_rel = 0;    // max |x - ref| / |ref| over points where ref != 0
  double rel_l2 = 0;     // ||x - ref||_2 / ||ref||_2 (the absolute L2 norm when ref is all zero)
  PointMismatch worst;   // the point furthest outside (or least inside) atol + rtol*|ref|
  double worst_ratio = 0;  // |x - ref| / (atol + rtol*|ref|) there: <= 1 passes
  std::size_t nonfinite_value = 0, nonfinite_reference = 0;
  std::size_t failures = 0;  // points with |x - ref| > atol + rtol*|ref|, or non-finite
  std::vector<PointMismatch> first_failures;  // the first few, in memory order
  bool pass() const { return failures == 0; }
};

// Compares x with ref point by point under the rule |x - ref| <= atol + rtol*|ref|.
// A NaN or Inf on either side is a failure. Shapes must match (checked by the caller).
//
// Each plane is compared on its own (by any OpenMP thread) and the planes' results are combined
// in plane order, so the sums of squares add up in the same order and the worst point and the
// first failures are the first in memory order, whatever the thread count: the result is bitwise
// the same on any number of threads (test_compare_fields holds it to a plain serial loop).
template <typename A, typename B>
FieldDifference compare_fields(const Field<A>& x, const Field<B>& ref, double rtol, double atol,
                               std::size_t keep_failures = 5) {
  struct PlaneDifference {
    FieldDifference d;
    double diff2 = 0, ref2 = 0;
  };
  std::vector<PlaneDifference> planes(std::size_t(x.nz() > 0 ? x.nz() : 0));
  const int nz = x.nz();
#pragma omp parallel for schedule(dynamic, 1)
  for (int k = 0; k < nz; ++k) {
    PlaneDifference& plane = planes[std::size_t(k)];
    FieldDifference& d = plane.d;
    d.worst_ratio = -1;
    for (int j = 0; j < x.ny(); ++j)
      for (int i = 0; i < x.nx(); ++i) {
        const double v = double(x(i, j, k)), r = double(ref(i, j, k));
        const bool v_ok = std::isfinite(v), r_ok = std::isfinite(r);
        d.nonfinite_value += !v_ok;
        d.nonfinite_reference += !r_ok;
        const double err = (v_ok && r_ok) ? std::fabs(v - r) : INFINITY;
        // err == 0 passes even at zero tolerance (compare --rtol 0 --atol 0), where 0/0 is NaN.
        const double ratio = err == 0 ? 0.0 : err / (atol + rtol * (r_ok ? std::fabs(r) : 0.0));
        if (v_ok && r_ok) {
          d.max_abs = std::max(d.max_abs, err);
          if (r != 0) d.max_rel = std::max(d.max_rel, err / std::fabs(r));
          plane.diff2 += err * err;
          plane.ref2 += r * r;
        }
        const PointMismatch here{i, j, k, v, r};
        if (std::isnan(ratio) ? d.worst_ratio < INFINITY : ratio > d.worst_ratio) {
          d.worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
          d.worst = here;
        }
        if (!(ratio <= 1.0)) {
          ++d.failures;
          if (d.first_failures.size() < keep_failures) d.first_failures.push_back(here);
        }
      }
  }
  FieldDifference d;
  d.worst_ratio = -1;
  double diff2 = 0, ref2 = 0;
  for (const PlaneDifference& plane : planes) {
    const FieldDifference& p = plane.d;
    d.max_abs = std::max(d.max_abs, p.max_abs);
    d.max_rel = std::max(d.max_rel, p.max_rel);
    diff2 += plane.diff2;
    ref2 += plane.ref2;
    // Strictly greater: of equal ratios the earlier plane's point stays, as in one loop.
    if (p.worst_ratio > d.worst_ratio) {
      d.worst_ratio = p.worst_ratio;
      d.worst = p.worst;
    }
    d.nonfinite_value += p.nonfinite_value;
    d.nonfinite_reference += p.nonfinite_reference;
    d.failures += p.failures;
    for (const PointMismatch& m : p.first_failures)
      if (d.first_failures.size() < keep_failures) d.first_failures.push_back(m);
  }
  d.rel_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  return d;
}

// compare_fields over the interior alone, the points at least r from every face (the points and
// failures indexed in the whole field). Where a face's condition is not layer, its ghosts are
// extrapolations from the points inward that multiply those points' rounding: at order 8 a
// convective face's weights reach 50 at a cell Biot number H h / K of 0.27 (docs/design.md §1),
// and in float its ghosts stray from the double reference's by tens of times what the points
// they are made from do.
template <typename A, typename B>
FieldDifference compare_interiors(const Field<A>& x, const Field<B>& ref, int r, double rtol, double atol) {
  const auto interior = [r](const auto& whole) {
    using Value = std::decay_t<decltype(whole(0, 0, 0))>;
    auto inner = Field<Value>::uninitialized(whole.nx() - 2 * r, whole.ny() - 2 * r, whole.nz() - 2 * r);
    for (int k = 0; k < inner.nz(); ++k)
      for (int j = 0; j < inner.ny(); ++j)
        for (int i = 0; i < inner.nx(); ++i) inner(i, j, k) = whole(i + r, j + r, k + r);
    return inner;
  };
  FieldDifference d = compare_fields(interior(x), interior(ref), rtol, atol);
  const auto in_whole = [r](PointMismatch& m) {
    m.i += r;
    m.j += r;
    m.k += r;
  };
  in_whole(d.worst);
  for (PointMismatch& m : d.first_failures) in_whole(m);
  return d;
}

// "max abs 1.2e-07, max rel 3.4e-07, rel L2 5.6e-08, worst (i,j,k) = value vs reference"
std::string describe(const FieldDifference& d);

}  // namespace heat
