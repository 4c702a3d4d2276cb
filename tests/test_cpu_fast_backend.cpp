// The fast cpu backend (backends/cpu/fast_backend.hpp) against the cpu reference on random fields:
// every order, both precisions, every instruction set this CPU has, odd sizes (rows that are not
// a whole number of vectors, rows shorter than a vector, rows split into blocks); the boundary
// layer bitwise kept; bitwise the same result in pairs of passes and in single passes, in AVX2
// and AVX-512, and on 1, 2 and 3 threads.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>
#include <vector>

#include "bitwise.hpp"
#include "backends/cpu/fast_backend.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

// Rows of 37 - 2r points (a vector and a part), rows of 2r + 5 (shorter than an AVX2 vector of
// floats), and rows of 1100 - 2r (two blocks in x).
const Grid kGrids[] = {
    {37, 23, 19, 0.9, 1.3, 0.7},
    {0, 14, 21, 1.1, 0.8, 1.0},  // nx = 2r + 5, set per order
    {1100, 11, 12, 1.0, 1.2, 0.9},
};

Grid grid_for(Grid g, int order) {
  if (g.nx == 0) g.nx = order + 5;
  return g;
}

std::vector<CpuIsa> isas_of_this_cpu() {
  std::vector<CpuIsa> isas = {CpuIsa::Generic};
  if (best_cpu_isa() != CpuIsa::Generic) isas.push_back(CpuIsa::Avx2);
  if (best_cpu_isa() == CpuIsa::Avx512) isas.push_back(CpuIsa::Avx512);
  return isas;
}

template <typename T>
Field<T> fast_steps(const Problem& p, const Field<T>& start, int steps, CpuIsa isa, std::string* label = nullptr,
                    CpuPassGrouping grouping = CpuPassGrouping::Pairs) {
  CpuFastBackend<T> backend(p, nullptr, grouping, isa);
  if (label) *label += std::string(" on ") + cpu_isa_name(backend.isa());
  backend.upload(start);
  backend.step(steps);
  Field<T> u(p.grid, T(-12345));  // poisoned: download must overwrite every point
  backend.download(u);
  return u;
}

std::string describe_case(const Grid& g, int order, CpuIsa isa) {
  return std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) + " order " +
         std::to_string(order) + " asked " + cpu_isa_name(isa);
}

template <typename T>
class CpuFastBackendTest : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CpuFastBackendTest, Precisions);

TYPED_TEST(CpuFastBackendTest, MatchesReferenceEveryOrderAndInstructionSet) {
  using T = TypeParam;
  const double tol = default_tolerance<T>();
  for (CpuIsa isa : isas_of_this_cpu())
    for (CpuPassGrouping grouping : {CpuPassGrouping::Pairs, CpuPassGrouping::Singles})
      for (const Grid& shape : kGrids)
        for (int order : {2, 4, 6, 8}) {
          const Problem p = test::gpu_test_problem(grid_for(shape, order), order);
          const Field<T> start = field_cast<T>(randn_field(p.grid, 40 + order));
          std::string label = describe_case(p.grid, order, isa);
          label += grouping == CpuPassGrouping::Pairs ? ", pairs" : ", single passes";
          const Field<T> result = fast_steps(p, start, 3, isa, &label, grouping);
          const FieldDifference d = compare_fields(result, cpu_reference(p, field_cast<double>(start), 3), tol, tol);
          EXPECT_TRUE(d.pass()) << label << ": " << describe(d);
          test::expect_boundary_kept_interior_changed(p, start, result, label);
        }
}

// Distributed runs with per-stage ghosts step in single passes; every other run in pairs.
TYPED_TEST(CpuFastBackendTest, PairsAndSinglePassesBitwiseEqual) {
  using T = TypeParam;
  for (CpuIsa isa : isas_of_this_cpu())
    for (const Grid& shape : kGrids)
      for (int order : {2, 4, 6, 8}) {
        const Problem p = test::gpu_test_problem(grid_for(shape, order), order);
        const Field<T> start = field_cast<T>(randn_field(p.grid, 60 + order));
        const Field<T> pairs = fast_steps(p, start, 2, isa);
        const Field<T> singles = fast_steps(p, start, 2, isa, nullptr, CpuPassGrouping::Singles);
        EXPECT_EQ(test::bitwise_differences(pairs, singles), 0) << describe_case(p.grid, order, isa);
      }
}

// AVX2 and AVX-512 make the same fused multiply-adds, so ranks on CPUs of either kind agree.
TYPED_TEST(CpuFastBackendTest, Avx2AndAvx512BitwiseEqual) {
  using T = TypeParam;
  if (best_cpu_isa() != CpuIsa::Avx512) GTEST_SKIP() << "this CPU has no AVX-512";
  for (int order : {2, 4, 6, 8}) {
    const Problem p = test::gpu_test_problem(grid_for(kGrids[0], order), order);
    const Field<T> start = field_cast<T>(randn_field(p.grid, 80 + order));
    EXPECT_EQ(test::bitwise_differences(fast_steps(p, start, 2, CpuIsa::Avx2), fast_steps(p, start, 2, CpuIsa::Avx512)),
              0)
        << describe_case(p.grid, order, CpuIsa::Avx512);
  }
}

TYPED_TEST(CpuFastBackendTest, OneTwoAndThreeThreadsBitwiseEqual) {
  using T = TypeParam;
  const int saved = omp_get_max_threads();
  for (CpuIsa isa : isas_of_this_cpu())
    for (int order : {2, 8}) {
      const Problem p = test::gpu_test_problem(grid_for(kGrids[0], order), order);
      const Field<T> start = field_cast<T>(randn_field(p.grid, 5));
      omp_set_num_threads(1);
      const Field<T> one = fast_steps(p, start, 2, isa);
      for (int threads : {2, 3}) {
        omp_set_num_threads(threads);
        EXPECT_EQ(test::bitwise_differences(one, fast_steps(p, start, 2, isa)), 0)
            << describe_case(p.grid, order, isa) << ", " << threads << " threads against 1";
      }
    }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace heat
