// Ranks on a grid over x, y and z under mpirun (docs/design.md §7, --ranks-grid): cpu ranks on
// 2x2x2, 1x2x1 and 2x1x1 write bitwise the snapshots of one process, ghost points included, at
// orders 2 and 8, with layer faces and with a mixed set (periodic x); a snapshot of a 1x1x2 run
// restarts on 2x2x1 as the straight run goes on; a grid that does not fit is exit 2 before any work.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpirun_support.hpp"

namespace heat {
namespace {

using test::bitwise_differences;
using test::expect_same_snapshots;
using test::run_on;

const std::vector<std::string> kMixedFaces = {"--bc-x-low", "periodic", "--bc-x-high", "periodic", "--bc-y-low",
                                              "flux:2", "--bc-y-high", "convective:3,-0.5", "--bc-z-low",
                                              "temperature:0.75", "--bc-z-high", "insulated"};

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
      const std::string one = test::temp_directory("grid-one");
      ASSERT_EQ(run_on(1, run_args(order, faces, one)).exit_code, 0) << label;
      const std::string many = test::temp_directory("grid-" + rank_grid);
      std::vector<std::string> args = run_args(order, faces, many);
      args.insert(args.end(), {"--ranks-grid", rank_grid});
      const auto result = run_on(ranks, args);
      ASSERT_EQ(result.exit_code, 0) << label << ":\n" << result.output;
      expect_same_snapshots(one, many, label);
      const PointArray start = read_point_array(one + "/heat_000000.hdf", "u");
      const PointArray end = read_point_array(one + "/heat_000004.hdf", "u");
      EXPECT_GT(bitwise_differences(start.values, end.values), 0) << label;
    }
}

TEST(MpirunRanksGrid, TwoByTwoByTwoIsBitwiseOneRank) { expect_grid_same_as_one_rank("2x2x2", 8); }
TEST(MpirunRanksGrid, OneByTwoByOneIsBitwiseOneRank) { expect_grid_same_as_one_rank("1x2x1", 2); }
TEST(MpirunRanksGrid, TwoByOneByOneIsBitwiseOneRank) { expect_grid_same_as_one_rank("2x1x1", 2); }

TEST(MpirunRanksGrid, SlabSnapshotRestartsOnTwoByTwoByOne) {
  const std::string straight = test::temp_directory("grid-straight");
  ASSERT_EQ(run_on(1, run_args(8, kMixedFaces, straight, 4)).exit_code, 0);
  const std::string first_half = test::temp_directory("grid-first-half");
  std::vector<std::string> slabs = run_args(8, kMixedFaces, first_half, 2);
  slabs.insert(slabs.end(), {"--ranks-grid", "1x1x2"});
  ASSERT_EQ(run_on(2, slabs).exit_code, 0);
  const std::string out = test::temp_directory("grid-continued");
  const auto result = run_on(4, {"--restart", first_half + "/heat_000002.hdf", "--steps", "2", "--ranks-grid",
                                 "2x2x1", "--output", out, "--quiet"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const PointArray expected = read_point_array(straight + "/heat_000004.hdf", "u");
  const PointArray got = read_point_array(out + "/heat_000004.hdf", "u");
  EXPECT_EQ(bitwise_differences(got.values, expected.values), 0);
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
