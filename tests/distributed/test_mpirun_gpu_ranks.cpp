// The CUDA backends under mpirun (docs/design.md §7): each rank steps its z-slab on a GPU and
// exchanges ghost planes once a step (naive, reuse, tiled at order 2) or twice (tiled at order 8),
// tiled's ranks stepping the rest of a launch while the planes it wrote first travel
// (--halo-overlap on) or exchanging first (off). The same run on 1, 2 and 3 ranks writes bitwise the
// same snapshots, through host memory and by the copy engines (ranks sharing the machine's GPUs,
// so one GPU suffices) and, where every rank has a GPU of its own, through NCCL. Skipped without a
// GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "mpirun_support.hpp"
#include "backends/cuda/gpu_info.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

struct GpuRun {
  std::string backend;
  int order;
  std::string precision;
  int nx = 37;  // rows of odd length; 40 floats make 16-byte rows, which the copy-engine kernels take
};

// Each tiled order and precision has its own kernels; naive and reuse share theirs across orders.
std::vector<GpuRun> gpu_runs() {
  std::vector<GpuRun> runs;
  for (const char* backend : {"naive", "reuse"})
    for (int order : {2, 8}) runs.push_back({backend, order, order == 2 ? "double" : "float"});
  for (int order : {2, 4, 6, 8})
    for (const char* precision : {"float", "double"}) runs.push_back({"tiled", order, precision});
  for (int order : {2, 8}) runs.push_back({"tiled", order, "float", 40});
  return runs;
}

// nz odd, unevenly split, and wide enough for 3 ranks of 4r ghost planes each with planes inside
// the edges they send (the middle rank has fewest); several steps, so that every exchange after
// the first carries planes the neighbour computed.
std::vector<std::string> run_args(const GpuRun& run, const std::string& output) {
  const int r = run.order / 2;
  const int nz = 30 * r + 2 * r + 5;
  return {"--backend",   run.backend,   "--order",        std::to_string(run.order),
          "--precision", run.precision, "--nx",           std::to_string(run.nx),
          "--ny",        "29",          "--nz",           std::to_string(nz),
          "--init",      "randn",       "--cfl",          "0.2",
          "--steps",     "5",           "--output-every", "2",
          "--output",    output,        "--quiet"};
}

void expect_bitwise_equal_on_2_and_3_ranks(const std::string& route, const std::string& overlap) {
  for (const GpuRun& run : gpu_runs()) {
    const std::string label =
        run.backend + " order " + std::to_string(run.order) + " " + run.precision + " nx " + std::to_string(run.nx);
    const std::string one = test::temp_directory("gpu-ranks1");
    const auto single = test::run_on(1, run_args(run, one));
    ASSERT_EQ(single.exit_code, 0) << label << ":\n" << single.output;
    for (int ranks : {2, 3}) {
      if (route == "nccl" && gpu_count() < ranks) continue;
      const std::string out = test::temp_directory("gpu-ranks" + std::to_string(ranks));
      std::vector<std::string> args = run_args(run, out);
      args.insert(args.end(), {"--halo-exchange", route, "--halo-overlap", overlap});
      const auto result = test::run_on(ranks, args);
      ASSERT_EQ(result.exit_code, 0) << label << " on " << ranks << " ranks:\n" << result.output;
      EXPECT_TRUE(fs::exists(out + "/heat_000005.rank0of" + std::to_string(ranks) + ".h5"))
          << label << ": no slab files, so not a distributed snapshot";
      test::expect_same_snapshots(
          one, out, label + " on " + std::to_string(ranks) + " ranks over " + route + ", overlap " + overlap);
    }
  }
}

TEST(MpirunGpuRanks, SnapshotsBitwiseEqualOn1To3RanksSharingAGpuThroughHostMemory) {
  HEAT_REQUIRE_GPU();
  expect_bitwise_equal_on_2_and_3_ranks("host", "on");
}

TEST(MpirunGpuRanks, SnapshotsBitwiseEqualOn1To3RanksSharingAGpuWithoutOverlap) {
  HEAT_REQUIRE_GPU();
  expect_bitwise_equal_on_2_and_3_ranks("host", "off");
}

TEST(MpirunGpuRanks, SnapshotsBitwiseEqualOn1To3RanksByTheCopyEngines) {
  HEAT_REQUIRE_GPU();
  expect_bitwise_equal_on_2_and_3_ranks("peer", "on");
}

