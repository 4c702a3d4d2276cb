// The tiled backend, configuration by configuration: every configuration that is built (the
// default of each order and precision; those of a sweep build's families too) must give the
// cpu reference's answer, on awkward sizes and on a grid smaller than one tile, with and without a
// heat source, leave the boundary layer bitwise untouched and repeat bitwise.
// The backend poisons the interior of its output buffers before the first kernel runs, so a point
// that no kernel writes fails as NaN. Skipped (and reported so) on a machine without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "test_support.hpp"
#include "check/boundary_cases.hpp"
#include "check/norms.hpp"
#include "check/reference.hpp"

#if defined(HEAT_HAVE_CUDA)
#include "backends/tiled/tiled.hpp"

namespace heat {
namespace {

struct TiledCase {
  int order;
  Precision precision;
  std::string configuration;
};

std::vector<TiledCase> all_built_cases() {
  std::vector<TiledCase> cases;
  for (int order : {2, 4, 6, 8})
    for (Precision precision : {Precision::Float, Precision::Double})
      for (const std::string& name : tiled_configurations(order, precision)) cases.push_back({order, precision, name});
  return cases;
}

// "factor-pairs/64x16/c2x1/b2" -> "order4_float_factor_pairs_64x16_c2x1_b2": GoogleTest names are
// letters, digits and '_'.
std::string case_name(const TiledCase& c) {
  std::string name = "order" + std::to_string(c.order) + "_" + precision_name(c.precision) + "_";
  for (char ch : c.configuration) name += ch == '/' || ch == '-' ? '_' : ch;
  return name;
}

// GoogleTest prints a parameter with this instead of its raw bytes.
void PrintTo(const TiledCase& c, std::ostream* os) { *os << case_name(c); }

// 9^3 and 12x10x11 are smaller than every tile; the others are no multiple of any tile or warp
// width, so the partial tiles at the far faces and the out-of-grid columns of the halo are
// exercised. Rows of odd (9, 23) and even (12, 130, 64, 122) length: the 2.5D pass kernels (one,
// two and four passes) access the own pairs as one vector only where rows have an even length, so
// both variants of each run; the copy-engine passes ("/tma") run only where rows are a multiple of
// 16 bytes (12 and 64 in float, 12, 130, 64 and 122 in double), one_pass.cuh's kernel elsewhere.
const Grid kGrids[] = {{9, 9, 9, 0.5, 0.5, 0.5},
                       {12, 10, 11, 0.6, 0.8, 0.7},
                       {23, 17, 29, 0.7, 1.3, 0.9},
                       {130, 67, 45, 1.0, 0.6, 1.7},
                       {64, 40, 21, 0.8, 0.9, 1.1},
                       // Wide and tall enough that every all4 configuration has blocks whose whole
                       // region (tile and 4r halo) is interior, as most are at 600^3, besides edge
                       // blocks, and z chunks away from both z faces.
                       {122, 124, 30, 0.9, 0.7, 1.2}};

template <typename T>
Field<T> run_tiled(const TiledCase& c, const Problem& p, const Field<T>& start, int steps) {
  auto backend = make_tiled_backend<T>(p, BackendOptions{}, c.configuration);
  backend->upload(start);
  backend->step(steps);
  Field<T> u(p.grid, T(-12345));  // poison the host copy: download must overwrite every point
  backend->download(u);
  return u;
}

class TiledConfiguration : public ::testing::TestWithParam<TiledCase> {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

template <typename T>
void expect_matches_reference(const TiledCase& c) {
  const double tol = default_tolerance<T>();
  for (const Grid& g : kGrids)
    for (int steps : {1, 5}) {
      const Problem p = test::gpu_test_problem(g, c.order);
      const Field<T> start = field_cast<T>(randn_field(g, 300 + c.order + steps));
      const Field<T> result = run_tiled<T>(c, p, start, steps);
      const Field<double> reference = cpu_reference(p, field_cast<double>(start), steps);
      const FieldDifference d = compare_fields(result, reference, tol, tol);
      EXPECT_TRUE(d.pass()) << case_name(c) << " " << g.nx << "x" << g.ny << "x" << g.nz << ", " << steps
                            << " steps: " << describe(d);
    }
}

TEST_P(TiledConfiguration, MatchesCpuReference) {
  const TiledCase& c = GetParam();
  if (c.precision == Precision::Float) expect_matches_reference<float>(c);
  else expect_matches_reference<double>(c);
}

// With a random steady source (layer faces: every configuration runs them), whose step increment
// the step's last pass adds (the fused kernels' last pass too): about 1 added to u over the steps,
// so a configuration that dropped it or added it twice misses by far more than the tolerance.
template <typename T>
void expect_source_added_as_the_reference(const TiledCase& c) {
  const double tol = default_tolerance<T>();
  const int steps = 5;
  for (const Grid& g : kGrids) {
    Problem p = test::gpu_test_problem(g, c.order);
    const double heating = p.heat_capacity / (p.dt * steps);
    p.source = make_heat_source(p, random_source(g, heating, 0.5 * heating, 400 + c.order));
    const Field<T> start = field_cast<T>(randn_field(g, 500 + c.order));
    const Field<T> result = run_tiled<T>(c, p, start, steps);
    const Field<double> reference = cpu_reference(p, field_cast<double>(start), steps);
    const FieldDifference d = compare_fields(result, reference, tol, tol);
    EXPECT_TRUE(d.pass()) << case_name(c) << " with a source, " << g.nx << "x" << g.ny << "x" << g.nz << ": "
                          << describe(d);
  }
}

TEST_P(TiledConfiguration, AddsASourceAsTheCpuReference) {
  const TiledCase& c = GetParam();
  if (c.precision == Precision::Float) expect_source_added_as_the_reference<float>(c);
  else expect_source_added_as_the_reference<double>(c);
}

template <typename T>
void expect_boundary_unchanged_and_repeatable(const TiledCase& c) {
  for (const Grid& g : kGrids) {
    const Problem p = test::gpu_test_problem(g, c.order);
    const Field<T> start = field_cast<T>(randn_field(g, 9));
    const Field<T> first = run_tiled<T>(c, p, start, 4);
    const Field<T> second = run_tiled<T>(c, p, start, 4);
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(T)), 0)
        << case_name(c) << " " << g.nx << "x" << g.ny << "x" << g.nz << ": two runs differ";
    test::expect_boundary_kept_interior_changed(p, start, first, case_name(c));
  }
}

TEST_P(TiledConfiguration, BoundaryBitwiseUnchangedAndRunsRepeatBitwise) {
  const TiledCase& c = GetParam();
  if (c.precision == Precision::Float) expect_boundary_unchanged_and_repeatable<float>(c);
  else expect_boundary_unchanged_and_repeatable<double>(c);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TiledConfiguration);
INSTANTIATE_TEST_SUITE_P(Built, TiledConfiguration, ::testing::ValuesIn(all_built_cases()),
                         [](const auto& info) { return case_name(info.param); });

// These need no GPU: they check the configuration tables, not the kernels.
TEST(TiledConfigurations, EveryOrderAndPrecisionHasABuiltDefault) {
  for (int order : {2, 4, 6, 8})
    for (Precision precision : {Precision::Float, Precision::Double}) {
      const auto names = tiled_configurations(order, precision);
      EXPECT_FALSE(names.empty()) << "order " << order << " " << precision_name(precision);
      const std::string chosen = tiled_default_configuration(order, precision);
      EXPECT_NE(std::find(names.begin(), names.end(), chosen), names.end())
          << "order " << order << " " << precision_name(precision) << ": default " << chosen << " is not built";
    }
}

// The defaults of tiled.cu's DefaultOf, which benchmarks/worklog.md's measurements chose: a change
// here is a change of the product's speed and must come with a measurement.
TEST(TiledConfigurations, DefaultsAreTheMeasuredOnes) {
  const struct {
    int order;
    Precision precision;
    const char* configuration;
  } defaults[] = {
      {2, Precision::Float, "all4/56x40/c2x2/b1"},
      {2, Precision::Double, "all4/24x40/c2x2/b1"},
      {4, Precision::Float, "factor-pairs/64x16/c2x1/b2"},
      {4, Precision::Double, "factor-pairs/32x16/c2x1"},
      {6, Precision::Float, "factor-pairs/64x8/c2x1"},
      {6, Precision::Double, "factor-pairs/32x32/c2x1/dmma"},
      {8, Precision::Float, "factors/64x16/c2x1/a2"},
      {8, Precision::Double, "factors/32x16/c2x1/a2/tma2"},
  };
  for (const auto& d : defaults)
    EXPECT_EQ(tiled_default_configuration(d.order, d.precision), d.configuration)
        << "order " << d.order << " " << precision_name(d.precision);
}

// A default build compiles the default of each order and precision, and its single passes for
// faces that are not layer where the default fuses passes, and nothing else; a sweep build those
// and the configurations of its families' lists in tiled.cu, each once.
TEST(TiledConfigurations, DefaultBuildCompilesOnlyTheDefaultsAndTheirSinglePasses) {
  for (int order : {2, 4, 6, 8})
    for (Precision precision : {Precision::Float, Precision::Double}) {
      const std::string where = "order " + std::to_string(order) + " " + precision_name(precision);
      const auto names = tiled_configurations(order, precision);
      std::vector<std::string> products{tiled_default_configuration(order, precision)};
      if (tiled_boundary_configuration(order, precision) != products[0])
        products.push_back(tiled_boundary_configuration(order, precision));
#if defined(HEAT_TILED_SWEEP) && HEAT_TILED_SWEEP
      for (const std::string& name : names)
        EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << where << ": " << name;
      for (const std::string& product : products)
        EXPECT_NE(std::find(names.begin(), names.end(), product), names.end()) << where << ": " << product;
#else
      EXPECT_EQ(names, products) << where;
#endif
    }
}

// Where a face is not layer, tiled runs single passes ("factors/...", one_pass.cuh or its copy
// engine's), each operand filled first: the default itself where it runs them.
TEST(TiledConfigurations, FacesThatAreNotLayerRunSinglePasses) {
  for (int order : {2, 4, 6, 8})
    for (Precision precision : {Precision::Float, Precision::Double}) {
      const std::string where = "order " + std::to_string(order) + " " + precision_name(precision);
      const std::string chosen = tiled_boundary_configuration(order, precision);
      const std::string default_one = tiled_default_configuration(order, precision);
      EXPECT_EQ(chosen.rfind("factors/", 0), 0u) << where << ": " << chosen;
      if (default_one.rfind("factors/", 0) == 0) EXPECT_EQ(chosen, default_one) << where;
      const auto names = tiled_configurations(order, precision);
      EXPECT_NE(std::find(names.begin(), names.end(), chosen), names.end()) << where << ": " << chosen << " not built";
    }
}

// A configuration that applies the operator more than once per launch cannot fill the ghosts
// between: asked for by name with a face that is not layer, it is refused, naming itself and the
// configuration tiled runs instead.
TEST(TiledConfigurations, FusedPassesAreRefusedWhereAFaceIsNotLayer) {
  for (int order : {2, 4}) {
    Problem p = test::gpu_test_problem(kGrids[2], order);
    p.boundaries.fill({BoundaryKind::Insulated});
    const std::string fused = tiled_default_configuration(order, Precision::Float);
    try {
      make_tiled_backend<float>(p, BackendOptions{}, fused);
      FAIL() << fused << " was made for a problem with insulated faces";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(fused), std::string::npos) << message;
      EXPECT_NE(message.find(tiled_boundary_configuration(order, Precision::Float)), std::string::npos) << message;
    }
  }
}

