// Non-finite and absurd numbers: derived values out of range are refused before any work
// (exit 2), and a field that blows up while running stops the run within a few steps, naming
// the step and the point (exit 3). Backend::first_nonfinite, the check behind it, is compared
// on every backend with a scan of the downloaded field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <regex>
#include <vector>

#if defined(HEAT_HAVE_CUDA)
#include <cuda_runtime.h>

#include "backends/cuda/nonfinite.cuh"
#endif

#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

TEST(DerivedValues, OutOfRangeNumbersAreRefusedBeforeAnyWork) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--h", "1e200"}, "the time step dt"},       // 1/h^2 underflows: dt = inf
      {{"--h", "1e-200"}, "the time step dt"},      // 1/h^2 overflows: dt = 0
      {{"--h", "1e308"}, "the grid's extent"},      // (n-1)*h overflows
      {{"--alpha", "1e-320"}, "--alpha"},           // subnormal
      {{"--dt", "1e-320"}, "the time step dt"},     // subnormal
      {{"--h", "1e-25"}, "use --precision double"}, // weights of 1e50 do not fit a float
  };
  for (const auto& [options, reason] : cases) {
    std::vector<std::string> args = {"--n", "12", "--steps", "3", "--backend", "cpu", "--quiet", "--format", "none"};
    args.insert(args.end(), options.begin(), options.end());
    const auto r = run_heatrk4(args);
    EXPECT_EQ(r.exit_code, 2) << options[0] << " " << options[1] << ":\n" << r.output;
    expect_mentions(r, reason);
  }
  // The same spacing in double precision is fine.
  const auto fine = run_heatrk4({"--n", "12", "--steps", "3", "--backend", "cpu", "--quiet", "--format", "none", "--h",
                                 "1e-25", "--precision", "double"});
  EXPECT_EQ(fine.exit_code, 0) << fine.output;
}