TEST(MpirunGpuRanks, SnapshotsBitwiseEqualOn1To3RanksByTheCopyEnginesWithoutOverlap) {
  HEAT_REQUIRE_GPU();
  expect_bitwise_equal_on_2_and_3_ranks("peer", "off");
}

TEST(MpirunGpuRanks, SnapshotsBitwiseEqualOn1To3RanksWithAGpuEachThroughNccl) {
  if (gpu_count() < 2) GTEST_SKIP() << "fewer than 2 CUDA GPUs on this machine";
  expect_bitwise_equal_on_2_and_3_ranks("nccl", "on");
}

TEST(MpirunGpuRanks, SnapshotsBitwiseEqualOn1To3RanksWithAGpuEachThroughNcclWithoutOverlap) {
  if (gpu_count() < 2) GTEST_SKIP() << "fewer than 2 CUDA GPUs on this machine";
  expect_bitwise_equal_on_2_and_3_ranks("nccl", "off");
}

// NCCL cannot put two ranks on one GPU: a job with more GPU ranks than GPUs is refused before any
// work, by every rank, with one message. Order 2 (4 planes a rank), so that up to 9 ranks fit the
// grid and the GPUs, not the planes, are what the job lacks.
TEST(MpirunGpuRanks, NcclRanksWithoutAGpuOfTheirOwnExitTwo) {
  // A build without CUDA has no naive backend to refuse for want of a GPU (it is unknown there).
  if (!built_with_cuda()) GTEST_SKIP() << "this build has no CUDA backends";
  const int ranks = std::max(2, gpu_count() + 1);
  const std::string out = test::temp_directory("gpu-short");
  const auto result = test::run_on(
      ranks, {"--backend", "naive", "--n", "40", "--order", "2", "--halo-exchange", "nccl", "--output", out});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("GPU"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(out + "/heat.hdf.series")) << "work started before the refusal";
}

// A failure on one GPU rank mid-run (the test hook, as a CUDA error would) ends every rank with
// exit 3, none left waiting in an exchange (the peer route's ranks wait on each other's messages).
TEST(MpirunGpuRanks, OneRankFailingMidRunEndsEveryRankWithExitThree) {
  HEAT_REQUIRE_GPU();
  for (const char* route : {"host", "peer"}) {
    const std::string out = test::temp_directory("gpu-fail");
    const auto result =
        test::run_on(2, {"--backend", "tiled", "--n", "48", "--steps", "40", "--halo-exchange", route, "--output", out},
                     "HEATRK4_TEST_FAIL_RANK=1");
    EXPECT_EQ(result.exit_code, 3) << route << (result.exit_code == 124 ? ": the job hung:\n" : ":\n") << result.output;
    EXPECT_NE(result.output.find("rank 1: run failed: test hook"), std::string::npos) << route << ":\n"
                                                                                      << result.output;
  }
}

TEST(MpirunGpuRanks, UnknownHaloExchangeIsRefused) {
  const auto result =
      test::run_on(2, {"--backend", "cpu", "--n", "40", "--halo-exchange", "pigeon", "--format", "none"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--halo-exchange pigeon is not one of auto, peer, nccl, host"), std::string::npos)
      << result.output;
}

// The summary names the route and counts the exchange's time.
TEST(MpirunGpuRanks, JsonSummaryNamesTheRouteAndTheGhostPlanes) {
  HEAT_REQUIRE_GPU();
  const std::string out = test::temp_directory("gpu-json");
  for (const char* route : {"host", "peer"}) {
    const auto result = test::run_on(2, {"--backend", "tiled", "--n", "48", "--order", "4", "--steps", "3", "--format",
                                         "none", "--halo-exchange", route, "--json", out + "/run.json", "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string json = test::read_text(out + "/run.json");
    EXPECT_NE(json.find("\"halo_exchange\": \"" + std::string(route) + "\""), std::string::npos) << json;
    // tiled at order 4 exchanges twice a step over 2r ghost planes (GhostScheme::PerHalfStep).
    EXPECT_NE(json.find("\"ghost_planes\": 4,"), std::string::npos) << json;
    EXPECT_EQ(json.find("\"exchange_s\": 0,"), std::string::npos) << "no exchange time counted: " << json;
  }
}

}  // namespace
}  // namespace heat
