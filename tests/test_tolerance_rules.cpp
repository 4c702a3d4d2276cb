// The rules docs/design.md ("Tolerances") states for compare and --check, each held so that one
// changed line of it fails: |x - ref| <= atol + rtol*|ref| (both parts, each in its place), the
// precision's default tolerances (1e-12 for double files and runs, 1e-6 where float is involved),
// and a NaN, or an Inf of the same sign, at the same point of both files as equal.
#include <gtest/gtest.h>

#include <cmath>

#include "core/initial_conditions.hpp"
#include "io/hdf5_snapshot.hpp"
#include "io/snapshots.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

class ToleranceRules : public ::testing::Test {
 protected:
  std::string dir = test::temp_directory("tolerance_rules");
  Field<double> u = randn_field(Grid{9, 8, 7}, 11);

  template <typename T>
  std::string write(const std::string& name, const Field<T>& field) {
    OutputSpec spec;
    spec.directory = dir + "/" + name;
    RunDescription run;
    run.problem.grid = {field.nx(), field.ny(), field.nz(), 0.1, 0.1, 0.1};
    SnapshotWriter(spec, run).write(field, 0, 0.0);
    return spec.directory + "/heat_000000.hdf";
  }
  // compare of u against u with `value` at one point, and `reference` at that point in u.
  int exit_code_with(double value, double reference, std::vector<std::string> tolerances = {}) {
    Field<double> a = u, b = u;
    a(4, 3, 2) = value;
    b(4, 3, 2) = reference;
    std::vector<std::string> args = {"compare", write("a", a), write("b", b)};
    args.insert(args.end(), tolerances.begin(), tolerances.end());
    const auto r = run_heatrk4(args);
    return r.exit_code;
  }
};

TEST_F(ToleranceRules, TheBoundIsTheAbsoluteTolerancePlusTheRelativeOneTimesTheReference) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  // atol 1e-3 and rtol 1e-2 at a reference of 2: the bound is 0.021. Neither part alone (0.001,
  // 0.02), their larger one, nor the two swapped (0.012) reaches 0.0205.
  const std::vector<std::string> tolerances = {"--atol", "1e-3", "--rtol", "1e-2"};
  EXPECT_EQ(exit_code_with(2.0205, 2.0, tolerances), 0);
  EXPECT_EQ(exit_code_with(2.0215, 2.0, tolerances), 1);
  // The relative part scales with the reference, file B: A 2 against B 2.0212 is within
  // 0.001 + 0.020212, though beyond 0.001 + 0.02 that A's value would give.
  EXPECT_EQ(exit_code_with(2.0, 2.0212, tolerances), 0);
}

TEST_F(ToleranceRules, DoubleFilesAreHeldToDoubleDefaults) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  Field<double> b = u;
  b(4, 3, 2) += 1e-9;  // far within float's 1e-6, far beyond double's 1e-12
  const auto doubles = run_heatrk4({"compare", write("a", u), write("b", b)});
  EXPECT_EQ(doubles.exit_code, 1) << doubles.output;
  expect_mentions(doubles, "double vs double, rtol 1e-12, atol 1e-12");
  const auto mixed = run_heatrk4({"compare", write("f", field_cast<float>(u)), write("d", u)});
  EXPECT_EQ(mixed.exit_code, 0) << mixed.output;
  expect_mentions(mixed, "float vs double, rtol 1e-06, atol 1e-06");
}

TEST_F(ToleranceRules, NonFiniteValuesAgreeOnlyWhereTheyAreTheSame) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  EXPECT_EQ(exit_code_with(INFINITY, INFINITY), 0);
  EXPECT_EQ(exit_code_with(-INFINITY, -INFINITY), 0);
  EXPECT_EQ(exit_code_with(NAN, NAN), 0);
  EXPECT_EQ(exit_code_with(INFINITY, -INFINITY), 1) << "+Inf and -Inf were taken as equal";
  EXPECT_EQ(exit_code_with(NAN, INFINITY), 1);
  EXPECT_EQ(exit_code_with(INFINITY, 1e308), 1);
}

TEST(CheckTolerance, ADoubleRunIsCheckedAtDoubleTolerance) {
  const auto doubles = run_heatrk4({"--n", "12", "--steps", "1", "--backend", "cpu", "--precision", "double", "--check",
                                    "--format", "none"});
  EXPECT_EQ(doubles.exit_code, 0) << doubles.output;
  expect_mentions(doubles, "(rtol 1e-12, atol 1e-12)");
  const auto floats = run_heatrk4({"--n", "12", "--steps", "1", "--backend", "cpu", "--check", "--format", "none"});
  EXPECT_EQ(floats.exit_code, 0) << floats.output;
  expect_mentions(floats, "(rtol 1e-06, atol 1e-06)");
  // A given tolerance is the one used, each in its place.
  const auto given = run_heatrk4({"--n", "12", "--steps", "1", "--backend", "cpu", "--check", "--format", "none",
                                  "--rtol", "3e-5", "--atol", "2e-7"});
  expect_mentions(given, "(rtol 3e-05, atol 2e-07)");
}

}  // namespace
}  // namespace heat
