// GPU ranks on a rank grid that splits x or y under mpirun (docs/design.md §7, --ranks-grid): on
// 1x2x1, 2x1x1 and 2x2x1, ranks sharing the machine's GPU through host memory and by the copy
// engines, and with a GPU each through NCCL where the machine has enough, tiled at orders 2 (4r
// ghost points, one exchange a step) and 8 (2r, two) with the exchange beside the tiles clear of
// the rim and without overlap, and naive (whole boxes stepped after each exchange), float, write
// bitwise the snapshots of one process with layer faces and with two mixed sets (periodic x beside
// flux and insulated y; insulated x beside periodic y); a grid that splits the periodic axis is
// refused (exit 2). Skipped without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/cuda/gpu_info.hpp"
#include "mpirun_support.hpp"

namespace heat {
namespace {

struct GridRun {
  std::string backend;
  int order;
  std::string overlap;  // --halo-overlap
};

const std::vector<std::vector<std::string>> kFaceSets = {
    {},
    {"--bc-x-low", "periodic", "--bc-x-high", "periodic", "--bc-y-low", "flux:2", "--bc-y-high", "insulated",
     "--bc-z-low", "temperature:0.75", "--bc-z-high", "convective:3,-0.5"},
    {"--bc-x-low", "insulated", "--bc-x-high", "insulated", "--bc-y-low", "periodic", "--bc-y-high", "periodic",
     "--bc-z-low", "flux:1", "--bc-z-high", "insulated"},
};

// Odd sizes, so that the splits are uneven, wide enough for two ranks of 4r ghost points along x
// and y at order 8 (naive's PerStep) and for each box of 2x2x1 to hold tiles clear of its rim
// (step_columns.hpp), so that the overlap has points to step beside the faces; several steps, so
// that every exchange after the first carries points the neighbours computed.
std::vector<std::string> run_args(const GridRun& run, const std::vector<std::string>& faces,
                                  const std::string& output) {
  std::vector<std::string> args = {"--backend",      run.backend, "--order",  std::to_string(run.order),
                                   "--precision",    "float",     "--nx",     "99",
                                   "--ny",           "97",        "--nz",     "21",
                                   "--conductivity", "1.5",       "--init",   "randn",
                                   "--cfl",          "0.2",       "--steps",  "5",
                                   "--output-every", "2",         "--output", output,
                                   "--quiet"};
  args.insert(args.end(), faces.begin(), faces.end());
  return args;
}

std::string face_set_name(std::size_t set) { return set == 0 ? "layer" : "mixed " + std::to_string(set); }

// "x" or "y" where `faces` make that axis periodic, else "".
std::string periodic_plane_axis(const std::vector<std::string>& faces) {
  for (std::size_t i = 0; i + 1 < faces.size(); ++i)
    if (faces[i + 1] == "periodic" && (faces[i] == "--bc-x-low" || faces[i] == "--bc-y-low")) return faces[i].substr(5, 1);
  return "";
}

// Whether the grid "PxQxR" splits `axis` ("x" or "y").
bool splits(const std::string& grid, const std::string& axis) {
  return (axis == "x" && grid.substr(0, grid.find('x')) != "1") ||
         (axis == "y" && grid.substr(grid.find('x') + 1, grid.rfind('x') - grid.find('x') - 1) != "1");
}

void expect_grids_bitwise_one_rank(const std::string& route) {
  struct RankGridRun {
    std::string text;
    int ranks;
  };
  const RankGridRun grids[] = {{"1x2x1", 2}, {"2x1x1", 2}, {"2x2x1", 4}};
  const GridRun runs[] = {
      {"tiled", 2, "on"}, {"tiled", 2, "off"}, {"tiled", 8, "on"}, {"tiled", 8, "off"}, {"naive", 8, "on"}};
  for (const GridRun& run : runs)
    for (std::size_t set = 0; set < kFaceSets.size(); ++set) {
      const std::string label =
          run.backend + " order " + std::to_string(run.order) + " overlap " + run.overlap + " " + face_set_name(set);
      const std::string one = test::temp_directory("gpu-grid-one");
      const auto single = test::run_on(1, run_args(run, kFaceSets[set], one));
      ASSERT_EQ(single.exit_code, 0) << label << ":\n" << single.output;
      const PointArray start = read_point_array(one + "/heat_000000.hdf", "u");
      const PointArray end = read_point_array(one + "/heat_000005.hdf", "u");
      EXPECT_GT(test::bitwise_differences(start.values, end.values), 0) << label;
      for (const RankGridRun& grid : grids) {
        if (route == "nccl" && gpu_count() < grid.ranks) continue;
        const std::string out = test::temp_directory("gpu-grid-" + grid.text);
        std::vector<std::string> args = run_args(run, kFaceSets[set], out);
        args.insert(args.end(), {"--ranks-grid", grid.text, "--halo-exchange", route, "--halo-overlap", run.overlap});
        const auto result = test::run_on(grid.ranks, args);
        // GPU ranks' boxes step the grid's points beyond a periodic x or y face, which one process
        // leaves in part as they were: such a split is refused before any work (resolve_rank_grid).
        const std::string periodic = periodic_plane_axis(kFaceSets[set]);
        if (splits(grid.text, periodic)) {
          EXPECT_EQ(result.exit_code, 2) << label << " on " << grid.text << ":\n" << result.output;
          EXPECT_NE(result.output.find("--ranks-grid " + grid.text + " splits " + periodic + ", whose faces are periodic"),
                    std::string::npos)
              << label << " on " << grid.text << ":\n" << result.output;
          continue;
        }
        ASSERT_EQ(result.exit_code, 0) << label << " on " << grid.text << ":\n" << result.output;
        test::expect_same_snapshots(one, out, label + " on " + grid.text + " over " + route);
      }
    }
}

TEST(MpirunGpuRanksGrid, SnapshotsBitwiseOneRankSharingAGpuThroughHostMemory) {
  HEAT_REQUIRE_GPU();
  expect_grids_bitwise_one_rank("host");
}

TEST(MpirunGpuRanksGrid, SnapshotsBitwiseOneRankSharingAGpuByTheCopyEngines) {
  HEAT_REQUIRE_GPU();
  expect_grids_bitwise_one_rank("peer");
}

// 2x2x1 where the machine has 4 GPUs or more; 1x2x1 and 2x1x1 on 2.
TEST(MpirunGpuRanksGrid, SnapshotsBitwiseOneRankWithAGpuEachThroughNccl) {
  if (gpu_count() < 2) GTEST_SKIP() << "fewer than 2 CUDA GPUs on this machine";
  expect_grids_bitwise_one_rank("nccl");
}

// The summary names the grid, says whether the exchange overlaps the step as --halo-overlap asks,
// and counts the exchange's time.
TEST(MpirunGpuRanksGrid, JsonSummarySaysWhetherAGridOverlaps) {
  HEAT_REQUIRE_GPU();
  for (const std::string overlap : {"on", "off"}) {
    const std::string out = test::temp_directory("gpu-grid-json");
    const auto result =
        test::run_on(2, {"--backend", "tiled", "--n", "48", "--order", "8", "--steps", "3", "--format", "none",
                         "--ranks-grid", "2x1x1", "--halo-overlap", overlap, "--json", out + "/run.json", "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string json = test::read_text(out + "/run.json");
    EXPECT_NE(json.find("\"ranks_grid\": \"2x1x1\""), std::string::npos) << json;
    EXPECT_NE(json.find(std::string("\"halo_overlap\": ") + (overlap == "on" ? "true" : "false")), std::string::npos)
        << json;
    EXPECT_EQ(json.find("\"exchange_s\": 0,"), std::string::npos) << "no exchange time counted: " << json;
  }
}

}  // namespace
}  // namespace heat
