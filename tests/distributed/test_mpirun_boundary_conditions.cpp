// Boundary conditions on ranks under mpirun (docs/design.md §7, "Conditions on ranks"): the
// same run on 1, 2 and 3 ranks writes bitwise the same snapshots, ghost planes included, with
// each kind of condition on the z faces (periodic z wrapping the ranks) and on the x and y faces,
// for cpu and cpu_reference, float and double, orders 2 and 8; for the CUDA backends' ranks over
// each exchange route (ranks sharing one GPU through host memory and by the copy engines, one GPU
// each through NCCL; skipped without GPUs); periodic z on as few planes as the ranks allow; a
// periodic run's snapshot restarts on other rank counts as a straight run goes on.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "mpirun_support.hpp"
#include "backends/cuda/gpu_info.hpp"

namespace heat {
namespace {

using test::bitwise_differences;
using test::expect_same_snapshots;
using test::run_on;

// Each kind on z, and each on x or y, across the two sets.
const std::vector<std::vector<std::string>> kFaceSets = {
    {"--bc-z-low", "periodic", "--bc-z-high", "periodic", "--bc-x-low", "convective:2,0.5", "--bc-x-high",
     "flux:-1.5", "--bc-y-low", "temperature:0.25", "--bc-y-high", "insulated"},
    {"--bc-z-low", "temperature:0.75", "--bc-z-high", "convective:3,-0.5", "--bc-x-low", "periodic", "--bc-x-high",
     "periodic", "--bc-y-low", "flux:2", "--bc-y-high", "insulated"},
    {"--bc-z-low", "flux:1", "--bc-z-high", "insulated", "--bc-x-low", "insulated", "--bc-x-high", "insulated",
     "--bc-y-low", "periodic", "--bc-y-high", "periodic"},
};

// An odd grid, reflecting faces' 3r + 1 points on each axis, and planes for 3 ranks of `ghosts` r
// ghost planes (the cpu's r, and a few over, so that the slabs are uneven).
std::vector<std::string> run_args(const std::string& backend, int order, const std::string& precision,
                                  const std::vector<std::string>& faces, const std::string& output, int steps = 30,
                                  int output_every = 10, int ghosts = 1) {
  const int r = order / 2;
  std::vector<std::string> args = {"--backend", backend, "--order", std::to_string(order), "--precision", precision,
                                   "--nx", std::to_string(3 * r + 2), "--ny", std::to_string(3 * r + 3), "--nz",
                                   std::to_string((3 * ghosts * r + 2 * r + 3) | 1), "--conductivity", "1.5",
                                   "--heat-capacity", "2",
                                   "--init", "randn", "--cfl", "0.2", "--steps", std::to_string(steps),
                                   "--output-every", std::to_string(output_every),
                                   "--output", output, "--quiet"};
  args.insert(args.end(), faces.begin(), faces.end());
  return args;
}

// `args_of(output)` on 1, 2 and 3 ranks: the same snapshots, and the run changed the field.
template <typename ArgsOf>
void expect_same_on_1_2_and_3_ranks(const ArgsOf& args_of, const std::string& label, const std::string& last) {
  std::string one;
  for (int ranks : {1, 2, 3}) {
    const std::string out = test::temp_directory("bc-ranks" + std::to_string(ranks));
    const auto result = run_on(ranks, args_of(out));
    ASSERT_EQ(result.exit_code, 0) << label << " on " << ranks << " ranks:\n" << result.output;
    if (ranks == 1) {
      one = out;
      const PointArray start = read_point_array(out + "/heat_000000.hdf", "u");
      const PointArray end = read_point_array(out + "/" + last, "u");
      EXPECT_GT(bitwise_differences(start.values, end.values), 0) << label;
    } else {
      expect_same_snapshots(one, out, label + " on " + std::to_string(ranks) + " ranks");
    }
  }
}

void expect_every_face_set_the_same_on_1_2_and_3_ranks(const std::string& backend, const std::string& precision) {
  for (int order : {2, 8})
    for (std::size_t set = 0; set < kFaceSets.size(); ++set) {
      const std::string label = backend + " " + precision + " order " + std::to_string(order) + " faces " +
                                std::to_string(set);
      expect_same_on_1_2_and_3_ranks(
          [&](const std::string& out) { return run_args(backend, order, precision, kFaceSets[set], out); }, label,
          "heat_000030.hdf");
    }
}

// A run of radiating `faces` in double from a uniform 400 K, which they draw towards their T_INF.
std::vector<std::string> radiation_args(const std::string& backend, int order, const std::vector<std::string>& faces,
                                        const std::string& output) {
  std::vector<std::string> args = run_args(backend, order, "double", faces, output);
  *std::find(args.begin(), args.end(), "randn") = "uniform:400";
  return args;
}

// Radiation faces (not affine: both cpu backends step them in the stage form) on z, where the
// slabs end, and on x.
TEST(MpirunBoundaryConditions, RadiationBitwiseEqualOn1To3Ranks) {
  const std::vector<std::string> faces = {"--bc-z-low",  "radiation:0.9,300", "--bc-z-high", "radiation:0.4,600",
                                          "--bc-x-low",  "radiation:0.7,250", "--bc-x-high", "insulated",
                                          "--bc-y-low",  "periodic",          "--bc-y-high", "periodic"};
  for (const char* backend : {"cpu", "cpu_reference"})
    for (int order : {2, 8}) {
      const std::string label = std::string(backend) + " radiation order " + std::to_string(order);
      expect_same_on_1_2_and_3_ranks([&](const std::string& out) { return radiation_args(backend, order, faces, out); },
                                     label, "heat_000030.hdf");
    }
}

// A radiating face that some ranks' boxes lack: a z face, beside which the middle of 3 slabs is
// not; an x face, beside which the upper half of a 2x1x1 grid is not. Every rank steps the stage
// form all the same (the fast cpu backend's own form is another, whose exchanges carry other
// fields).
TEST(MpirunBoundaryConditions, RadiationOnOneFaceBitwiseEqualOnRanksBesideNone) {
  for (int order : {2, 8}) {
    const std::string label = "cpu order " + std::to_string(order) + " radiation on one ";
    const std::vector<std::string> z_face = {"--bc-z-low", "radiation:0.9,300", "--bc-z-high", "insulated"};
    expect_same_on_1_2_and_3_ranks([&](const std::string& out) { return radiation_args("cpu", order, z_face, out); },
                                   label + "z face", "heat_000030.hdf");
    const std::vector<std::string> x_face = {"--bc-x-low", "radiation:0.7,250", "--bc-y-high", "insulated"};
    const auto x_args = [&](const std::string& out) {
      std::vector<std::string> args = radiation_args("cpu", order, x_face, out);
      *(std::find(args.begin(), args.end(), "--nx") + 1) = "41";
      return args;
    };
    const std::string one = test::temp_directory("bc-x-radiation1");
    ASSERT_EQ(run_on(1, x_args(one)).exit_code, 0) << label;
    const std::string grid = test::temp_directory("bc-x-radiation2x1x1");
    std::vector<std::string> args = x_args(grid);
    args.insert(args.end(), {"--ranks-grid", "2x1x1"});
    const auto result = run_on(2, args);
    ASSERT_EQ(result.exit_code, 0) << label << "x face:\n" << result.output;
    expect_same_snapshots(one, grid, label + "x face on 2x1x1");
  }
}

TEST(MpirunBoundaryConditions, CpuBitwiseEqualOn1To3RanksFloat) {
  expect_every_face_set_the_same_on_1_2_and_3_ranks("cpu", "float");
}
TEST(MpirunBoundaryConditions, CpuBitwiseEqualOn1To3RanksDouble) {
  expect_every_face_set_the_same_on_1_2_and_3_ranks("cpu", "double");
}
TEST(MpirunBoundaryConditions, CpuReferenceBitwiseEqualOn1To3RanksFloat) {
  expect_every_face_set_the_same_on_1_2_and_3_ranks("cpu_reference", "float");
}
TEST(MpirunBoundaryConditions, CpuReferenceBitwiseEqualOn1To3RanksDouble) {
  expect_every_face_set_the_same_on_1_2_and_3_ranks("cpu_reference", "double");
}

// The CUDA backends' ranks over `route` (--halo-overlap `overlap`): each kernel family, a ghost
// scheme each (naive, reuse and tiled at order 2: 4r ghost planes, one exchange a step; tiled at
// orders 4 and 8: 2r, two), float and double, every face set, the monitors' CSV too. The grid holds
// 4r ghost planes and more for each of 3 ranks. Ranks share the machine's GPUs on the host and peer routes; NCCL needs
// one each (fewer GPUs: those rank counts are left out).
void expect_every_face_set_the_same_on_gpu_ranks(const std::string& route, const std::string& overlap) {
  struct GpuRun {
    std::string backend;
    int order;
    std::string precision;
  };
  const GpuRun runs[] = {{"naive", 2, "float"},
                         {"reuse", 8, "double"},
                         {"tiled", 2, "float"},
                         {"tiled", 4, "double"},
                         {"tiled", 8, "float"}};
  for (const GpuRun& run : runs)
    for (std::size_t set = 0; set < kFaceSets.size(); ++set) {
      const std::string label = run.backend + " " + run.precision + " order " + std::to_string(run.order) +
                                " faces " + std::to_string(set) + " over " + route + ", overlap " + overlap;
      std::string one;
      for (int ranks : {1, 2, 3}) {
        if (route == "nccl" && ranks > 1 && gpu_count() < ranks) continue;
        const std::string out = test::temp_directory("bc-gpu-ranks" + std::to_string(ranks));
        std::vector<std::string> args =
            run_args(run.backend, run.order, run.precision, kFaceSets[set], out, 12, 4, 5);
        args.insert(args.end(), {"--monitor-every", "3", "--probe", "0.41,0.47,0.53", "--probe", "0.5,0.5,0.77"});
        if (ranks > 1) args.insert(args.end(), {"--halo-exchange", route, "--halo-overlap", overlap});
        const auto result = run_on(ranks, args);
        ASSERT_EQ(result.exit_code, 0) << label << " on " << ranks << " ranks:\n" << result.output;
        if (ranks == 1) {
          one = out;
          continue;
        }
        expect_same_snapshots(one, out, label + " on " + std::to_string(ranks) + " ranks");
        EXPECT_EQ(test::read_text(out + "/monitors.csv"), test::read_text(one + "/monitors.csv"))
            << label << " on " << ranks << " ranks: monitors.csv";
      }
    }
}

TEST(MpirunBoundaryConditions, GpuRanksBitwiseEqualOn1To3RanksSharingAGpuThroughHostMemory) {
  HEAT_REQUIRE_GPU();
  expect_every_face_set_the_same_on_gpu_ranks("host", "on");
}
TEST(MpirunBoundaryConditions, GpuRanksBitwiseEqualOn1To3RanksSharingAGpuByTheCopyEngines) {
  HEAT_REQUIRE_GPU();
  expect_every_face_set_the_same_on_gpu_ranks("peer", "on");
}
TEST(MpirunBoundaryConditions, GpuRanksBitwiseEqualOn1To3RanksSharingAGpuByTheCopyEnginesWithoutOverlap) {
  HEAT_REQUIRE_GPU();
  expect_every_face_set_the_same_on_gpu_ranks("peer", "off");
}
TEST(MpirunBoundaryConditions, GpuRanksBitwiseEqualOn1To3RanksWithAGpuEachThroughNccl) {
  if (gpu_count() < 2) GTEST_SKIP() << "fewer than 2 CUDA GPUs on this machine";
  expect_every_face_set_the_same_on_gpu_ranks("nccl", "on");
}

// Periodic z with every rank owning r planes or about: 3 ranks on 3r interior planes, 2 ranks each
// the other's lower and upper neighbour.
TEST(MpirunBoundaryConditions, PeriodicZOnAsFewPlanesAsTheRanksAllow) {
  for (int order : {2, 4}) {
    const int r = order / 2;
    const std::string label = "order " + std::to_string(order);
    expect_same_on_1_2_and_3_ranks(
        [&](const std::string& out) {
          return std::vector<std::string>{"--backend", "cpu", "--order", std::to_string(order), "--nx", "9", "--ny",
                                          "8", "--nz", std::to_string(5 * r), "--bc", "periodic", "--init", "randn",
                                          "--steps", "20", "--output-every", "10", "--output", out, "--quiet"};
        },
        label, "heat_000020.hdf");
  }
  // 4 ranks need 4r interior planes.
  const auto result = run_on(4, {"--backend", "cpu", "--order", "2", "--n", "9", "--nz", "5", "--bc", "periodic",
                                 "--format", "none", "--quiet"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("at most 3 ranks"), std::string::npos) << result.output;
}

// Periodic z and convective x and y faces: a 2-rank run's step-3 snapshot (its conditions stored
// in it) continued on 1 and 3 ranks to step 6 is bitwise the straight 1-rank run.
TEST(MpirunBoundaryConditions, APeriodicRunRestartsOnOtherRankCountsAsAStraightRunGoesOn) {
  for (const std::string precision : {"float", "double"}) {
    const auto args = [&](const std::string& out, int steps) {
      return run_args("cpu", 4, precision, kFaceSets[0], out, steps, 3);
    };
    const std::string straight = test::temp_directory("bc-straight");
    ASSERT_EQ(run_on(1, args(straight, 6)).exit_code, 0);
    const std::string first_half = test::temp_directory("bc-first-half");
    ASSERT_EQ(run_on(2, args(first_half, 3)).exit_code, 0);
    const PointArray expected = read_point_array(straight + "/heat_000006.hdf", "u");
    for (int ranks : {1, 3}) {
      const std::string out = test::temp_directory("bc-continued");
      const auto result = run_on(ranks, {"--backend", "cpu", "--restart", first_half + "/heat_000003.hdf", "--steps",
                                         "3", "--output", out, "--quiet"});
      ASSERT_EQ(result.exit_code, 0) << result.output;
      const PointArray got = read_point_array(out + "/heat_000006.hdf", "u");
      EXPECT_EQ(bitwise_differences(got.values, expected.values), 0) << precision << " continued on " << ranks;
    }
  }
}

}  // namespace
}  // namespace heat
