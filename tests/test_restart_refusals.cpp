// Files a run starts from that would make it write over a run's snapshots, or run with settings no
// option allows, are refused before any work (exit 2), the run's files left byte for byte: a
// VTKHDF file that records no run, placed in a run's directory (it would start a new series at
// step 0 there), a snapshot that lost its step or time (it would start again at step 0 over the
// series it continues), and a stored setting its option would refuse.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "io/hdf5_support.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

void expect_mentions(const test::CommandResult& r, const std::string& text, const std::string& label) {
  EXPECT_NE(r.output.find(text), std::string::npos) << label << ": expected '" << text << "' in:\n" << r.output;
}

// Snapshots at steps 0, 2 and 4 and their series in `directory`.
void write_run(const std::string& directory) {
  const auto r = test::run_heatrk4({"--backend", "cpu", "--order", "2", "--n", "12", "--init", "randn", "--steps", "4",
                                    "--output-every", "2", "--output", directory, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

// Every file of `directory` by name, with a hash of its bytes.
std::map<std::string, std::size_t> files_in(const std::string& directory) {
  std::map<std::string, std::size_t> files;
  for (const auto& entry : fs::directory_iterator(directory))
    files[entry.path().filename().string()] = std::hash<std::string>()(test::read_text(entry.path().string()));
  return files;
}

void remove_link(const std::string& path, const char* name) {
  h5::initialize_library();
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  ASSERT_TRUE(file.valid()) << path;
  ASSERT_GE(H5Ldelete(file.get(), name, H5P_DEFAULT), 0) << name;
}

void remove_attribute(const std::string& path, const char* group, const char* name) {
  h5::initialize_library();
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  h5::Handle g(H5Gopen2(file.get(), group, H5P_DEFAULT), H5Gclose);
  ASSERT_TRUE(g.valid()) << path << ": " << group;
  ASSERT_GE(H5Adelete(g.get(), name), 0) << name;
}

TEST(RestartRefusals, AFileRecordingNoRunInsideARunsDirectoryIsRefusedLikeAnyNewRun) {
  const std::string dir = test::temp_directory("foreign-inside") + "/run";
  write_run(dir);
  const std::string foreign = dir + "/foreign.hdf";
  fs::copy_file(dir + "/heat_000004.hdf", foreign);
  remove_link(foreign, "heatrk4");
  const auto before = files_in(dir);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--restart", foreign, "--steps", "2", "--output", dir},
           {"--init-file", foreign, "--steps", "2", "--output", dir},
           {"--restart", foreign, "--steps", "2"}}) {
    const std::string label = args[0] + (args.size() > 4 ? " --output" : "");
    const auto r = test::run_heatrk4(args);
    EXPECT_EQ(r.exit_code, 2) << label << ":\n" << r.output;
    expect_mentions(r, foreign + " records no heatrk4 run", label);
    expect_mentions(r, "holds another run's files", label);
    EXPECT_EQ(files_in(dir), before) << label << ": the run's files changed";
  }
  // Elsewhere, or with --overwrite, the file starts a run of its own.
  const std::string elsewhere = fs::path(dir).parent_path().string() + "/elsewhere";
  EXPECT_EQ(test::run_heatrk4({"--init-file", foreign, "--steps", "2", "--output", elsewhere, "--quiet"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(elsewhere + "/heat_000002.hdf"));
  const auto replaced = test::run_heatrk4({"--init-file", foreign, "--steps", "2", "--output", dir, "--overwrite",
                                           "--quiet"});
  EXPECT_EQ(replaced.exit_code, 0) << replaced.output;
  EXPECT_FALSE(fs::exists(dir + "/heat_000004.hdf")) << "--overwrite replaces the run";
}

TEST(RestartRefusals, ASnapshotWithoutItsStepOrTimeIsRefusedNamingTheAttribute) {
  for (const char* attribute : {"step", "time"}) {
    const std::string dir = test::temp_directory("no-step") + "/run";
    write_run(dir);
    const std::string snapshot = dir + "/heat_000004.hdf";
    remove_attribute(snapshot, "heatrk4", attribute);
    const auto before = files_in(dir);
    for (const auto& args : std::vector<std::vector<std::string>>{{"--restart", snapshot, "--steps", "2"},
                                                                  {"--init-file", snapshot, "--steps", "2", "--output", dir}}) {
      const std::string label = std::string(attribute) + ", " + args[0];
      const auto r = test::run_heatrk4(args);
      EXPECT_EQ(r.exit_code, 2) << label << ":\n" << r.output;
      expect_mentions(r, snapshot + ": /heatrk4 has no " + attribute + " attribute", label);
      EXPECT_EQ(files_in(dir), before) << label << ": the run's files changed";
    }
  }
}

// An attribute of /heatrk4 replaced by a number or a string.
void replace_attribute(const std::string& path, const char* name, const std::variant<double, std::string>& value) {
  remove_attribute(path, "heatrk4", name);
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  h5::Handle g(H5Gopen2(file.get(), "heatrk4", H5P_DEFAULT), H5Gclose);
  ASSERT_GE(std::holds_alternative<double>(value)
                ? h5::write_scalar_attribute(g.get(), name, std::get<double>(value))
                : h5::write_string_attribute(g.get(), name, std::get<std::string>(value)),
            0)
      << name;
}

// A stored backend this build lacks is no refusal: the restart takes auto and says why, on stderr,
// in the summary and in the JSON; --backend given says nothing of it.
TEST(RestartRefusals, AStoredBackendThisBuildLacksGivesAutoWithANote) {
  const std::string dir = test::temp_directory("stored-backend") + "/run";
  write_run(dir);
  const std::string snapshot = dir + "/heat_000004.hdf";
  replace_attribute(snapshot, "backend", std::string("abacus"));
  const std::string json = dir + "/../summary.json";
  const auto r = test::run_heatrk4({"--restart", snapshot, "--steps", "2", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string why = snapshot + " stores backend abacus, which is unknown: this build has ";
  expect_mentions(r, "heatrk4: note: " + why, "stderr");
  expect_mentions(r, "  restart   " + why, "summary");
  expect_mentions(r, "this run takes auto (give --backend to choose)", "summary");
  expect_mentions(r, "; not the stored abacus; auto: ", "backend line");
  const std::string text = test::read_text(json);
  EXPECT_NE(text.find("\"stored_backend_refused\": \"" + why), std::string::npos) << text;
  const auto given = test::run_heatrk4({"--restart", snapshot, "--steps", "2", "--backend", "cpu"});
  ASSERT_EQ(given.exit_code, 0) << given.output;
  EXPECT_EQ(given.output.find("stores backend"), std::string::npos) << given.output;
  expect_mentions(given, "--backend cpu overrides the value stored in " + snapshot + " (backend abacus)", "override");
}

// Each value is one its option refuses (--alpha 0, --precision ""), or no run's time.
TEST(RestartRefusals, AStoredSettingItsOptionWouldRefuseIsNamedWithItsValue) {
  struct Stored {
    const char* name;
    std::variant<double, std::string> value;
    std::string named;  // what the refusal says of it
  };
  const std::vector<Stored> cases = {
      {"alpha", 0.0, "alpha = 0 is not a positive number"},      {"alpha", -1.0, "alpha = -1 is not a positive number"},
      {"dt", 0.0, "dt = 0 is not a positive number"},            {"cfl", 0.0, "cfl = 0 is not a positive number"},
      {"time", -1.0, "time = -1 is not a finite number of 0 or more"},
      {"precision", std::string(), "precision is empty"},        {"format", std::string(), "format is empty"},
      {"compression", std::string(), "compression is empty"},    {"order", 0.0, "order = 0 is not 2, 4, 6 or 8"}};
  const std::string dir = test::temp_directory("stored") + "/run";
  write_run(dir);
  for (const Stored& stored : cases) {
    const std::string snapshot = dir + "/edited.hdf";
    fs::copy_file(dir + "/heat_000004.hdf", snapshot, fs::copy_options::overwrite_existing);
    replace_attribute(snapshot, stored.name, stored.value);
    const auto before = files_in(dir);
    for (const auto& args : std::vector<std::vector<std::string>>{{"--restart", snapshot, "--steps", "2"},
                                                                  {"--init-file", snapshot, "--steps", "2", "--output", dir}}) {
      const std::string label = std::string(stored.name) + ", " + args[0];
      const auto r = test::run_heatrk4(args);
      EXPECT_EQ(r.exit_code, 2) << label << ":\n" << r.output;
      expect_mentions(r, snapshot + ": /heatrk4: " + stored.named, label);
      EXPECT_EQ(files_in(dir), before) << label << ": the run's files changed";
    }
  }
}

}  // namespace
}  // namespace heat
