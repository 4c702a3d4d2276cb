// ZFP under mpirun with cpu ranks: each rank compresses its slab file (its chunks start at its own
// first plane, a multiple of 4 for lossy ZFP), the virtual dataset over them is unchanged, and what
// it reads is the one-rank run's bitwise and the uncompressed run's within the bound (reversible:
// bitwise), per codec x precision x rank count, on z slabs and on the rank grids 2x2x1 and 1x2x2; a
// damaged chunk of one slab file is refused by compare and restart, naming that slab file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/compression.hpp"
#include "io/hdf5_support.hpp"
#include "io/input_file.hpp"
#include "mpirun_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_on;

std::vector<std::string> zfp_args(const std::string& precision, const std::string& codec, const std::string& out) {
  // order 4, nz odd and uneven over 2 and 3 ranks; nx != ny, and wide enough for the cpu backend's
  // 16-value rows (float; its vectors are as wide as the interior allows) on 2 ranks along x.
  return {"--backend",  "cpu", "--order",  "4",     "--precision", precision, "--nx",    "37", "--ny",           "14",
          "--nz",       "21",  "--init",   "randn", "--cfl",       "0.2",     "--steps", "4",  "--output-every", "2",
          "--compress", codec, "--output", out,     "--quiet"};
}

double max_difference(const Field<double>& a, const Field<double>& b) {
  double most = 0;
  for (std::size_t n = 0; n < a.size(); ++n) most = std::max(most, std::abs(a.data()[n] - b.data()[n]));
  return most;
}

TEST(MpirunZfp, RankFilesReadAsTheUncompressedRunWithinTheBoundOnSlabsAndGrids) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (const char* precision : {"float", "double"}) {
    const std::string plain = test::temp_directory("zfp-plain");
    ASSERT_EQ(run_on(1, zfp_args(precision, "0", plain)).exit_code, 0);
    for (const char* codec : {"zfp:1e-6", "zfp:reversible"}) {
      std::string one_rank;
      struct Layout {
        int ranks;
        const char* grid;
      };
      for (const Layout layout : {Layout{1, "slabs"}, Layout{2, "slabs"}, Layout{3, "slabs"}, Layout{4, "2x2x1"},
                                  Layout{4, "1x2x2"}}) {
        const int ranks = layout.ranks;
        const std::string label =
            std::string(precision) + " " + codec + " on " + std::to_string(ranks) + " ranks, " + layout.grid;
        const std::string out = test::temp_directory("zfp-ranks");
        std::vector<std::string> args = zfp_args(precision, codec, out);
        args.insert(args.end(), {"--ranks-grid", layout.grid});
        const auto result = run_on(ranks, args);
        ASSERT_EQ(result.exit_code, 0) << label << "\n" << result.output;
        if (ranks > 1) EXPECT_TRUE(fs::exists(out + "/heat_000004.rank1of" + std::to_string(ranks) + ".h5")) << label;
        // Lossy too: the ranks' parts begin at multiples of zfp's 4-plane blocks, so each value is
        // stored as in one process, whatever the rank count.
        if (ranks == 1) one_rank = out;
        else test::expect_same_snapshots(one_rank, out, label);
        const Compression c = parse_compression(codec);
        for (const char* step : {"000000", "000002", "000004"}) {
          const PointArray a = read_point_array(plain + "/heat_" + step + ".hdf", "u");
          const PointArray b = read_point_array(out + "/heat_" + step + ".hdf", "u");
          EXPECT_EQ(a.stored_as_float, b.stored_as_float) << label;
          EXPECT_LE(max_difference(a.values, b.values), c.lossless() ? 0.0 : c.bound) << label << " step " << step;
        }
      }
    }
  }
}

// A restart on ranks decodes each rank's planes of a ZFP snapshot (lossy and reversible, written
// on 2 ranks) as one process does: the continuations on 1 and 3 ranks are bitwise the same.
TEST(MpirunZfp, RanksRestartFromAZfpSnapshotAsOneProcessDoes) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (const char* codec : {"zfp:1e-6", "zfp:reversible"}) {
    const std::string first = test::temp_directory("zfp-first");
    ASSERT_EQ(run_on(2, zfp_args("double", codec, first)).exit_code, 0) << codec;
    PointArray one_rank;
    for (int ranks : {1, 3}) {
      const std::string label = std::string(codec) + ", a restart on " + std::to_string(ranks) + " ranks";
      const std::string out = test::temp_directory("zfp-restart");
      const auto result = run_on(ranks, {"--backend", "cpu", "--restart", first + "/heat_000004.hdf", "--steps", "2",
                                         "--compress", "0", "--output", out, "--quiet"});
      ASSERT_EQ(result.exit_code, 0) << label << "\n" << result.output;
      const PointArray u = read_point_array(out + "/heat_000006.hdf", "u");
      if (ranks == 1) one_rank = u;
      else EXPECT_EQ(test::bitwise_differences(u.values, one_rank.values), 0) << label;
    }
  }
}

TEST(MpirunZfp, ADamagedChunkOfASlabFileIsRefusedNamingTheSlabFile) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  const std::string out = test::temp_directory("zfp-damaged-slab");
  ASSERT_EQ(run_on(2, zfp_args("float", "zfp:1e-6", out)).exit_code, 0);
  const std::string slab = out + "/heat_000004.rank1of2.h5";
  {
    h5::initialize_library();
    h5::Handle file(H5Fopen(slab.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    h5::Handle dataset(H5Dopen2(file.get(), "/u", H5P_DEFAULT), H5Dclose);
    h5::Handle space(H5Dget_space(dataset.get()), H5Sclose);
    hsize_t origin[3], size = 0;
    haddr_t address = 0;
    unsigned mask = 0;
    ASSERT_GE(H5Dget_chunk_info(dataset.get(), space.get(), 0, origin, &mask, &address, &size), 0);
    std::fstream bytes(slab, std::ios::in | std::ios::out | std::ios::binary);
    bytes.seekp(std::streamoff(address + size / 2));
    bytes.write("\xde\xad\xbe\xef", 4);
  }
  const auto compared = test::run_heatrk4({"compare", out + "/heat_000004.hdf", out + "/heat_000002.hdf"});
  EXPECT_EQ(compared.exit_code, 2) << compared.output;
  EXPECT_NE(compared.output.find(slab + ": the chunk at (z, y, x) = (0, 0, 0)"), std::string::npos) << compared.output;
  const std::string restarted = out + "/restarted";
  const auto restart = test::run_heatrk4({"--backend", "cpu", "--order", "4", "--init", "file", "--init-file",
                                          out + "/heat_000004.hdf", "--steps", "1", "--output", restarted});
  EXPECT_EQ(restart.exit_code, 2) << restart.output;
  EXPECT_NE(restart.output.find(slab), std::string::npos) << restart.output;
  EXPECT_FALSE(fs::exists(restarted));
}

}  // namespace
}  // namespace heat
