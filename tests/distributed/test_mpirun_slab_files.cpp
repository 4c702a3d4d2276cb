// The slab files of a distributed snapshot: HDF5 reads a virtual dataset's source it cannot use,
// or another run's, as if all were well (zeros, or the wrong data). Every reader (compare,
// --restart, --init-file) refuses a snapshot with a damaged or foreign slab file with exit 2 naming
// it; a snapshot that fails on one rank, before or after every slab file is complete, leaves no
// slab file without the file over it, so the next run in the directory is not refused as if
// another run's files were there; a run on ranks that replaces another run's snapshots leaves
// none of its files (the files over the slabs, the slab files of any rank count) and no trash.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "chunk_index_damage.hpp"
#include "io/compression.hpp"
#include "io/series_files.hpp"
#include "mpirun_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

using test::limit_files_of_rank;
using test::run_on;

// 2 ranks of 8 planes each (nz even), so that one rank's slab file has the other's shape.
std::vector<std::string> two_rank_run(const std::string& output, const std::string& seed) {
  return {"--backend", "cpu", "--order", "2", "--nx", "9", "--ny", "8", "--nz", "16", "--init", "randn", "--seed",
          seed, "--steps", "4", "--output-every", "2", "--output", output, "--quiet"};
}

void copy_run(const std::string& from, const std::string& to) {
  fs::copy(from, to, fs::copy_options::recursive);
}

struct Damage {
  std::string name;
  std::string fault;  // what the refusal says of the slab file
  void (*apply)(const std::string& run, const std::string& other_run, const std::string& damaged);
};

const std::string kSlab = "/heat_000004.rank1of2.h5";

const std::vector<Damage> kDamages = {
    {"cut short", "which does not open as HDF5 (cut short or damaged)",
     [](const std::string&, const std::string&, const std::string& damaged) {
       fs::resize_file(damaged + kSlab, fs::file_size(damaged + kSlab) / 2);
     }},
    {"another run's slab", "which was written by another run",
     [](const std::string&, const std::string& other, const std::string& damaged) {
       fs::copy_file(other + kSlab, damaged + kSlab, fs::copy_options::overwrite_existing);
     }},
    {"another step's slab", "which belongs to step 2 of this run, not to the snapshot's step 4",
     [](const std::string& run, const std::string&, const std::string& damaged) {
       fs::copy_file(run + "/heat_000002.rank1of2.h5", damaged + kSlab, fs::copy_options::overwrite_existing);
     }},
    {"the other rank's slab", "which holds the points from (x, y, z) = (0, 0, 0), but the snapshot maps it to the points from (0, 0, 8)",
     [](const std::string& run, const std::string&, const std::string& damaged) {
       fs::copy_file(run + "/heat_000004.rank0of2.h5", damaged + kSlab, fs::copy_options::overwrite_existing);
     }},
    {"an unrelated HDF5 file", "which has no dataset /u",
     [](const std::string& run, const std::string&, const std::string& damaged) {
       fs::copy_file(run + "/heat_000000.hdf", damaged + kSlab, fs::copy_options::overwrite_existing);
     }},
    {"not HDF5", "which is not an HDF5 file",
     [](const std::string&, const std::string&, const std::string& damaged) {
       std::ofstream(damaged + kSlab) << "not an HDF5 file\n";
     }},
};

