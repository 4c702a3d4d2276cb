// A damaged ZFP chunk (its Fletcher-32 no longer matches), or gzip chunk, is refused by restart and compare with
// exit 2, naming the file and the chunk's position, and nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/hdf5_support.hpp"
#include "io/zfp/zfp_chunks.hpp"
#include "test_support.hpp"
#include "zfp_test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

// The origin and file offset of chunk `n` of /VTKHDF/PointData/u in `path`.
struct ChunkPlace {
  hsize_t origin[3] = {0, 0, 0};
  haddr_t address = 0;
  hsize_t size = 0;
};
ChunkPlace chunk_place(const std::string& path, hsize_t n) {
  h5::initialize_library();
  ChunkPlace place;
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  h5::Handle dataset(H5Dopen2(file.get(), "/VTKHDF/PointData/u", H5P_DEFAULT), H5Dclose);
  h5::Handle space(H5Dget_space(dataset.get()), H5Sclose);
  unsigned mask = 0;
  EXPECT_GE(H5Dget_chunk_info(dataset.get(), space.get(), n, place.origin, &mask, &place.address, &place.size), 0);
  return place;
}

// Flips a few bytes in the middle of the chunk.
void damage(const std::string& path, const ChunkPlace& place) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(std::streamoff(place.address + place.size / 2));
  char bytes[4];
  file.read(bytes, 4);
  for (char& b : bytes) b = char(~b);
  file.seekp(std::streamoff(place.address + place.size / 2));
  file.write(bytes, 4);
}

// ZFP chunks are decoded by heatrk4 itself, gzip ones through HDF5's pipeline (whose failure is
// then traced to its chunk): both name it.
void expect_damage_refused(const std::string& codec) {
  const Grid g = test::partial_chunk_grid();
  const std::string dir = test::temp_directory("zfp-damage");
  const std::string clean = dir + "/clean.hdf", damaged = dir + "/damaged.hdf";
  const auto u = test::test_field<float>(g, true);
  write_vtkhdf_file<float>(clean, u, test::zfp_run(g, true), 5, 0.5, parse_compression(codec));
  fs::copy_file(clean, damaged);
  const ChunkPlace place = chunk_place(damaged, 1);  // the second chunk: not at the origin
  ASSERT_GT(place.origin[0] + place.origin[1], 0u);
  damage(damaged, place);
  const std::string chunk = "the chunk at (z, y, x) = (" + std::to_string(place.origin[0]) + ", " +
                            std::to_string(place.origin[1]) + ", " + std::to_string(place.origin[2]) + ")";

  const auto compared = test::run_heatrk4({"compare", clean, damaged});
  EXPECT_EQ(compared.exit_code, 2) << compared.output;
  EXPECT_NE(compared.output.find(damaged + ": " + chunk), std::string::npos) << compared.output;

  const std::string out = dir + "/restarted";
  const auto restarted = test::run_heatrk4(
      {"--backend", "cpu", "--order", "2", "--init", "file", "--init-file", damaged, "--steps", "1", "--output", out});
  EXPECT_EQ(restarted.exit_code, 2) << restarted.output;
  EXPECT_NE(restarted.output.find(damaged + ": " + chunk), std::string::npos) << restarted.output;
  EXPECT_FALSE(fs::exists(out)) << "a run from a damaged file wrote output";

  // The undamaged file restarts (the damage, not the reader, made the difference).
  const auto sound = test::run_heatrk4(
      {"--backend", "cpu", "--order", "2", "--init", "file", "--init-file", clean, "--steps", "1", "--format", "none"});
  EXPECT_EQ(sound.exit_code, 0) << sound.output;
}

TEST(ZfpDamage, RestartAndCompareRefuseADamagedChunkNamingFileAndChunk) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  expect_damage_refused("zfp:1e-6");
}

TEST(ZfpDamage, ADamagedGzipChunkIsNamedToo) { expect_damage_refused("gzip:1"); }

}  // namespace
}  // namespace heat
