// A restart or --init-file on ranks (docs/design.md §7): each rank reads only its box's planes of
// the file, a hyperslab of the dataset, of a 2-rank snapshot's virtual dataset as of a 1-rank
// snapshot's plain one, compressed or not; a 3-rank continuation is bitwise the 1-rank one, and the
// JSON summary's input.bytes_read_per_rank shows each rank read about its share of the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "mpirun_support.hpp"
#include "core/initial_conditions.hpp"
#include "io/snapshots.hpp"
#include "parallel/decomposition.hpp"

namespace heat {
namespace {

using test::bitwise_differences;
using test::read_text;
using test::run_on;

// 64 x 64 x 96 doubles: 3 MiB of values, so that a rank's share stands well clear of the file's
// metadata (a few KiB per file) and of its neighbours' planes.
constexpr int kNx = 64, kNy = 64, kNz = 96;
constexpr long long kPlaneBytes = 8LL * kNx * kNy;

std::vector<std::string> first_half(const std::string& output, const std::string& compress) {
  return {"--backend", "cpu", "--order", "2", "--precision", "double", "--nx", std::to_string(kNx), "--ny",
          std::to_string(kNy), "--nz", std::to_string(kNz), "--init", "randn", "--steps", "2", "--output-every", "2",
          "--compress", compress, "--output", output, "--quiet"};
}

TEST(MpirunRestartReads, ThreeRanksReadTheirPlanesOfATwoRankSnapshotAndContinueBitwise) {
  for (const std::string compress : {"0", "1"}) {
    const std::string label = "--compress " + compress;
    const std::string two = test::temp_directory("two") + "/out";
    ASSERT_EQ(run_on(2, first_half(two, compress)).exit_code, 0) << label;
    const std::string one = test::temp_directory("one") + "/out";
    ASSERT_EQ(run_on(1, first_half(one, compress)).exit_code, 0) << label;
    const std::string expected_dir = test::temp_directory("expected");
    ASSERT_EQ(run_on(1, {"--backend", "cpu", "--restart", two + "/heat_000002.hdf", "--steps", "2", "--output",
                         expected_dir, "--quiet"})
                  .exit_code,
              0);
    const PointArray expected = read_point_array(expected_dir + "/heat_000004.hdf", "u");
    // The 2-rank snapshot (a virtual dataset over slab files) and the 1-rank one (a plain dataset),
    // by --restart and by --init-file (which also goes on from the step the file records).
    for (const std::string& start : {two, one}) {
      for (const std::string option : {"--restart", "--init-file"}) {
        const std::string what = label + ", " + option + " " + start;
        const std::string out = test::temp_directory("three");
        const auto result = run_on(3, {"--backend", "cpu", option, start + "/heat_000002.hdf", "--steps", "2",
                                       "--output-every", "2", "--output", out, "--json", out + "/run.json", "--quiet"});
        ASSERT_EQ(result.exit_code, 0) << what << ":\n" << result.output;
        EXPECT_EQ(bitwise_differences(read_point_array(out + "/heat_000004.hdf", "u").values, expected.values), 0)
            << what;
        const std::vector<long long> bytes = test::json_numbers(read_text(out + "/run.json"), "bytes_read_per_rank");
        ASSERT_EQ(bytes.size(), 3u) << what << ":\n" << read_text(out + "/run.json");
        if (compress != "0") continue;  // a compressed chunk is read whole
        for (int rank = 0; rank < 3; ++rank) {
          // At least the planes it owns, at most its box under the widest ghosts a cpu rank may
          // keep, and the metadata of the file and of every slab file beside it.
          const Grid grid{kNx, kNy, kNz};
          const Slab narrow = decompose(grid, 2, 3, rank, GhostScheme::PerStage);
          const Slab wide = decompose(grid, 2, 3, rank, GhostScheme::PerStep);
          EXPECT_GE(bytes[std::size_t(rank)], narrow.owned_planes() * kPlaneBytes) << what << ", rank " << rank;
          EXPECT_LE(bytes[std::size_t(rank)], wide.box_planes() * kPlaneBytes + (64 << 10))
              << what << ", rank " << rank << " read more than its planes (the file's values: "
              << kNz * kPlaneBytes << " bytes)";
        }
      }
    }
  }
}

// --check on ranks started from a file gathers the start from every rank's planes.
TEST(MpirunRestartReads, CheckOnRanksFromAFilePasses) {
  const std::string two = test::temp_directory("two") + "/out";
  ASSERT_EQ(run_on(2, first_half(two, "0")).exit_code, 0);
  const auto result = run_on(3, {"--backend", "cpu", "--restart", two + "/heat_000002.hdf", "--steps", "2", "--check",
                                 "--format", "none", "--output", test::temp_directory("check")});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("PASS"), std::string::npos) << result.output;
}

// A rank that finds a non-finite value in its planes of a file names the point by the grid's
// numbering, not its box's: the NaN sits in the upper rank's planes.
TEST(MpirunRestartReads, ANonFiniteValueIsNamedWhereItIsInTheGrid) {
  const Grid grid{12, 10, 40, 0.1, 0.1, 0.1};
  Field<double> u = randn_field(grid, 3);
  u(3, 4, 33) = NAN;
  OutputSpec spec;
  spec.directory = test::temp_directory("nan-input");
  RunDescription run;
  run.problem.grid = grid;
  run.problem.order = 2;
  run.problem.dt = 1e-5;
  run.cfl = 0.05;
  run.precision = "double";
  run.init = "randn";
  run.formats = "hdf5";
  SnapshotWriter(spec, run).write(u, 0, 0.0);
  const auto result = run_on(2, {"--backend", "cpu", "--order", "2", "--init-file", spec.directory + "/heat_000000.hdf",
                                 "--steps", "1", "--format", "none", "--output", test::temp_directory("nan-out")});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("the first at (3,4,33)"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace heat