TEST(MpirunSlabFiles, EveryReaderRefusesASnapshotWithADamagedOrForeignSlabFile) {
  const std::string run = test::temp_directory("run") + "/out";
  const std::string other = test::temp_directory("other") + "/out";
  ASSERT_EQ(run_on(2, two_rank_run(run, "1")).exit_code, 0);
  ASSERT_EQ(run_on(2, two_rank_run(other, "2")).exit_code, 0);
  // Sound, the snapshot reads and continues.
  const auto sound = test::run_heatrk4({"compare", run + "/heat_000004.hdf", other + "/heat_000004.hdf"});
  ASSERT_EQ(sound.exit_code, 1) << "different seeds must differ:\n" << sound.output;
  for (const Damage& damage : kDamages) {
    const std::string damaged = test::temp_directory("damaged") + "/out";
    copy_run(run, damaged);
    damage.apply(run, other, damaged);
    const std::string snapshot = damaged + "/heat_000004.hdf";
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"compare", snapshot, snapshot},
             {"--restart", snapshot, "--steps", "1", "--output", damaged + "/restarted"},
             {"--init-file", snapshot, "--steps", "1", "--output", damaged + "/from-file"}}) {
      const std::string label = damage.name + ", " + args[0];
      const auto result = test::run_heatrk4(args);
      EXPECT_EQ(result.exit_code, 2) << label << ":\n" << result.output;
      EXPECT_NE(result.output.find("maps the slab file " + damaged + kSlab + ", " + damage.fault), std::string::npos)
          << label << ":\n" << result.output;
    }
    // Under mpirun too: every rank refuses it, none waits on another.
    const auto restarted = run_on(2, {"--backend", "cpu", "--restart", snapshot, "--steps", "1", "--output",
                                      damaged + "/restarted2", "--quiet"});
    EXPECT_EQ(restarted.exit_code, 2) << damage.name << " on 2 ranks:\n" << restarted.output;
  }
}

// A slab file whose chunk index marks a filter skipped (HDF5 would decode its chunk without it and
// read past the result) is refused by every reader, on one rank and on two, naming the slab file
// and the chunk, for each codec.
TEST(MpirunSlabFiles, EveryReaderRefusesASlabFileWhoseChunkIndexMarksAFilterSkipped) {
  for (const auto& [codec, skipped_filter] : std::vector<std::pair<std::string, int>>{{"0", 0}, {"gzip:1", 1},
                                                                                      {"zfp:1e-6", 0}}) {
    if (codec.rfind("zfp", 0) == 0 && !built_with_zfp()) continue;
    const std::string run = test::temp_directory("mask") + "/out";
    std::vector<std::string> args = two_rank_run(run, "1");
    args.insert(args.end(), {"--compress", codec});
    ASSERT_EQ(run_on(2, args).exit_code, 0) << codec;
    test::flip_filter_mask_bit(run + kSlab, "/u", 0, skipped_filter);
    const std::string snapshot = run + "/heat_000004.hdf";
    const std::string named = run + kSlab + ": the chunk at (z, y, x) = (0, 0, 0) cannot be read";
    for (const auto& reader : std::vector<std::vector<std::string>>{
             {"compare", snapshot, snapshot},
             {"--restart", snapshot, "--steps", "1", "--output", run + "/restarted"},
             {"--init-file", snapshot, "--steps", "1", "--output", run + "/from-file"}}) {
      const auto result = test::run_heatrk4(reader);
      EXPECT_EQ(result.exit_code, 2) << codec << ", " << reader[0] << ":\n" << result.output;
      EXPECT_NE(result.output.find(named), std::string::npos) << codec << ", " << reader[0] << ":\n" << result.output;
    }
    const auto restarted = run_on(2, {"--backend", "cpu", "--restart", snapshot, "--steps", "1", "--output",
                                      run + "/restarted2", "--quiet"});
    EXPECT_EQ(restarted.exit_code, 2) << codec << " on 2 ranks:\n" << restarted.output;
    EXPECT_NE(restarted.output.find(named), std::string::npos) << codec << " on 2 ranks:\n" << restarted.output;
    for (const char* output : {"/restarted", "/from-file", "/restarted2"})
      EXPECT_FALSE(fs::exists(run + output)) << codec << ": " << output << " written";
  }
}

// The slab files in `directory` without the heat_<step>.hdf that maps them.
// A run that fails before its first snapshot removes the directory it made: then there are none.
std::vector<std::string> unmapped_slab_files(const std::string& directory) {
  std::vector<std::string> unmapped;
  if (!fs::exists(directory)) return unmapped;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    const int step = step_from_slab_file_name(name);
    if (step >= 0 && !fs::exists(directory + "/" + snapshot_name(step, "hdf"))) unmapped.push_back(name);
  }
  return unmapped;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += name + " ";
  return text;
}

