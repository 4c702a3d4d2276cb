// heatrk4 compare: AGREE (exit 0), DISAGREE with the worst point (exit 1), and exit 2 for grids
// that differ or files that cannot be read.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "io/snapshots.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

class Compare : public ::testing::Test {
 protected:
  std::string dir = test::temp_directory("compare");

  template <typename T>
  std::string write(const std::string& name, const Field<T>& u, double h = 0.1) {
    OutputSpec spec;
    spec.directory = dir + "/" + name;
    RunDescription run;
    run.problem.grid = {u.nx(), u.ny(), u.nz(), h, h, h};
    SnapshotWriter(spec, run).write(u, 0, 0.0);
    return spec.directory + "/heat_000000.hdf";
  }
};

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

TEST_F(Compare, IdenticalFilesAgree) {
  const Field<double> u = randn_field(Grid{11, 9, 7}, 5);
  const auto r = run_heatrk4({"compare", write("a", u), write("b", u)});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "max abs 0.000e+00");
  expect_mentions(r, "NaN/Inf points: A 0, B 0");
  expect_mentions(r, "AGREE");
}

TEST_F(Compare, FloatAgainstDoubleAgreesAtFloatTolerance) {
  const Field<double> u = randn_field(Grid{11, 9, 7}, 5);
  const auto r = run_heatrk4({"compare", write("float", field_cast<float>(u)), write("double", u)});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "float vs double, rtol 1e-06, atol 1e-06");
  // The same pair fails a tolerance tighter than float rounding.
  const auto strict = run_heatrk4({"compare", dir + "/float/heat_000000.hdf", dir + "/double/heat_000000.hdf",
                                   "--rtol", "1e-12", "--atol", "1e-12"});
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
}

TEST_F(Compare, ADifferenceDisagreesAndNamesTheWorstPoint) {
  const Field<double> u = randn_field(Grid{11, 9, 7}, 5);
  Field<double> v = u;
  v(3, 4, 5) += 0.5;
  v(6, 1, 2) = INFINITY;
  const auto r = run_heatrk4({"compare", write("a", v), write("b", u)});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  expect_mentions(r, "DISAGREE");
  expect_mentions(r, "NaN/Inf points: A 1, B 0");
  expect_mentions(r, "points outside tolerance: 2 of 693");
  expect_mentions(r, "at (3,4,5)");
  expect_mentions(r, "worst at (6,1,2)");
}

TEST_F(Compare, DifferentGridsExitTwo) {
  const auto shape = run_heatrk4({"compare", write("a", randn_field(Grid{11, 9, 7}, 5)),
                                  write("b", randn_field(Grid{11, 9, 9}, 5))});
  EXPECT_EQ(shape.exit_code, 2) << shape.output;
  expect_mentions(shape, "the grids differ");
  const Field<double> u = randn_field(Grid{11, 9, 7}, 5);
  const auto spacing = run_heatrk4({"compare", write("c", u, 0.1), write("d", u, 0.2)});
  EXPECT_EQ(spacing.exit_code, 2) << spacing.output;
  expect_mentions(spacing, "the grids differ");
}

TEST_F(Compare, UnreadableFilesExitTwo) {
  const std::string good = write("a", randn_field(Grid{11, 9, 7}, 5));
  std::ofstream(dir + "/text.hdf") << "not HDF5\n";
  for (const std::string bad : {dir + "/absent.hdf", dir + "/text.hdf"}) {
    const auto r = run_heatrk4({"compare", good, bad});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    expect_mentions(r, bad);
  }
  EXPECT_EQ(run_heatrk4({"compare", good}).exit_code, 2);  // B is required
}

}  // namespace
}  // namespace heat
