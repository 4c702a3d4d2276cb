// Snapshots read back exactly: write with SnapshotWriter, read with read_initial_field, compare
// bitwise, in float and double, on odd grid sizes, with and without gzip. Also the series files.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/input_file.hpp"
#include "io/series_files.hpp"
#include "io/snapshots.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

// Unequal odd sizes and spacings: a transposed axis or a swapped spacing would show.
const Grid odd_grid{13, 9, 7, 0.5, 0.25, 0.125};

RunDescription run_on(const Grid& g, const char* precision) {
  RunDescription run;
  run.problem.grid = g;
  run.problem.dt = 1e-3;
  run.precision = precision;
  run.backend = "cpu";
  run.init = "randn";
  return run;
}

template <typename T>
Field<T> random_field(const Grid& g, std::uint64_t seed) {
  return field_cast<T>(randn_field(g, seed));
}

using test::read_text;

bool has_temporary_files(const std::string& directory) {
  for (const auto& entry : fs::directory_iterator(directory))
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) return true;
  return false;
}

template <typename T>
class RoundTrip : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RoundTrip, Precisions);

TYPED_TEST(RoundTrip, FieldGridAndRunStateReadBackBitwise) {
  using T = TypeParam;
  for (int compress : {0, 1, 9}) {
    const std::string dir = test::temp_directory("roundtrip");
    OutputSpec spec;
    spec.directory = dir;
    spec.compress = compress;
    SnapshotWriter writer(spec, run_on(odd_grid, sizeof(T) == 4 ? "float" : "double"));
    const Field<T> u = random_field<T>(odd_grid, 7);
    writer.write(u, 42, 0.3125);

    const LoadedField loaded = read_initial_field(dir + "/heat_000042.hdf");
    ASSERT_EQ(loaded.values.size(), u.size());
    const Field<T> back = field_cast<T>(loaded.values);
    EXPECT_EQ(std::memcmp(back.data(), u.data(), u.size() * sizeof(T)), 0) << "gzip level " << compress;
    EXPECT_EQ(loaded.stored_as_float, sizeof(T) == 4);
    EXPECT_EQ(loaded.grid.nx, 13);
    EXPECT_EQ(loaded.grid.ny, 9);
    EXPECT_EQ(loaded.grid.nz, 7);
    EXPECT_EQ(loaded.grid.hx, 0.5);
    EXPECT_EQ(loaded.grid.hy, 0.25);
    EXPECT_EQ(loaded.grid.hz, 0.125);
    EXPECT_TRUE(loaded.has_run_state);
    EXPECT_EQ(loaded.step, 42);
    EXPECT_EQ(loaded.time, 0.3125);
    EXPECT_FALSE(has_temporary_files(dir));
  }
}

// Compressed snapshots are deflated chunk by chunk on every core and written with HDF5's direct
// chunk write; HDF5's own filters must decode them. Grids of several chunks with partial edge
// chunks: rows of x-rows (a plane above the 4 MiB chunk target) and stacks of planes.
TYPED_TEST(RoundTrip, ChunksCompressedInParallelReadBackBitwiseThroughHdf5sFilters) {
  using T = TypeParam;
  const Grid grids[] = {{1031 * 4 / int(sizeof(T)), 1030, 3, 1, 1, 1}, {300, 301, 25, 1, 1, 1}};
  for (const Grid& g : grids)
    for (int compress : {1, 6}) {
      const std::string dir = test::temp_directory("chunks");
      OutputSpec spec;
      spec.directory = dir;
      spec.compress = compress;
      // A smooth field with noise in its last bits, as a solution is: compressible, but not trivially.
      Field<T> u = field_cast<T>(gaussian_field(g));
      const Field<double> noise = randn_field(g, 3);
      for (std::size_t n = 0; n < u.size(); ++n) u.data()[n] += T(1e-6 * noise.data()[n]);
      SnapshotWriter(spec, run_on(g, sizeof(T) == 4 ? "float" : "double")).write(u, 1, 0.5);
      const PointArray back = read_point_array(dir + "/heat_000001.hdf", "u");
      const Field<T> values = field_cast<T>(back.values);
      ASSERT_EQ(values.size(), u.size());
      EXPECT_EQ(std::memcmp(values.data(), u.data(), u.size() * sizeof(T)), 0)
          << g.nx << "x" << g.ny << "x" << g.nz << ", gzip level " << compress;
      EXPECT_LT(fs::file_size(dir + "/heat_000001.hdf"), u.size() * sizeof(T)) << "not compressed";
    }
}

