// The failure paths of snapshots and input files. Tests run as root, where permission bits stop
// nothing, so an unwritable place is a path below a regular file, and a full disk is `ulimit -f`
// with SIGXFSZ ignored (the write then fails with EFBIG, as it would with ENOSPC).
// After every failure: the right exit code, a message, no file left under a final name or a
// temporary one, and the snapshots written before byte for byte as they were.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "io/input_file.hpp"
#include "io/snapshots.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Every file of a directory with its bytes, to show that a failed run changed nothing.
std::map<std::string, std::string> snapshot_of(const std::string& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(directory))
    files[entry.path().filename().string()] = contents(entry.path());
  return files;
}

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

std::vector<std::string> small_run(const std::string& output, const std::string& format = "hdf5") {
  return {"--nx", "21", "--ny", "19", "--nz", "17", "--steps", "4", "--output-every", "2", "--backend", "cpu",
          "--init", "randn", "--quiet", "--format", format, "--output", output};
}

TEST(OutputFailures, AnOutputPathBelowARegularFileIsRefusedBeforeAnyWork) {
  const std::string dir = test::temp_directory("below-file");
  std::ofstream(dir + "/plain") << "a regular file";
  const auto r = run_heatrk4(small_run(dir + "/plain/out"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "Not a directory");
  EXPECT_EQ(snapshot_of(dir).size(), 1u);

  // The writer itself, where nothing checked the path first, fails at its first snapshot.
  OutputSpec spec;
  spec.directory = dir + "/plain/out";
  SnapshotWriter writer(spec, RunDescription{});
  EXPECT_THROW(writer.write(Field<float>(Grid{3, 3, 3}, 1.0f), 0, 0.0), RunError);
}

TEST(OutputFailures, AWriteThatFailsPartWayLeavesTheEarlierSnapshotsIntact) {
  for (const std::string format : {"hdf5", "vtk"}) {
    if (!output_format_unavailable_reason(parse_output_formats(format)).empty()) continue;
    const std::string dir = test::temp_directory("full-disk");
    // Both formats where VTK is tested, so the restart below has an .hdf file to start from.
    const auto first = run_heatrk4(small_run(dir, format == "hdf5" ? "hdf5" : "both"));
    ASSERT_EQ(first.exit_code, 0) << first.output;
    const auto before = snapshot_of(dir);
    ASSERT_GE(before.size(), 4u);  // steps 0, 2, 4 and the series file, of each format

    // The run again from its first snapshot into the same directory, with files limited to about
    // a quarter of a snapshot: the first snapshot fails part way through, as on a full disk. dash
    // counts ulimit -f in 512-byte blocks, bash in 1024: either way the limit falls inside the file.
    const std::string name = format == "hdf5" ? "heat_000000.hdf" : "heat_000000.vti";
    const auto blocks = fs::file_size(fs::path(dir) / name) / 4 / 512;
    const std::vector<std::string> restart = {"--restart", dir + "/heat_000000.hdf", "--steps", "4", "--output-every",
                                              "2", "--backend", "cpu", "--quiet", "--format", format};
    const auto second = run_heatrk4(restart, "trap '' XFSZ; ulimit -f " + std::to_string(blocks) + ";");
    EXPECT_EQ(second.exit_code, 3) << format << ":\n" << second.output;
    expect_mentions(second, "run failed");
    EXPECT_EQ(snapshot_of(dir), before) << format << ": a failed write changed or left files in " << dir;
  }
}

TEST(OutputFailures, AFailedSnapshotInTheMiddleKeepsTheOnesBefore) {
  // Library level, where the limit can change between snapshots: after two good snapshots, a
  // directory that has become a file path makes the third write fail.
  const std::string dir = test::temp_directory("middle");
  OutputSpec spec;
  spec.directory = dir;
  RunDescription run;
  run.problem.grid = {9, 9, 9, 1, 1, 1};
  SnapshotWriter writer(spec, run);
  const Field<float> u = field_cast<float>(randn_field(run.problem.grid, 3));
  writer.write(u, 0, 0.0);
  writer.write(u, 1, 0.5);
  const auto before = snapshot_of(dir);
  // A directory under the snapshot's own final name: rename() cannot replace it.
  fs::create_directory(fs::path(dir) / "heat_000002.hdf");
  EXPECT_THROW(writer.write(u, 2, 1.0), RunError);
  auto after = snapshot_of(dir);
  after.erase("heat_000002.hdf");
  EXPECT_EQ(after, before);
  EXPECT_EQ(writer.files().size(), 2u);
}

TEST(OutputFormats, VtkIsWrittenOrRefusedWithExitTwoWhereTheBuildHasNoVtk) {
  const std::string dir = test::temp_directory("vtk-format");
  const auto r = run_heatrk4(small_run(dir + "/out", "vtk"));
#ifdef HEAT_HAVE_VTK
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir + "/out/heat_000004.vti"));
  EXPECT_TRUE(fs::exists(dir + "/out/heat.pvd"));