TEST(BlowUp, AnUnstableRunStopsWithinAFewStepsNamingTheStepAndThePoint) {
  const int steps = 100000;
  const auto r = run_heatrk4({"--n", "12", "--order", "2", "--cfl", "2", "--allow-unstable", "--steps",
                              std::to_string(steps), "--init", "randn", "--backend", "cpu", "--quiet", "--format",
                              "none"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(\(i, j, k\) = \((\d+), (\d+), (\d+)\) after step (\d+))")))
      << r.output;
  // The growth factor of the fastest mode is about 110 per step: double overflows within a few
  // hundred steps, and the check finds it within kStepsBetweenFiniteChecks of that.
  EXPECT_LT(std::stoi(m[4]), 1000) << r.output;
  for (int axis = 1; axis <= 3; ++axis) {  // an interior point of the 12^3 grid (r = 1)
    EXPECT_GE(std::stoi(m[axis]), 1);
    EXPECT_LE(std::stoi(m[axis]), 10);
  }
}

// A run with no snapshot and no check leaves its final field where it was stepped; its last
// check still finds a blow-up of the last chunk (before step 16, the first chunk's end), and the
// run exits 3 naming the final step.
TEST(BlowUp, ARunWithoutOutputStillChecksItsFinalField) {
  const auto r = run_heatrk4({"--n", "12", "--order", "2", "--cfl", "5", "--allow-unstable", "--steps", "14",
                              "--precision", "float", "--init", "randn", "--backend", "cpu", "--quiet", "--format",
                              "none"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("after step 14, finite after step 0"), std::string::npos) << r.output;
}

// A restart that blows up names the steps of the series it continues, and this run's own.
TEST(BlowUp, ARestartNamesTheSeriesStep) {
  const std::string dir = test::temp_directory("blowup-restart");
  ASSERT_EQ(run_heatrk4({"--n", "12", "--order", "2", "--steps", "5", "--init", "randn", "--backend", "cpu", "--quiet",
                         "--output", dir})
                .exit_code,
            0);
  const auto r = run_heatrk4({"--restart", dir + "/heat_000005.hdf", "--cfl", "2", "--allow-unstable", "--steps",
                              "100000", "--backend", "cpu", "--quiet"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(after step (\d+) \(step (\d+) of this run\))"))) << r.output;
  EXPECT_EQ(std::stoi(m[1]), std::stoi(m[2]) + 5) << r.output;
}

// A random field with NaN and Inf planted at some points; the smallest planted index.
template <typename T>
Field<T> field_with_nonfinite(const Grid& g, const std::vector<std::size_t>& nan_at, std::size_t inf_at) {
  Field<T> u = field_cast<T>(randn_field(g, 21));
  for (std::size_t p : nan_at) u.data()[p] = std::numeric_limits<T>::quiet_NaN();
  u.data()[inf_at] = -std::numeric_limits<T>::infinity();
  return u;
}

template <typename T>
long long scan_first_nonfinite(const Field<T>& u) {
  for (std::size_t n = 0; n < u.size(); ++n)
    if (!std::isfinite(u.data()[n])) return (long long)n;
  return -1;
}

// On the uploaded field, and after a step has spread the NaN (into the backend's other buffer,
// for those that step into one): first_nonfinite equals a scan of the downloaded field.
template <typename T>
void expect_first_nonfinite_found(const std::string& name) {
  const Grid g{23, 17, 19, 0.7, 1.3, 0.9};
  for (int order : {2, 8}) {
    const Problem p = test::gpu_test_problem(g, order);
    auto backend = default_registry().find(name)->make<T>(p, BackendOptions{});
    Field<T> clean = field_cast<T>(randn_field(g, 7));
    backend->upload(clean);
    backend->step(3);
    EXPECT_EQ(backend->first_nonfinite(), -1) << name << " order " << order << ": a finite field";

    const std::size_t interior = g.index(12, 9, 10), later = g.index(15, 12, 14);
    Field<T> u = field_with_nonfinite<T>(g, {later, interior}, g.index(20, 15, 16));
    backend->upload(u);
    EXPECT_EQ(backend->first_nonfinite(), (long long)interior) << name << " order " << order;
    backend->step(1);
    backend->download(u);
    const long long expected = scan_first_nonfinite(u);
    ASSERT_LT(expected, (long long)interior) << name << ": one step did not spread the NaN";
    EXPECT_EQ(backend->first_nonfinite(), expected) << name << " order " << order << " after a step";
    // The final download's check (on a GPU beside the copy): the same index, the same values.
    Field<T> downloaded(g, T(0));
    EXPECT_EQ(backend->download_finding_nonfinite(downloaded), expected) << name << " order " << order;
    EXPECT_EQ(std::memcmp(downloaded.data(), u.data(), u.size() * sizeof(T)), 0) << name << " order " << order;
  }
}

class FirstNonfinite : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (default_registry().find(GetParam())->uses_cuda) HEAT_REQUIRE_GPU();
  }
};

TEST_P(FirstNonfinite, FindsTheFirstNanOrInfFloat) { expect_first_nonfinite_found<float>(GetParam()); }
TEST_P(FirstNonfinite, FindsTheFirstNanOrInfDouble) { expect_first_nonfinite_found<double>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Registry, FirstNonfinite, ::testing::ValuesIn(default_registry().names()),
                         [](const auto& info) { return info.param; });

#if defined(HEAT_HAVE_CUDA)
// The search itself on device memory that starts anywhere (an adopted PyTorch view need not
// start on 16 bytes): every alignment of the first value, lengths that leave 0 to 3 values after
// the last whole vector, and non-finite values before, inside and after the vectors, each alone
// and behind an earlier one. 2^22 values: more than one vector per thread on any GPU of fewer
// than 4096 SMs.
template <typename T>
void expect_search_finds_first_at_every_alignment() {
  constexpr std::size_t kPadding = 4, kLength = (std::size_t(1) << 22) + 3;
  T* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, (kPadding + kLength) * sizeof(T)), cudaSuccess);
  std::vector<T> host(kPadding + kLength);
  for (std::size_t n = 0; n < host.size(); ++n) host[n] = T(0.25) * T(n % 7) - T(1);
  auto search = [&](const std::vector<T>& field, std::size_t offset, std::size_t count) {
    EXPECT_EQ(cudaMemcpy(device, field.data(), field.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return first_nonfinite_on_device(device + offset, count);
  };
  for (std::size_t offset = 0; offset < kPadding; ++offset)
    for (std::size_t count : {kLength, kLength - 1, kLength - 2, kLength - 3, std::size_t(5), std::size_t(1)}) {
      // NaN just outside [offset, offset + count): not the search's to find.
      std::vector<T> fenced = host;
      if (offset > 0) fenced[offset - 1] = std::numeric_limits<T>::quiet_NaN();
      if (offset + count < fenced.size()) fenced[offset + count] = std::numeric_limits<T>::quiet_NaN();
      EXPECT_EQ(search(fenced, offset, count), -1) << "offset " << offset << ", count " << count;
      for (std::size_t place : {std::size_t(0), std::size_t(1), count / 3, count / 2, 2 * count / 3, count - 1}) {
        if (place >= count) continue;
        std::vector<T> with = fenced;
        with[offset + count - 1] = std::numeric_limits<T>::infinity();  // a later one, wherever `place` is
        if (place + 3 < count) with[offset + place + 3] = -std::numeric_limits<T>::infinity();
        with[offset + place] = std::numeric_limits<T>::quiet_NaN();
        EXPECT_EQ(search(with, offset, count), (long long)place)
            << "offset " << offset << ", count " << count << ", NaN at " << place;
      }
    }
  ASSERT_EQ(cudaFree(device), cudaSuccess);
}

TEST(FirstNonfiniteOnDevice, FindsTheFirstAtEveryAlignmentAndLengthFloat) {
  HEAT_REQUIRE_GPU();
  expect_search_finds_first_at_every_alignment<float>();
}
TEST(FirstNonfiniteOnDevice, FindsTheFirstAtEveryAlignmentAndLengthDouble) {
  HEAT_REQUIRE_GPU();
  expect_search_finds_first_at_every_alignment<double>();
}
#endif

// Order 2 on a 12^3 grid of unit spacing at `cfl`.
Problem order2_problem(double cfl) {
  Problem p;
  p.grid = Grid{12, 12, 12, 1.0, 1.0, 1.0};
  p.order = 2;
  p.alpha = 1;
  p.dt = dt_from_cfl(p.grid, p.alpha, cfl);
  return p;
}

// The time loop stops at the first check after the field went non-finite (kStepsBetweenFiniteChecks
// steps in), not at the end.
TEST(BlowUp, TheTimeLoopChecksEveryFewSteps) {
  const Problem p = order2_problem(0.01);
  const Grid& g = p.grid;
  // The second time as a rank's box starting at plane 40 of the whole grid: the point named is
  // the whole grid's.
  int first_k = -1;
  for (int first_plane : {0, 40}) {
    auto backend = default_registry().find("cpu")->make<double>(p, BackendOptions{});
    Field<double> u = field_with_nonfinite<double>(g, {g.index(6, 6, 6)}, g.index(7, 7, 7));
    LoopSchedule schedule;
    schedule.first_plane = first_plane;
    try {
      advance(*backend, u, 100000, schedule);
      FAIL() << "a non-finite field ran to the end";
    } catch (const RunError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("after step 16, finite after step 0"), std::string::npos) << message;
      std::smatch m;
      ASSERT_TRUE(std::regex_search(message, m, std::regex(R"(\(i, j, k\) = \(\d+, \d+, (\d+)\))"))) << message;
      if (first_plane == 0) first_k = std::stoi(m[1]);
      else EXPECT_EQ(std::stoi(m[1]), first_k + first_plane) << message;
    }
  }
}

// Every caller of the backends goes through the time loop, so each one stops a field that blew
// up at the first check after it (step 16 here: a cfl of 5 overflows a float within a dozen
// steps), not at its end. verify names the case; it refuses the cfl unless told it is meant.
TEST(BlowUp, VerifyStopsAtTheChunkThatBlewUp) {
  const auto refused = run_heatrk4({"verify", "--n", "12", "--steps", "200", "--cfl", "5"});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  expect_mentions(refused, "--cfl 5 is unstable for order 2");
  const auto r = run_heatrk4({"verify", "--n", "12", "--steps", "200", "--cfl", "5", "--allow-unstable"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  expect_mentions(r, "cpu order 2 float: the field blew up");
  expect_mentions(r, "after step 16, finite after step 0");
}

TEST(BlowUp, TheReferenceComparisonStopsAtTheChunkThatBlewUp) {
  const Problem p = order2_problem(5.0);
  try {
    check_against_reference<float>("cpu", p, randn_field(p.grid, 7), 200, 1e-5, 1e-5);
    FAIL() << "a field that blew up was compared";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("after step 16, finite after step 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace heat
