// Files a run or compare reads: a snapshot whose /heatrk4 step or WholeExtent does not
// fit is exit 2, a grid option that clashes with the file is named in integers, and compare
// treats NaN at the same points as equal and shows each file's step and time.
#ifdef HEAT_HAVE_HDF5
#include <gtest/gtest.h>

#include <cmath>

#include "io/hdf5_support.hpp"
#include "io/run_settings.hpp"
#include "io/snapshots.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

class InputFiles : public ::testing::Test {
 protected:
  std::string dir = test::temp_directory("input-files");

  std::string write(const std::string& name, const Field<double>& u, int step = 0, double time = 0.0) {
    OutputSpec spec;
    spec.directory = dir + "/" + name;
    RunDescription run;  // a run's settings, as every heatrk4 snapshot records them
    run.problem.grid = {u.nx(), u.ny(), u.nz(), 0.1, 0.1, 0.1};
    run.cfl = 0.05;
    run.problem.dt = dt_from_cfl(run.problem.grid, run.problem.alpha, run.cfl);
    run.precision = "double";
    run.formats = "hdf5";
    SnapshotWriter(spec, run).write(u, step, time);
    char file[32];
    std::snprintf(file, sizeof file, "/heat_%06d.hdf", step);
    return spec.directory + file;
  }

  // Replaces attribute `name` of `group` with float64 values, as a file from elsewhere may hold.
  static void set_attribute(const std::string& path, const char* group, const char* name, const std::vector<double>& values) {
    h5::initialize_library();
    h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    ASSERT_TRUE(file.valid()) << path;
    h5::Handle g(H5Gopen2(file.get(), group, H5P_DEFAULT), H5Gclose);
    ASSERT_TRUE(g.valid()) << group;
    ASSERT_GE(H5Adelete(g.get(), name), 0) << name;
    ASSERT_GE(values.size() == 1 ? h5::write_scalar_attribute(g.get(), name, values[0])
                                 : h5::write_attribute(g.get(), name, values),
              0);
  }

  test::CommandResult restart(const std::string& file, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--init", "file", "--init-file", file, "--steps", "2", "--backend", "cpu",
                                     "--order", "2", "--quiet", "--output", dir + "/restart"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_heatrk4(args);
  }
};

