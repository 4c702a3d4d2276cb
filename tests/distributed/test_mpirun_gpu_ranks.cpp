// The CUDA backends under mpirun (docs/design.md §7): each rank steps its z-slab on a GPU and
// exchanges ghost planes once a step (naive, reuse, tiled at order 2) or twice (tiled at order 8),
// tiled's ranks stepping the rest of a launch while the planes it wrote first travel
// (--halo-overlap on) or exchanging first (off). The same run on 1, 2 and 3 ranks writes bitwise the
// same snapshots, through host memory and by the copy engines (ranks sharing the machine's GPUs,
// so one GPU suffices) and, where every rank has a GPU of its own, through NCCL; so too with
// material fields, each rank's box of them uploaded once, and with radiation faces. Skipped
// without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "backends/cuda/gpu_info.hpp"
#include "material_files.hpp"
#include "mpirun_support.hpp"

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
// the first carries planes the neighbour computed. `extra`: options after these.
int planes_of(const GpuRun& run) { return 32 * (run.order / 2) + 5; }

std::vector<std::string> run_args(const GpuRun& run, const std::string& output,
                                  const std::vector<std::string>& extra = {}, const std::string& cfl = "0.2") {
  std::vector<std::string> args = {"--backend",      run.backend,   "--order",  std::to_string(run.order),
                                   "--precision",    run.precision, "--nx",     std::to_string(run.nx),
                                   "--ny",           "29",          "--nz",     std::to_string(planes_of(run)),
                                   "--init",         "randn",       "--steps",  "5",
                                   "--output-every", "2",           "--output", output,
                                   "--cfl",          cfl,           "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
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

// run_args' grid with the spacing the material runs give (--h 0.1), their files' grid.
Grid material_grid(const GpuRun& run) { return {run.nx, 29, planes_of(run), 0.1, 0.1, 0.1}; }

// Random smooth and random piecewise K and C, each rank's box of them uploaded once with its ghost
// planes (never exchanged): naive and reuse at orders 2 and 8, tiled at orders 2, 4 and 8 (whose
// boxes take PerStep's ghost planes with material fields, not the two exchanges a step of its
// constant kernels), with layer faces and with convective, flux and insulated faces, on 1, 2 and 3
// ranks sharing a GPU over `route`.
void expect_materials_bitwise_equal_on_2_and_3_ranks(const std::string& route) {
  const std::vector<GpuRun> runs = {{"naive", 2, "double"},
                                    {"naive", 8, "float"},
                                    {"reuse", 2, "float"},
                                    {"reuse", 8, "double"},
                                    {"tiled", 2, "float"},
                                    {"tiled", 4, "double"},
                                    {"tiled", 8, "float"}};
  const std::vector<std::vector<std::string>> face_sets = {
      {}, {"--bc", "convective:3,0.5", "--bc-z-low", "flux:2", "--bc-y-high", "insulated"}};
  for (const GpuRun& run : runs) {
    const Grid g = material_grid(run);
    const std::string files = test::temp_directory("gpu-ranks-materials");
    const std::vector<std::pair<std::string, std::string>> fields = {
        {test::array_file(files + "/smooth-k", g, test::random_smooth(g, 0.5, 16, 3)),
         test::array_file(files + "/smooth-c", g, test::random_smooth(g, 1, 10, 4))},
        {test::array_file(files + "/blocks-k", g, test::random_blocks(g, 0.5, 16, 5)),
         test::array_file(files + "/blocks-c", g, test::random_blocks(g, 1, 10, 6))}};
    for (std::size_t field = 0; field < fields.size(); ++field)
      for (std::size_t faces = 0; faces < face_sets.size(); ++faces) {
        const std::string label = run.backend + " order " + std::to_string(run.order) + " " + run.precision +
                                  (field == 0 ? " smooth" : " piecewise") + " fields, faces " + std::to_string(faces);
        const auto args_of = [&](const std::string& out) {
          std::vector<std::string> a =
              run_args(run, out,
                       {"--h", "0.1", "--conductivity-file", fields[field].first, "--conductivity-array", "u",
                        "--heat-capacity-file", fields[field].second, "--heat-capacity-array", "u"},
                       "0.15");
          a.insert(a.end(), face_sets[faces].begin(), face_sets[faces].end());
          return a;
        };
        const std::string one = test::temp_directory("gpu-ranks-materials1");
        const auto single = test::run_on(1, args_of(one));
        ASSERT_EQ(single.exit_code, 0) << label << ":\n" << single.output;
        for (int ranks : {2, 3}) {
          const std::string out = test::temp_directory("gpu-ranks-materials" + std::to_string(ranks));
          std::vector<std::string> a = args_of(out);
          a.insert(a.end(), {"--halo-exchange", route});
          const auto result = test::run_on(ranks, a);
          ASSERT_EQ(result.exit_code, 0) << label << " on " << ranks << " ranks:\n" << result.output;
          test::expect_same_snapshots(one, out, label + " on " + std::to_string(ranks) + " ranks over " + route);
        }
      }
  }
}

TEST(MpirunGpuRanks, MaterialFieldsBitwiseEqualOn1To3RanksSharingAGpuThroughHostMemory) {
  HEAT_REQUIRE_GPU();
  expect_materials_bitwise_equal_on_2_and_3_ranks("host");
}

TEST(MpirunGpuRanks, MaterialFieldsBitwiseEqualOn1To3RanksSharingAGpuByTheCopyEngines) {
  HEAT_REQUIRE_GPU();
  expect_materials_bitwise_equal_on_2_and_3_ranks("peer");
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

// Radiation faces (RK4's stage form, each rank's box stepped whole after u's exchange) on 1, 2 and
// 3 ranks sharing a GPU through host memory: the same bits, with the radiating face on every
// rank's box (x, z wrapping the ranks) or on the end ranks' alone (z), where the middle rank steps
// the stage form all the same. A random field (faces drawing it towards T_INF), so that every
// rank's planes change in float. auto takes tiled on ranks.
TEST(MpirunGpuRanks, RadiationFacesBitwiseEqualOn1To3Ranks) {
  HEAT_REQUIRE_GPU();
  const std::vector<std::vector<std::string>> face_sets = {
      {"--bc-x-low", "radiation:0.7,2.5", "--bc-z-low", "periodic", "--bc-z-high", "periodic"},
      {"--bc-z-low", "radiation:0.9,3", "--bc-z-high", "radiation:0.4,0.5", "--bc-x-high", "insulated"}};
  for (const char* backend : {"naive", "tiled"})
    for (int order : {2, 8})
      for (std::size_t faces = 0; faces < face_sets.size(); ++faces) {
        const GpuRun run{backend, order, "float"};
        const std::string label =
            std::string(backend) + " order " + std::to_string(order) + " radiation faces " + std::to_string(faces);
        const std::string one = test::temp_directory("gpu-radiation1");
        const auto single = test::run_on(1, run_args(run, one, face_sets[faces]));
        ASSERT_EQ(single.exit_code, 0) << label << ":\n" << single.output;
        for (int ranks : {2, 3}) {
          const std::string out = test::temp_directory("gpu-radiation" + std::to_string(ranks));
          std::vector<std::string> extra = face_sets[faces];
          extra.insert(extra.end(), {"--halo-exchange", "host"});
          const auto result = test::run_on(ranks, run_args(run, out, extra));
          ASSERT_EQ(result.exit_code, 0) << label << " on " << ranks << " ranks:\n" << result.output;
          test::expect_same_snapshots(one, out, label + " on " + std::to_string(ranks) + " ranks");
        }
      }
  const std::string json = test::temp_directory("gpu-radiation-auto") + "/run.json";
  const auto result = test::run_on(2, {"--n", "40", "--order", "2", "--bc-x-low", "radiation:0.5,300", "--init",
                                       "uniform:350", "--steps", "2", "--format", "none", "--json", json});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(test::read_text(json).find("\"backend\": \"tiled\""), std::string::npos) << test::read_text(json);
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