#else
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "this build has no VTK");
  EXPECT_FALSE(fs::exists(dir + "/out"));
#endif
}

class InputFailures : public ::testing::Test {
 protected:
  std::string dir = test::temp_directory("input");

  // A valid snapshot of the given field, for the tests to damage.
  std::string write_snapshot(const Field<double>& u, const std::string& subdirectory = "good") {
    OutputSpec spec;
    spec.directory = dir + "/" + subdirectory;
    RunDescription run;  // a run's settings, as every heatrk4 snapshot records them
    run.problem.grid = {u.nx(), u.ny(), u.nz(), 0.1, 0.1, 0.1};
    run.cfl = 0.05;
    run.problem.dt = dt_from_cfl(run.problem.grid, run.problem.alpha, run.cfl);
    run.precision = "double";
    run.formats = "hdf5";
    SnapshotWriter(spec, run).write(u, 3, 0.25);
    return spec.directory + "/heat_000003.hdf";
  }

  test::CommandResult restart_from(const std::string& file, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--init", "file", "--init-file", file, "--steps", "1", "--backend", "cpu",
                                     "--quiet", "--output", dir + "/out"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_heatrk4(args);
  }

  void expect_refused(const test::CommandResult& r, const std::string& text) {
    EXPECT_EQ(r.exit_code, 2) << r.output;
    expect_mentions(r, text);
    EXPECT_FALSE(fs::exists(dir + "/out")) << "a refused run must write nothing";
  }
};

TEST_F(InputFailures, AMissingFile) { expect_refused(restart_from(dir + "/absent.hdf"), "no such file"); }

TEST_F(InputFailures, AFileThatIsNotHdf5) {
  std::ofstream(dir + "/text.hdf") << "not HDF5 at all\n";
  expect_refused(restart_from(dir + "/text.hdf"), "not an HDF5 file");
}

TEST_F(InputFailures, ATruncatedFile) {
  const std::string good = write_snapshot(randn_field(Grid{15, 15, 15}, 1));
  const std::string bytes = contents(good);
  std::ofstream(dir + "/cut.hdf", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const auto r = restart_from(dir + "/cut.hdf");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/out"));
}

TEST_F(InputFailures, AMissingArrayNamesTheOnesThere) {
  const std::string good = write_snapshot(randn_field(Grid{15, 15, 15}, 1));
  expect_refused(restart_from(good, {"--init-array", "temperature"}), "no point array 'temperature' (the file has: u)");
}

TEST_F(InputFailures, NonFiniteValuesAreRefusedWithTheirPlace) {
  Field<double> u = randn_field(Grid{15, 15, 15}, 1);
  u(4, 5, 6) = std::nan("");
  expect_refused(restart_from(write_snapshot(u)), "non-finite values, the first at (4,5,6)");
}

TEST_F(InputFailures, AShapeThatIsNot3D) {
  expect_refused(restart_from(write_snapshot(Field<double>(15, 15, 1, 1.0))), "a 3D grid");
}

TEST_F(InputFailures, AGridTooSmallForTheOrder) {
  const std::string small = write_snapshot(randn_field(Grid{7, 7, 7}, 1));
  const auto r = restart_from(small, {"--order", "8"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/out"));
  EXPECT_EQ(restart_from(small, {"--order", "4", "--format", "none"}).exit_code, 0);
}

TEST_F(InputFailures, AGridOptionThatContradictsTheFile) {
  const auto r = restart_from(write_snapshot(randn_field(Grid{15, 15, 15}, 1)), {"--nx", "16"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "--nx");
}

TEST_F(InputFailures, LibraryErrorsAreInputErrors) {
  EXPECT_THROW(read_initial_field(dir + "/absent.hdf"), InputError);
  EXPECT_THROW(read_image_file_info(dir), InputError);  // a directory
  EXPECT_THROW(read_point_array(write_snapshot(randn_field(Grid{9, 9, 9}, 1)), "v"), InputError);
}

}  // namespace
}  // namespace heat