TYPED_TEST(RoundTrip, PointOrderIsXFastest) {
  using T = TypeParam;
  const std::string dir = test::temp_directory("order");
  Field<T> u(odd_grid);
  for (int k = 0; k < u.nz(); ++k)
    for (int j = 0; j < u.ny(); ++j)
      for (int i = 0; i < u.nx(); ++i) u(i, j, k) = T(i + 100 * j + 10000 * k);
  OutputSpec spec;
  spec.directory = dir;
  SnapshotWriter(spec, run_on(odd_grid, "x")).write(u, 0, 0.0);
  const PointArray back = read_point_array(dir + "/heat_000000.hdf", "u");
  EXPECT_EQ(back.values(12, 0, 0), 12);
  EXPECT_EQ(back.values(0, 8, 0), 800);
  EXPECT_EQ(back.values(3, 2, 6), 60203);
}

TEST(Series, KeepsEverySnapshotWithItsTimeAndFilesAreListed) {
  const std::string dir = test::temp_directory("series");
  OutputSpec spec;
  spec.directory = dir;
  spec.formats = {OutputFormat::Hdf5, OutputFormat::Vtk};
  if (!output_format_unavailable_reason(spec.formats).empty()) spec.formats = OutputFormat::Hdf5;
  SnapshotWriter writer(spec, run_on(odd_grid, "float"));
  const Field<float> u = random_field<float>(odd_grid, 1);
  writer.write(u, 0, 0.0);
  writer.write(u, 5, 0.1);
  writer.write(u, 10, 0.2);

  const auto hdf = read_hdf_series_entries(dir + "/heat.hdf.series");
  ASSERT_EQ(hdf.size(), 3u);
  EXPECT_EQ(hdf[1].name, "heat_000005.hdf");
  EXPECT_EQ(hdf[1].time, 0.1);  // %.17g: the time read back is the time written
  EXPECT_EQ(hdf[2].step, 10);
  EXPECT_NE(read_text(dir + "/heat.hdf.series").find("\"file-series-version\": \"1.0\""), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/heat_000010.hdf"));

  std::size_t expected_files = 3;
  if (spec.formats.has(OutputFormat::Vtk)) {
    const auto pvd = read_pvd_entries(dir + "/heat.pvd");
    ASSERT_EQ(pvd.size(), 3u);
    EXPECT_EQ(pvd[2].name, "heat_000010.vti");
    EXPECT_EQ(pvd[2].time, 0.2);
    EXPECT_GT(fs::file_size(dir + "/heat_000010.vti"), u.size() * sizeof(float));
    expected_files = 6;
  }
  EXPECT_EQ(writer.files().size(), expected_files);
  EXPECT_FALSE(has_temporary_files(dir));
}

TEST(Series, ARestartIntoTheSameDirectoryKeepsTheEarlierSnapshots) {
  const std::string dir = test::temp_directory("restart-series");
  OutputSpec spec;
  spec.directory = dir;
  const Field<float> u = random_field<float>(odd_grid, 1);
  {
    SnapshotWriter first(spec, run_on(odd_grid, "float"));
    first.write(u, 0, 0.0);
    first.write(u, 4, 0.4);
  }
  RunDescription restarted = run_on(odd_grid, "float");
  restarted.start_step = 4;
  SnapshotWriter second(spec, restarted);
  second.write(u, 4, 0.4);
  second.write(u, 10, 1.0);
  const auto entries = read_hdf_series_entries(dir + "/heat.hdf.series");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].step, 0);
  EXPECT_EQ(entries[1].step, 4);
  EXPECT_EQ(entries[2].step, 10);
}

TEST(SnapshotNames, StepNumbersRoundTrip) {
  EXPECT_EQ(snapshot_name(42, "hdf"), "heat_000042.hdf");
  EXPECT_EQ(snapshot_name(1234567, "vti"), "heat_1234567.vti");
  EXPECT_EQ(step_from_snapshot_name("heat_000042.hdf"), 42);
  EXPECT_EQ(step_from_snapshot_name("heat_000042.hdf.tmp-12"), -1);
  EXPECT_EQ(step_from_snapshot_name("other.hdf"), -1);
}

