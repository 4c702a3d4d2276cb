// Golden files: tests/golden/orderP.hdf hold the state after 20 steps of a randn field
// (cases.txt has the runs, regenerate.sh the command that made them). A fresh run of every
// backend must match them, so a change to the numbers that nobody intended fails CI.
// The tolerance is --check's for double (1e-12): cpu reruns are bitwise equal on the machine
// that made the files; other compilers and GPUs may contract into FMAs and move the last bits.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "io/input_file.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"
#include "check/norms.hpp"

namespace heat {
namespace {

constexpr double kTolerance = 1e-12;
const std::string kGoldenDir = std::string(HEAT_SOURCE_DIR) + "/tests/golden";

struct GoldenCase {
  int order = 0;
  unsigned long long seed = 0;
  double alpha = 0, cfl = 0;
  int steps = 0;
  std::string file() const { return kGoldenDir + "/order" + std::to_string(order) + ".hdf"; }
};

std::vector<GoldenCase> read_cases() {
  std::ifstream in(kGoldenDir + "/cases.txt");
  std::vector<GoldenCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    GoldenCase c;
    fields >> c.order >> c.seed >> c.alpha >> c.cfl >> c.steps;
    if (fields) cases.push_back(c);
  }
  return cases;
}

void skip_without_hdf5() {
#if !defined(HEAT_HAVE_HDF5)
  GTEST_SKIP() << "this build has no HDF5, so the .hdf golden files cannot be read";
#endif
}

TEST(GoldenFiles, EveryOrderHasAFileAsDescribed) {
  skip_without_hdf5();
  const auto cases = read_cases();
  ASSERT_EQ(cases.size(), 4u) << "cases.txt: one line per order";
  for (const auto& c : cases) {
    const LoadedField golden = read_initial_field(c.file());
    EXPECT_EQ(golden.grid.nx, 24);
    EXPECT_EQ(golden.grid.ny, 24);
    EXPECT_EQ(golden.grid.nz, 24);
    EXPECT_EQ(golden.grid.hx, 1.0);
    EXPECT_FALSE(golden.stored_as_float) << c.file();
    ASSERT_TRUE(golden.has_run_state) << c.file();
    EXPECT_EQ(golden.step, c.steps) << c.file();
  }
}

class Golden : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    skip_without_hdf5();
    if (default_registry().find(GetParam())->uses_cuda) HEAT_REQUIRE_GPU();
  }
};

TEST_P(Golden, FreshRunMatchesEveryOrder) {
  const auto cases = read_cases();
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const LoadedField golden = read_initial_field(c.file());
    Problem p;
    p.grid = golden.grid;
    p.order = c.order;
    p.alpha = c.alpha;
    p.dt = dt_from_cfl(p.grid, p.alpha, c.cfl);
    Field<double> u = randn_field(p.grid, c.seed);
    auto solver = default_registry().find(GetParam())->make<double>(p, BackendOptions{});
    advance(*solver, u, c.steps);
    const FieldDifference d = compare_fields(u, golden.values, kTolerance, kTolerance);
    EXPECT_TRUE(d.pass()) << GetParam() << " against " << c.file() << ": " << describe(d);
  }
}

INSTANTIATE_TEST_SUITE_P(AllBackends, Golden, ::testing::ValuesIn(default_registry().names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(GoldenFiles, RunCommandReproducesThem) {
  // The whole product path (command line, run, HDF5 writer) of regenerate.sh, for one order.
  skip_without_hdf5();
  const auto cases = read_cases();
  ASSERT_FALSE(cases.empty());
  const GoldenCase& c = cases.back();
  const std::string dir = test::temp_directory("golden");
  const auto result = test::run_heatrk4({"run", "--n", "24", "--h", "1", "--order", std::to_string(c.order), "--seed",
                                         std::to_string(c.seed), "--alpha", std::to_string(c.alpha), "--cfl",
                                         std::to_string(c.cfl), "--steps", std::to_string(c.steps), "--init", "randn",
                                         "--precision", "double", "--backend", "cpu", "--format", "hdf5",
                                         "--output", dir, "--quiet"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  char name[32];
  std::snprintf(name, sizeof name, "/heat_%06d.hdf", c.steps);
  const FieldDifference d =
      compare_fields(read_initial_field(dir + name).values, read_initial_field(c.file()).values, kTolerance, kTolerance);
  EXPECT_TRUE(d.pass()) << describe(d);
}

}  // namespace
}  // namespace heat
