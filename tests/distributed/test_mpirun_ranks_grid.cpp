// Ranks on a grid over x, y and z under mpirun (docs/design.md §7, --ranks-grid): cpu ranks on
// 2x2x2, 1x2x1 and 2x1x1 write bitwise the snapshots (each rank's slab file its box) and the
// monitors.csv of one process, ghost points included, at orders 2 and 8, with layer faces and with
// a mixed set (periodic x, a temperature z face, probes); a snapshot of one process, of a 1x1x2 run
// and of a 2x2x2 run restarts on 2x2x1 as the straight run goes on, each rank reading only its
// box; a grid that does not fit is exit 2 before any work.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <array>
#include <string>
#include <vector>

#include "mpirun_support.hpp"
#include "parallel/decomposition.hpp"

namespace heat {
namespace {

using test::bitwise_differences;
using test::expect_same_snapshots;
using test::read_text;
using test::run_on;

const std::vector<std::string> kMixedFaces = {"--bc-x-low", "periodic", "--bc-x-high", "periodic", "--bc-y-low",
                                              "flux:2", "--bc-y-high", "convective:3,-0.5", "--bc-z-low",
                                              "temperature:0.75", "--bc-z-high", "insulated"};
// Probes across the boxes' cuts along x, y and z, every step (each a regroup into planes).
const std::vector<std::string> kMonitors = {"--monitor-every", "1", "--probe", "0.5,0.5,0.5", "--probe",
                                            "0.31,0.62,0.27"};

// The shape (z, y, x) of the dataset /u of the HDF5 file `path`.
std::array<hsize_t, 3> dataset_shape(const std::string& path) {
  std::array<hsize_t, 3> dims{};
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t dataset = file >= 0 ? H5Dopen2(file, "u", H5P_DEFAULT) : -1;
  const hid_t space = dataset >= 0 ? H5Dget_space(dataset) : -1;
  if (space >= 0 && H5Sget_simple_extent_ndims(space) == 3) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  if (space >= 0) H5Sclose(space);
  if (dataset >= 0) H5Dclose(dataset);
  if (file >= 0) H5Fclose(file);
  return dims;
}

// Periodic x, as kMixedFaces has it: the boxes' layout on a grid depends on which axes wrap.
Boundaries periodic_x() {
  Boundaries b;
  b[0].kind = b[1].kind = BoundaryKind::Periodic;
  return b;
}

// Tiny and few steps (8 ranks share 2 cores): rows along x as long as the widest vectors on one
// rank or two (the cpu backend's bits hold only where every rank's rows take the same vectors),
// odd sizes so that the splits are uneven.
std::vector<std::string> run_args(int order, const std::vector<std::string>& faces, const std::string& output,
                                  int steps = 4) {
  std::vector<std::string> args = {"--backend", "cpu", "--order", std::to_string(order), "--nx", "41", "--ny", "19",
                                   "--nz", "21", "--init", "randn", "--cfl", "0.2", "--steps", std::to_string(steps),
                                   "--output-every", "2", "--output", output, "--quiet"};
  args.insert(args.end(), faces.begin(), faces.end());
  return args;
}

void expect_grid_same_as_one_rank(const std::string& rank_grid, int ranks) {
  for (int order : {2, 8})
    for (const auto& faces : {std::vector<std::string>{}, kMixedFaces}) {
      const std::string label = rank_grid + " order " + std::to_string(order) + (faces.empty() ? " layer" : " mixed");
      std::vector<std::string> with_monitors = faces;
      with_monitors.insert(with_monitors.end(), kMonitors.begin(), kMonitors.end());
      const std::string one = test::temp_directory("grid-one");
      ASSERT_EQ(run_on(1, run_args(order, with_monitors, one)).exit_code, 0) << label;
      const std::string many = test::temp_directory("grid-" + rank_grid);
      std::vector<std::string> args = run_args(order, with_monitors, many);
      args.insert(args.end(), {"--ranks-grid", rank_grid});
      const auto result = run_on(ranks, args);
      ASSERT_EQ(result.exit_code, 0) << label << ":\n" << result.output;
      expect_same_snapshots(one, many, label);
      EXPECT_EQ(read_text(many + "/monitors.csv"), read_text(one + "/monitors.csv")) << label;
      EXPECT_GT(read_text(one + "/monitors.csv").size(), 0u) << label;
      // Each rank's slab file holds its part of its box, not a run of whole planes.
      const Grid grid{41, 19, 21};
      RankGrid layout;
      ASSERT_EQ(std::sscanf(rank_grid.c_str(), "%dx%dx%d", &layout.ranks[0], &layout.ranks[1], &layout.ranks[2]), 3);
      const Slab last = decompose(grid, order, layout, ranks - 1, GhostScheme::PerStage, 1, 0,
                                  faces.empty() ? Boundaries{} : periodic_x());
      const std::array<hsize_t, 3> part{hsize_t(last.part_planes()), hsize_t(last.y.part_points()),
                                        hsize_t(last.x.part_points())};
      EXPECT_EQ(dataset_shape(many + "/heat_000004.rank" + std::to_string(ranks - 1) + "of" + std::to_string(ranks) +
                              ".h5"),
                part)
          << label;
      const PointArray start = read_point_array(one + "/heat_000000.hdf", "u");
      const PointArray end = read_point_array(one + "/heat_000004.hdf", "u");
      EXPECT_GT(bitwise_differences(start.values, end.values), 0) << label;
    }
}

TEST(MpirunRanksGrid, TwoByTwoByTwoIsBitwiseOneRank) { expect_grid_same_as_one_rank("2x2x2", 8); }
TEST(MpirunRanksGrid, OneByTwoByOneIsBitwiseOneRank) { expect_grid_same_as_one_rank("1x2x1", 2); }
TEST(MpirunRanksGrid, TwoByOneByOneIsBitwiseOneRank) { expect_grid_same_as_one_rank("2x1x1", 2); }

// Large enough that each rank's box of values (doubles) stands far above the files' metadata, so
// that the bytes read tell a box from whole planes; rows along x long enough for the cpu
// backend's vectors on 2 ranks.
std::vector<std::string> restart_run_args(const std::string& output, int steps) {
  std::vector<std::string> args = {"--backend", "cpu", "--order", "8", "--precision", "double", "--nx", "64", "--ny",
                                   "40", "--nz", "48", "--init", "randn", "--cfl", "0.2", "--steps",
                                   std::to_string(steps), "--output-every", "2", "--output", output, "--quiet"};
  args.insert(args.end(), kMixedFaces.begin(), kMixedFaces.end());
  return args;
}

// The restart of the "done when": a snapshot of one process (one file), of a 1x1x2 run
// (a virtual dataset over slab files of whole planes) and of a 2x2x2 run (over slab files of
// boxes) continues on 2x2x1 bitwise as the straight run goes on, and each rank takes from the file
// exactly its box's points (a box that wraps along x, reading its runs of the grid) and reads
// about their bytes, not the whole planes they lie in.
TEST(MpirunRanksGrid, RestartOntoTwoByTwoByOneReadsOnlyEachRanksBox) {
  const std::string straight = test::temp_directory("grid-straight");
  ASSERT_EQ(run_on(1, restart_run_args(straight, 4)).exit_code, 0);
  const PointArray expected = read_point_array(straight + "/heat_000004.hdf", "u");
  const Grid grid{64, 40, 48};
  for (const auto& [start_grid, start_ranks] : {std::pair<std::string, int>{"1x1x1", 1}, {"1x1x2", 2}, {"2x2x2", 8}}) {
    const std::string label = "from " + start_grid;
    const std::string first_half = test::temp_directory("grid-first-half");
    std::vector<std::string> args = restart_run_args(first_half, 2);
    if (start_ranks > 1) args.insert(args.end(), {"--ranks-grid", start_grid});
    ASSERT_EQ(run_on(start_ranks, args).exit_code, 0) << label;
    const std::string out = test::temp_directory("grid-continued");
    const auto result = run_on(4, {"--restart", first_half + "/heat_000002.hdf", "--steps", "2", "--ranks-grid",
                                   "2x2x1", "--output", out, "--json", out + "/run.json", "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << label << ":\n" << result.output;
    EXPECT_EQ(bitwise_differences(read_point_array(out + "/heat_000004.hdf", "u").values, expected.values), 0) << label;
    const std::string json = read_text(out + "/run.json");
    const std::vector<long long> points = test::json_numbers(json, "points_read_per_rank");
    const std::vector<long long> bytes = test::json_numbers(json, "bytes_read_per_rank");
    ASSERT_EQ(points.size(), 4u) << label << ":\n" << json;
    ASSERT_EQ(bytes.size(), 4u) << label << ":\n" << json;
    for (int rank = 0; rank < 4; ++rank) {
      const Slab box = decompose(grid, 8, RankGrid{{2, 2, 1}}, rank, GhostScheme::PerStage, 1, 0, periodic_x());
      const long long box_points = 1LL * box.x.box_points() * box.y.box_points() * box.box_planes();
      ASSERT_LT(2 * box_points, (long long)grid.points()) << "the test's boxes must be far from the whole grid";
      EXPECT_EQ(points[std::size_t(rank)], box_points) << label << ", rank " << rank;
      // The box's values and the metadata of the file and of every slab file beside it, far less
      // than the whole planes the box lies in.
      EXPECT_LE(bytes[std::size_t(rank)], 8 * box_points + (128 << 10)) << label << ", rank " << rank;
    }
  }
}

TEST(MpirunRanksGrid, AGridThatDoesNotFitIsExit2NamingIt) {
  const std::string out = test::temp_directory("grid-refused");
  std::vector<std::string> args = run_args(8, {}, out);
  args.insert(args.end(), {"--ranks-grid", "2x2x1"});
  const auto count = run_on(2, args);
  EXPECT_EQ(count.exit_code, 2) << count.output;
  EXPECT_NE(count.output.find("--ranks-grid 2x2x1 lays out 4 ranks, but the run has 2"), std::string::npos)
      << count.output;
  args.back() = "1x4x1";  // ny = 19 at order 8: 11 interior points, at most 2 ranks of 4
  const auto thin = run_on(4, args);
  EXPECT_EQ(thin.exit_code, 2) << thin.output;
  EXPECT_NE(thin.output.find("at most 2 along y"), std::string::npos) << thin.output;
}

}  // namespace
}  // namespace heat