// The message of the InputError that parse_output_formats(text) throws; empty where it throws none.
std::string refusal(const std::string& text) {
  try {
    parse_output_formats(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST(OutputFormats, ParseAndRefuse) {
  const OutputFormats hdf5_and_vtk{OutputFormat::Hdf5, OutputFormat::Vtk};
  EXPECT_EQ(parse_output_formats("hdf5"), OutputFormats(OutputFormat::Hdf5));
  EXPECT_EQ(parse_output_formats("vtk"), OutputFormats(OutputFormat::Vtk));
  EXPECT_EQ(parse_output_formats("both"), hdf5_and_vtk);
  EXPECT_TRUE(parse_output_formats("none").empty());
  EXPECT_EQ(refusal("netcdf"), "--format netcdf: netcdf is not a format: use hdf5, vtk, a comma list of them such as "
                               "hdf5,vtk, or none");
  EXPECT_TRUE(output_format_unavailable_reason(OutputFormat::Hdf5).empty());
  EXPECT_TRUE(output_format_unavailable_reason(OutputFormats{}).empty());
#ifndef HEAT_HAVE_VTK
  EXPECT_NE(output_format_unavailable_reason(OutputFormat::Vtk).find("no VTK"), std::string::npos);
#endif
}

// A comma list is the set of its formats, in any order; the set's name lists them in the table's order.
TEST(OutputFormats, ACommaListIsTheSetOfItsFormats) {
  const OutputFormats hdf5_and_vtk{OutputFormat::Hdf5, OutputFormat::Vtk};
  EXPECT_EQ(parse_output_formats("hdf5,vtk"), hdf5_and_vtk);
  EXPECT_EQ(parse_output_formats("vtk,hdf5"), hdf5_and_vtk);
  EXPECT_EQ(parse_output_formats("vtk,hdf5").has(OutputFormat::Hdf5), true);
  EXPECT_EQ(parse_output_formats("vtk").has(OutputFormat::Hdf5), false);
  EXPECT_EQ(output_formats_name(parse_output_formats("vtk,hdf5")), "hdf5,vtk");
  EXPECT_EQ(output_formats_name(parse_output_formats("both")), "hdf5,vtk");
  EXPECT_EQ(output_formats_name(parse_output_formats("vtk")), "vtk");
  EXPECT_EQ(output_formats_name(parse_output_formats("none")), "none");
}

// Every refusal names the whole value and what is wrong with it.
TEST(OutputFormats, ACommaListWithAnEmptyItemAnUnknownNameOrARepeatIsRefused) {
  for (const std::string empty : {"", ",", "hdf5,", ",vtk", "hdf5,,vtk"}) {
    const std::string message = refusal(empty);
    EXPECT_NE(message.find("--format " + empty + " has an empty item"), std::string::npos)
        << "'" << empty << "': " << message;
  }
  EXPECT_NE(refusal("hdf5,netcdf").find("--format hdf5,netcdf: netcdf is not a format"), std::string::npos);
  EXPECT_NE(refusal("HDF5").find("HDF5 is not a format"), std::string::npos);
  EXPECT_NE(refusal("hdf5 ,vtk").find("hdf5  is not a format"), std::string::npos);
  EXPECT_NE(refusal("hdf5,none").find("none is not a format in a list (it stands alone)"), std::string::npos);
  EXPECT_NE(refusal("both,vtk").find("both is not a format in a list"), std::string::npos);
  EXPECT_NE(refusal("hdf5,vtk,hdf5").find("--format hdf5,vtk,hdf5 names hdf5 twice"), std::string::npos);
  EXPECT_NE(refusal("vtk,vtk").find("names vtk twice"), std::string::npos);
}

// On the command line: a refused list ends the run with exit 2 before any work, naming the value.
TEST(OutputFormats, ARefusedListEndsTheRunWithExitTwo) {
  const std::string dir = test::temp_directory("format-list") + "/out";
  for (const std::string bad : {"hdf5,", "hdf5,hdf5", "hdf5,gif"}) {
    const auto r = test::run_heatrk4({"--n", "9", "--steps", "1", "--backend", "cpu", "--quiet", "--format", bad,
                                      "--output", dir});
    EXPECT_EQ(r.exit_code, 2) << bad << ":\n" << r.output;
    EXPECT_NE(r.output.find("--format " + bad), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir)) << bad;
  }
}

TEST(OutputFormats, NoneWritesNothingAndCreatesNoDirectory) {
  const std::string dir = test::temp_directory("none") + "/not-made";
  OutputSpec spec;
  spec.directory = dir;
  spec.formats = {};
  SnapshotWriter writer(spec, run_on(odd_grid, "float"));
  writer.write(random_field<float>(odd_grid, 1), 1, 0.1);
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_TRUE(writer.files().empty());
}

}  // namespace
}  // namespace heat