// `heatrk4 backends` prints the registry entry's table: a row per order and precision, each the
// configuration that the registry's tiled runs, with that configuration's byte model, a kernel
// file that exists and a reason.
TEST(TiledConfigurations, TheTableOfDefaultsIsWhatTiledRuns) {
  const BackendEntry& tiled = *default_registry().find("tiled");
  ASSERT_EQ(tiled.defaults.size(), 8u);
  for (const OrderDefault& row : tiled.defaults) {
    const std::string where = "order " + std::to_string(row.order) + " " + precision_name(row.precision);
    EXPECT_EQ(row.configuration, tiled_default_configuration(row.order, row.precision)) << where;
    const std::size_t size = row.precision == Precision::Float ? sizeof(float) : sizeof(double);
    EXPECT_EQ(tiled.bytes_per_point(test::gpu_test_problem(kGrids[0], row.order), size),
              double(row.arrays_per_point) * double(size))
        << where;
    EXPECT_TRUE(std::filesystem::exists(std::string(HEAT_SOURCE_DIR) + "/backends/tiled/" + row.kernel_file))
        << where << ": " << row.kernel_file;
    EXPECT_GT(row.kernels_per_step, 0) << where;
    EXPECT_FALSE(row.why.empty()) << where;
  }
}

TEST(TiledConfigurations, UnknownConfigurationIsRefusedByName) {
  const Problem p = test::gpu_test_problem(kGrids[0], 8);
  try {
    make_tiled_backend<float>(p, BackendOptions{}, "pairs/1x1/c2x9");
    FAIL() << "an unknown configuration was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pairs/1x1/c2x9"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace heat

#else

TEST(TiledConfiguration, NeedsCuda) { GTEST_SKIP() << "this build has no CUDA backends"; }

#endif