// A file written before output_every and format were stored restarts as before (those options
// as given); a stored value no run writes is refused naming it.
TEST_F(InputFiles, OutputEveryAndFormatAreOptionalAndCheckedWhereStored) {
  const Field<double> u = randn_field(Grid{9, 8, 7}, 3);
  const std::string older = write("older", u, 4, 0.5);
  {
    h5::initialize_library();
    h5::Handle file(H5Fopen(older.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    h5::Handle g(H5Gopen2(file.get(), "heatrk4", H5P_DEFAULT), H5Gclose);
    ASSERT_GE(H5Adelete(g.get(), "output_every"), 0);
    ASSERT_GE(H5Adelete(g.get(), "format"), 0);
  }
  const StoredRunSettings settings = read_stored_run_settings(older);
  EXPECT_FALSE(settings.output_every.has_value());
  EXPECT_FALSE(settings.format.has_value());
  const auto r = restart(older, {"--output-every", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("--output-every 1 overrides"), std::string::npos) << r.output;

  for (double every : {-1.0, 2.5, 1e10}) {
    const std::string file = write("every", u, 4, 0.5);
    set_attribute(file, "heatrk4", "output_every", {every});
    const auto bad = restart(file);
    EXPECT_EQ(bad.exit_code, 2) << every << ":\n" << bad.output;
    expect_mentions(bad, "/heatrk4: output_every = ");
    expect_mentions(bad, "is not a whole number from 0 to 2147483647");
  }
  const std::string file = write("format", u, 4, 0.5);
  {
    h5::Handle handle(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    h5::Handle g(H5Gopen2(handle.get(), "heatrk4", H5P_DEFAULT), H5Gclose);
    ASSERT_GE(H5Adelete(g.get(), "format"), 0);
    ASSERT_GE(h5::write_string_attribute(g.get(), "format", "hdf5,tape"), 0);
  }
  const auto bad = restart(file);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  expect_mentions(bad, "/heatrk4: ");
  expect_mentions(bad, "tape");
}

TEST_F(InputFiles, AStepThatDoesNotFitIsRefused) {
  const Field<double> u = randn_field(Grid{9, 8, 7}, 3);
  for (double step : {2147483647.0, 1e300, 2.7, -1.0}) {
    const std::string file = write("step", u, 4, 0.5);
    set_attribute(file, "heatrk4", "step", {step});
    const auto r = restart(file);
    EXPECT_EQ(r.exit_code, 2) << step << ":\n" << r.output;
    expect_mentions(r, step == 2147483647.0 ? "past 2147483647" : "is not a whole number from 0 to 2147483647");
  }
  // The largest step that leaves room for the run's own steps is taken.
  const std::string file = write("step", u, 4, 0.5);
  set_attribute(file, "heatrk4", "step", {2147483645.0});
  EXPECT_EQ(restart(file, {"--format", "none"}).exit_code, 0);
}

TEST_F(InputFiles, AWholeExtentThatDoesNotFitAnIntIsRefused) {
  const Field<double> u = randn_field(Grid{9, 8, 7}, 3);
  const std::vector<std::vector<double>> extents = {
      {0, 1e12, 0, 7, 0, 6}, {0, 8.5, 0, 7, 0, 6}, {0, 2147483647, 0, 7, 0, 6}, {0, 4194303, 0, 2097151, 0, 2097151}};
  for (const auto& extent : extents) {
    const std::string file = write("extent", u);
    set_attribute(file, "VTKHDF", "WholeExtent", extent);
    const auto r = restart(file);
    EXPECT_EQ(r.exit_code, 2) << extent[1] << ":\n" << r.output;
    expect_mentions(r, "WholeExtent");
    EXPECT_EQ(r.output.find("-2147483648"), std::string::npos) << r.output;
    EXPECT_EQ(run_heatrk4({"compare", file, file}).exit_code, 2);
  }
}

// Replaces the string attribute Type of /VTKHDF by an array of `count` copies of "ImageData",
// fixed-length or variable-length strings.
void set_type_strings(const std::string& path, hsize_t count, bool variable_length) {
  h5::initialize_library();
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  ASSERT_TRUE(file.valid()) << path;
  h5::Handle group(H5Gopen2(file.get(), "VTKHDF", H5P_DEFAULT), H5Gclose);
  ASSERT_GE(H5Adelete(group.get(), "Type"), 0);
  h5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  ASSERT_GE(H5Tset_size(type.get(), variable_length ? H5T_VARIABLE : 9), 0);
  h5::Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
  h5::Handle attribute(H5Acreate2(group.get(), "Type", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  ASSERT_TRUE(attribute.valid());
  const std::string fixed = [&] {
    std::string text;
    for (hsize_t n = 0; n < count; ++n) text += "ImageData";
    return text;
  }();
  const std::vector<const char*> variable(count, "ImageData");
  ASSERT_GE(H5Awrite(attribute.get(), type.get(), variable_length ? static_cast<const void*>(variable.data()) : fixed.data()),
            0);
}

// HDF5 reads every value an attribute holds into the reader's buffer: a string attribute of many
// values (a corrupt or foreign file) overran heatrk4's buffer of one, which the fuzz target found.
TEST_F(InputFiles, AStringAttributeOfManyValuesIsRefused) {
  for (bool variable_length : {false, true}) {
    const std::string file = write("strings", randn_field(Grid{9, 8, 7}, 3));
    set_type_strings(file, 4000, variable_length);
    const auto r = restart(file);
    EXPECT_EQ(r.exit_code, 2) << "variable length " << variable_length << ":\n" << r.output;
    expect_mentions(r, "attribute Type has 4000 values, expected 1");
    EXPECT_EQ(run_heatrk4({"compare", file, file}).exit_code, 2);
  }
}

TEST_F(InputFiles, AGridClashIsNamedInIntegers) {
  const std::string file = write("clash", randn_field(Grid{12, 12, 12}, 3));
  const auto r = restart(file, {"--n", "32"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "--n 32 contradicts " + file + " (12)");
}

TEST_F(InputFiles, CompareCountsNanAtTheSamePointsAsEqualAndShowsStepAndTime) {
  Field<double> u = randn_field(Grid{11, 9, 7}, 5);
  u(3, 4, 5) = NAN;
  u(1, 2, 3) = -INFINITY;
  const auto same = run_heatrk4({"compare", write("a", u, 40, 0.25), write("b", u, 30, 0.125)});
  EXPECT_EQ(same.exit_code, 0) << same.output;
  expect_mentions(same, "AGREE");
  expect_mentions(same, "max abs 0.000e+00");
  expect_mentions(same, "NaN/Inf at the same points in both: 2, counted as equal");
  expect_mentions(same, "(step 40, time 0.25)");
  expect_mentions(same, "(step 30, time 0.125)");
  // A NaN where the other file has a number still disagrees.
  Field<double> v = u;
  v(3, 4, 5) = 1.0;
  const auto differ = run_heatrk4({"compare", write("c", u), write("d", v)});
  EXPECT_EQ(differ.exit_code, 1) << differ.output;
  expect_mentions(differ, "NaN/Inf points: A 1, B 0");
}

}  // namespace
}  // namespace heat
#endif
