// Every CUDA backend in the registry against the cpu reference: every order and precision, on
// awkward sizes, boundary bitwise unchanged, and bitwise repeatable. A new CUDA backend is
// covered without new test code. Skipped (and reported so) on a machine without a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "test_support.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

const Grid kAwkwardGrids[] = {{9, 9, 9, 0.5, 0.5, 0.5}, {23, 17, 29, 0.7, 1.3, 0.9}, {130, 67, 45, 1.0, 0.6, 1.7}};

template <typename T>
Field<T> run_steps(const std::string& name, const Problem& p, const Field<T>& start, int steps) {
  auto backend = default_registry().find(name)->make<T>(p, BackendOptions{});
  Field<T> u = start;
  backend->upload(u);
  backend->step(steps);
  u = Field<T>(p.grid, T(-12345));  // poison the host copy: download must overwrite every point
  backend->download(u);
  return u;
}

class CudaBackend : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

template <typename T>
void expect_matches_reference(const std::string& name) {
  const double tol = default_tolerance<T>();
  for (const Grid& g : kAwkwardGrids)
    for (int order : {2, 4, 6, 8}) {
      const Problem p = test::gpu_test_problem(g, order);
      const Field<double> start = randn_field(g, 100 + order);
      const FieldDifference d = check_against_reference<T>(name, p, start, 5, tol, tol);
      EXPECT_TRUE(d.pass()) << name << " order " << order << " " << g.nx << "x" << g.ny << "x" << g.nz << ": "
                            << describe(d);
    }
}

TEST_P(CudaBackend, MatchesCpuReferenceFloat) { expect_matches_reference<float>(GetParam()); }
TEST_P(CudaBackend, MatchesCpuReferenceDouble) { expect_matches_reference<double>(GetParam()); }

TEST_P(CudaBackend, BoundaryBitwiseUnchangedAndRunsRepeatBitwise) {
  for (const Grid& g : kAwkwardGrids)
    for (int order : {2, 8}) {
      const Problem p = test::gpu_test_problem(g, order);
      const Field<float> start = field_cast<float>(randn_field(g, 9));
      const Field<float> first = run_steps(GetParam(), p, start, 4);
      const Field<float> second = run_steps(GetParam(), p, start, 4);
      EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0)
          << GetParam() << " order " << order << ": two runs differ";
      test::expect_boundary_kept_interior_changed(p, start, first, GetParam());
    }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaBackend);
INSTANTIATE_TEST_SUITE_P(Registry, CudaBackend, ::testing::ValuesIn(test::cuda_backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace heat