// Rank 1's files limited to 1 KiB, less than its slab file, and its writes 500 ms late: its write
// fails once rank 0's slab file is complete. Nothing is left under a slab file's name, and the
// next run in the directory runs.
TEST(MpirunSlabFiles, ASnapshotFailingOnOneRankLeavesNoSlabFileForTheNextRunToRefuse) {
  for (const std::string buffers : {"0", "2"}) {
    const std::string out = test::temp_directory("write-fails") + "/out";
    std::vector<std::string> args = two_rank_run(out, "3");
    args.insert(args.end(), {"--snapshot-buffers", buffers});
    const auto failed = run_on(2, args, "OMPI_MCA_btl=self,tcp", limit_files_of_rank(1, 1024, "HEATRK4_TEST_WRITE_DELAY_MS=500"));
    ASSERT_EQ(failed.exit_code, 3) << buffers << " buffers:\n" << failed.output;
    EXPECT_EQ(joined(unmapped_slab_files(out)), "") << buffers << " buffers";
    const auto next = run_on(2, args);
    EXPECT_EQ(next.exit_code, 0) << buffers << " buffers: the next run in " << out << ":\n" << next.output;
    EXPECT_EQ(joined(unmapped_slab_files(out)), "") << buffers << " buffers";
  }
}

// Rank 0's files limited to between the size of its slab file and that of the file over the slabs:
// every slab file of step 0 is complete and renamed when rank 0 fails. They are removed.
TEST(MpirunSlabFiles, ASnapshotWhoseFileOverTheSlabsFailsLeavesNoSlabFile) {
  const std::string sound = test::temp_directory("sound") + "/out";
  ASSERT_EQ(run_on(2, two_rank_run(sound, "4")).exit_code, 0);
  const auto slab_bytes = long(fs::file_size(sound + "/heat_000000.rank0of2.h5"));
  const auto index_bytes = long(fs::file_size(sound + "/heat_000000.hdf"));
  ASSERT_LT(slab_bytes + 512, index_bytes) << "the limit must fall between the two";
  const std::string out = test::temp_directory("index-fails") + "/out";
  const auto failed =
      run_on(2, two_rank_run(out, "4"), "OMPI_MCA_btl=self,tcp", limit_files_of_rank(0, (slab_bytes + index_bytes) / 2));
  ASSERT_EQ(failed.exit_code, 3) << failed.output;
  EXPECT_NE(failed.output.find("heat_000000.hdf"), std::string::npos) << failed.output;
  EXPECT_EQ(joined(unmapped_slab_files(out)), "");
  EXPECT_EQ(run_on(2, two_rank_run(out, "4")).exit_code, 0) << "the next run in " << out;
}

TEST(MpirunSlabFiles, ARunOnRanksReplacingAnotherLeavesNoneOfItsSlabFiles) {
  const std::string dir = test::temp_directory("replace-ranks") + "/out";
  ASSERT_EQ(run_on(4, two_rank_run(dir, "1")).exit_code, 0);
  ASSERT_TRUE(fs::exists(dir + "/heat_000004.rank3of4.h5"));
  auto args = two_rank_run(dir, "2");
  *(std::find(args.begin(), args.end(), "--steps") + 1) = "2";
  args.push_back("--overwrite");
  const auto r = run_on(2, args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"heat.hdf.series", "heat_000000.hdf", "heat_000000.rank0of2.h5",
                                             "heat_000000.rank1of2.h5", "heat_000002.hdf", "heat_000002.rank0of2.h5",
                                             "heat_000002.rank1of2.h5"}));
  const auto same = test::run_heatrk4({"compare", dir + "/heat_000002.hdf", dir + "/heat_000002.hdf"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

}  // namespace
}  // namespace heat
