// A snapshot whose chunk index is damaged (a bit of a chunk's filter mask flipped, or its stored
// size cut), its chunk bytes and checksum intact, is refused by every reader with exit 2 naming
// the file and the chunk, for every codec, and nothing is written: HDF5 would decode such a chunk
// without its filter, or read past it, and hand over values from beyond the chunk or crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "chunk_index_damage.hpp"
#include "io/compression.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

const std::string kDataset = "/VTKHDF/PointData/u";

// A snapshot at step 1 of a small run with `codec`: one chunk (chunks are about 4 MiB).
std::string snapshot_with(const std::string& codec, const std::string& directory) {
  const auto written = test::run_heatrk4({"--backend", "cpu", "--order", "2", "--nx", "24", "--ny", "20", "--nz", "16",
                                          "--init", "randn", "--steps", "1", "--compress", codec, "--output",
                                          directory, "--quiet"});
  EXPECT_EQ(written.exit_code, 0) << written.output;
  return directory + "/heat_000001.hdf";
}

struct Codec {
  std::string name;
  hsize_t chunk;  // the chunk damaged
  int skipped_filter;  // the mask bit flipped: the filter whose absence HDF5 cannot survive
};

const std::vector<Codec> kCodecs = {{"0", 0, 0}, {"gzip:1", 0, 1}, {"zfp:1e-6", 0, 0}};

std::string chunk_text(const test::ChunkEntry& entry) {
  return "the chunk at (z, y, x) = (" + std::to_string(entry.origin[0]) + ", " + std::to_string(entry.origin[1]) +
         ", " + std::to_string(entry.origin[2]) + ")";
}

// Every reader refuses `damaged` (chunk `chunk` of it damaged) with exit 2 naming it and the chunk,
// and writes nothing.
void expect_every_reader_refuses(const std::string& clean, const std::string& damaged, const test::ChunkEntry& entry,
                                 const std::string& label) {
  const std::string dir = fs::path(damaged).parent_path().string();
  const std::string named = damaged + ": " + chunk_text(entry);
  const auto compared = test::run_heatrk4({"compare", clean, damaged});
  EXPECT_EQ(compared.exit_code, 2) << label << ", compare:\n" << compared.output;
  EXPECT_NE(compared.output.find(named), std::string::npos) << label << ", compare:\n" << compared.output;
  const std::vector<std::vector<std::string>> runs = {
      {"--restart", damaged, "--steps", "1", "--output", dir + "/restarted"},
      {"--init-file", damaged, "--steps", "1", "--output", dir + "/from-file"},
      {"--backend", "cpu", "--order", "2", "--init", "file", "--init-file", damaged, "--steps", "1", "--output",
       dir + "/init-file"}};
  for (const auto& args : runs) {
    const auto result = test::run_heatrk4(args);
    EXPECT_EQ(result.exit_code, 2) << label << ", " << args[0] << ":\n" << result.output;
    EXPECT_NE(result.output.find(named), std::string::npos) << label << ", " << args[0] << ":\n" << result.output;
    EXPECT_FALSE(fs::exists(args[args.size() - 1])) << label << ", " << args[0] << " wrote output";
  }
}

TEST(ChunkIndexDamage, AFlippedFilterMaskBitIsRefusedByEveryReaderForEveryCodec) {
  for (const Codec& codec : kCodecs) {
    if (codec.name.rfind("zfp", 0) == 0 && !built_with_zfp()) continue;
    const std::string dir = test::temp_directory("mask");
    const std::string clean = snapshot_with(codec.name, dir + "/run");
    const std::string damaged = dir + "/damaged.hdf";
    fs::copy_file(clean, damaged);
    test::flip_filter_mask_bit(damaged, kDataset, codec.chunk, codec.skipped_filter);
    const test::ChunkEntry entry = test::chunk_entry(damaged, kDataset, codec.chunk);
    ASSERT_EQ(entry.filter_mask, 1u << codec.skipped_filter) << codec.name;
    expect_every_reader_refuses(clean, damaged, entry, codec.name + ", mask bit " +
                                                           std::to_string(codec.skipped_filter) + " flipped");
  }
}

TEST(ChunkIndexDamage, AChunkStoredShorterThanItsValuesIsRefusedByEveryReaderForEveryCodec) {
  for (const Codec& codec : kCodecs) {
    if (codec.name.rfind("zfp", 0) == 0 && !built_with_zfp()) continue;
    const std::string dir = test::temp_directory("short");
    const std::string clean = snapshot_with(codec.name, dir + "/run");
    const std::string damaged = dir + "/damaged.hdf";
    fs::copy_file(clean, damaged);
    test::shorten_chunk(damaged, kDataset, codec.chunk, 8);
    expect_every_reader_refuses(clean, damaged, test::chunk_entry(damaged, kDataset, codec.chunk),
                                codec.name + ", 8 bytes short");
  }
}

// The undamaged snapshots read: the refusals above are the damage's, not the readers'.
TEST(ChunkIndexDamage, TheSameSnapshotsUndamagedRestartAndCompare) {
  for (const Codec& codec : kCodecs) {
    if (codec.name.rfind("zfp", 0) == 0 && !built_with_zfp()) continue;
    const std::string dir = test::temp_directory("sound");
    const std::string clean = snapshot_with(codec.name, dir + "/run");
    const auto compared = test::run_heatrk4({"compare", clean, clean});
    EXPECT_EQ(compared.exit_code, 0) << codec.name << ":\n" << compared.output;
    const auto restarted = test::run_heatrk4({"--restart", clean, "--steps", "2", "--output", dir + "/restarted"});
    EXPECT_EQ(restarted.exit_code, 0) << codec.name << ":\n" << restarted.output;
  }
}

}  // namespace
}  // namespace heat
