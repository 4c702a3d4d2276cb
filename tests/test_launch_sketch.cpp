// What a command line asks of the process before MPI and CUDA start (apps/launch_sketch.hpp): read
// by the command line's own options, so an option's value is never taken for a command, and a
// --config file's backend and device count.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "apps/launch_sketch.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

LaunchSketch sketch(std::vector<const char*> words) {
  words.insert(words.begin(), "heatrk4");
  return sketch_command_line(int(words.size()), words.data());
}

// Each test starts from an environment without a launcher's variables or visible GPUs.
class LaunchSketchTest : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "CUDA_VISIBLE_DEVICES"}) unsetenv(v);
  }
  std::string config(const std::string& text) {
    const std::string path = test::temp_directory("launch-sketch") + "/run.toml";
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(LaunchSketchTest, ARunWithAGpuBackendOrNoneNamedMayTakeAGpu) {
  for (const auto& words : std::vector<std::vector<const char*>>{
           {}, {"--n", "600", "--steps", "4"}, {"run", "--backend", "tiled"}, {"--backend=auto"}, {"verify"},
           {"backends"}, {"convergence", "--backend", "tiled"}}) {
    const LaunchSketch s = sketch(words);
    EXPECT_TRUE(s.parsed) << (words.empty() ? "(none)" : words.front());
    EXPECT_TRUE(s.may_take_a_gpu()) << s.command << " " << s.backend;
  }
}

TEST_F(LaunchSketchTest, ACpuBackendCompareAndConvergencesDefaultTakeNone) {
  EXPECT_FALSE(sketch({"--n", "96", "--backend", "cpu"}).may_take_a_gpu());
  EXPECT_FALSE(sketch({"run", "--backend=cpu_reference", "--steps", "2"}).may_take_a_gpu());
  EXPECT_FALSE(sketch({"compare", "a.hdf", "b.hdf"}).may_take_a_gpu());
  const LaunchSketch convergence = sketch({"convergence"});
  EXPECT_EQ(convergence.backend, "cpu") << "convergence measures the cpu backend unless told otherwise";
  EXPECT_FALSE(convergence.may_take_a_gpu());
}

// An argv scanner would take these values for commands or backends; the options' own table does not.
TEST_F(LaunchSketchTest, AnOptionsValueIsNotACommand) {
  const LaunchSketch out = sketch({"--output", "compare", "--json", "cpu.json"});
  EXPECT_EQ(out.command, "run");
  EXPECT_TRUE(out.may_take_a_gpu());
}

TEST_F(LaunchSketchTest, AConfigFilesBackendAndDeviceCount) {
  EXPECT_FALSE(sketch({"--config", config("backend = \"cpu\"\n").c_str()}).may_take_a_gpu());
  const LaunchSketch on_one = sketch({"--config", config("device = 1\n").c_str()});
  EXPECT_EQ(on_one.device, 1);
  EXPECT_FALSE(plain_run_on_the_default_gpu(on_one));
  EXPECT_TRUE(plain_run_on_the_default_gpu(sketch({"--config", config("steps = 3\n").c_str()})));
  EXPECT_EQ(sketch({"--config", config("device = 1\n").c_str(), "--device", "0"}).device, 0) << "the line wins";
}

// A line that does not parse is answered by the real parse; until then set-up may start.
TEST_F(LaunchSketchTest, ALineThatDoesNotParseMayTakeAGpuAndIsNoPlainRun) {
  for (const auto& words : std::vector<std::vector<const char*>>{{"--backend"}, {"--steps", "x"}, {"--help"}, {"-h"}}) {
    const LaunchSketch s = sketch(words);
    EXPECT_FALSE(s.parsed) << words.front();
    EXPECT_TRUE(s.may_take_a_gpu()) << words.front();
    EXPECT_FALSE(plain_run_on_the_default_gpu(s)) << words.front();
  }
}

TEST_F(LaunchSketchTest, APlainRunOnDeviceZeroNeedsNoOtherGpu) {
  EXPECT_TRUE(plain_run_on_the_default_gpu(sketch({"--n", "600", "--steps", "4", "--backend", "tiled"})));
  EXPECT_TRUE(plain_run_on_the_default_gpu(sketch({"run", "--device", "0"})));
  EXPECT_TRUE(plain_run_on_the_default_gpu(sketch({"--device=0", "--restart", "out/heat_000004.hdf"})));
}

TEST_F(LaunchSketchTest, AnotherDeviceOrAnotherCommandMayNeedOthers) {
  EXPECT_FALSE(plain_run_on_the_default_gpu(sketch({"--device", "1"})));
  EXPECT_FALSE(plain_run_on_the_default_gpu(sketch({"--device=2"})));
  for (const char* command : {"backends", "verify", "compare", "convergence"})
    EXPECT_FALSE(plain_run_on_the_default_gpu(sketch({command}))) << command;
  EXPECT_FALSE(plain_run_on_the_default_gpu(sketch({"--backend", "cpu"})));
}

TEST_F(LaunchSketchTest, TheUsersVisibleGpusAndRanksAreLeftAlone) {
  setenv("CUDA_VISIBLE_DEVICES", "2,3", 1);
  EXPECT_FALSE(plain_run_on_the_default_gpu(sketch({})));
  unsetenv("CUDA_VISIBLE_DEVICES");
  for (const char* launcher : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK"}) {
    setenv(launcher, "1", 1);
    EXPECT_FALSE(plain_run_on_the_default_gpu(sketch({}))) << launcher;
    unsetenv(launcher);
  }
}

}  // namespace
}  // namespace heat
