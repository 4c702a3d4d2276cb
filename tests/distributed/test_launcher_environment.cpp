// What a process may start early, before MPI_Init and its command line's parse (ranks_common.hpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "parallel/ranks_common.hpp"

namespace heat {
namespace {

// Each test starts from an environment without any launcher's variables and leaves none behind.
class LauncherEnvironment : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "PMIX_RANK",
                          "CUDA_VISIBLE_DEVICES"})
      unsetenv(v);
  }
};

TEST_F(LauncherEnvironment, OpenMpisLocalRankAmongSeveral) {
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  EXPECT_EQ(launcher_local_rank_of_several(), 3);
}

TEST_F(LauncherEnvironment, HydrasLocalRankAmongSeveral) {
  setenv("PMI_SIZE", "8", 1);
  setenv("MPI_LOCALRANKID", "2", 1);
  EXPECT_EQ(launcher_local_rank_of_several(), 2);
}

TEST_F(LauncherEnvironment, NoneWithoutALauncher) { EXPECT_EQ(launcher_local_rank_of_several(), std::nullopt); }

// A rank alone takes --device, which is read later: nothing is started for it.
TEST_F(LauncherEnvironment, NoneForASingleRank) {
  setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0", 1);
  EXPECT_EQ(launcher_local_rank_of_several(), std::nullopt);
}

TEST_F(LauncherEnvironment, NoneForValuesThatDoNotRead) {
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  for (const char* local_rank : {"", "x", "1x", "-1", "4", "99"}) {
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", local_rank, 1);
    EXPECT_EQ(launcher_local_rank_of_several(), std::nullopt) << "local rank '" << local_rank << "'";
  }
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "four", 1);
  EXPECT_EQ(launcher_local_rank_of_several(), std::nullopt);
}

// The local rank without its count (a launcher that sets one name and not the other) starts nothing.
TEST_F(LauncherEnvironment, NoneForALocalRankWithoutItsCount) {
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("PMI_SIZE", "4", 1);
  EXPECT_EQ(launcher_local_rank_of_several(), std::nullopt);
}

bool may_take_a_gpu(std::vector<const char*> words) {
  words.insert(words.begin(), "heatrk4");
  return command_line_may_take_a_gpu(int(words.size()), words.data());
}

TEST(CommandLineMayTakeAGpu, ARunWithAGpuBackendOrNoneNamed) {
  EXPECT_TRUE(may_take_a_gpu({}));
  EXPECT_TRUE(may_take_a_gpu({"--n", "600", "--steps", "4"}));
  EXPECT_TRUE(may_take_a_gpu({"run", "--backend", "tiled"}));
  EXPECT_TRUE(may_take_a_gpu({"--backend=auto"}));
  EXPECT_TRUE(may_take_a_gpu({"--backend"}));  // the parser refuses it later
  EXPECT_TRUE(may_take_a_gpu({"--config", "cpu.toml"}));
}

TEST(CommandLineMayTakeAGpu, NotACpuBackendOrCompare) {
  EXPECT_FALSE(may_take_a_gpu({"--n", "96", "--backend", "cpu"}));
  EXPECT_FALSE(may_take_a_gpu({"--backend=cpu_reference", "--steps", "2"}));
  EXPECT_FALSE(may_take_a_gpu({"compare", "a.hdf", "b.hdf"}));
}

// verify and convergence step every CUDA backend on the GPU; backends describes it.
TEST(CommandLineMayTakeAGpu, TheCommandsThatLookForAGpu) {
  for (const char* command : {"backends", "verify", "convergence"}) EXPECT_TRUE(may_take_a_gpu({command})) << command;
  EXPECT_FALSE(may_take_a_gpu({"convergence", "--backend", "cpu"})) << "convergence of the cpu backend";
}

bool on_the_default_gpu(std::vector<const char*> words) {
  words.insert(words.begin(), "heatrk4");
  return plain_run_on_the_default_gpu(int(words.size()), words.data());
}

TEST_F(LauncherEnvironment, APlainRunOnDeviceZeroNeedsNoOtherGpu) {
  EXPECT_TRUE(on_the_default_gpu({"--n", "600", "--steps", "4", "--backend", "tiled"}));
  EXPECT_TRUE(on_the_default_gpu({"run", "--device", "0"}));
  EXPECT_TRUE(on_the_default_gpu({"--device=0", "--restart", "out/heat_000004.hdf"}));
}

TEST_F(LauncherEnvironment, AnotherDeviceAConfigFileOrAnotherCommandMayNeedOthers) {
  EXPECT_FALSE(on_the_default_gpu({"--device", "1"}));
  EXPECT_FALSE(on_the_default_gpu({"--device=2"}));
  EXPECT_FALSE(on_the_default_gpu({"--device"}));
  EXPECT_FALSE(on_the_default_gpu({"--config", "run.toml"}));
  EXPECT_FALSE(on_the_default_gpu({"--config=run.toml"}));
  for (const char* command : {"backends", "verify", "compare", "convergence"})
    EXPECT_FALSE(on_the_default_gpu({command})) << command;
  EXPECT_FALSE(on_the_default_gpu({"--backend", "cpu"}));
}

TEST_F(LauncherEnvironment, TheUsersVisibleGpusAndRanksAreLeftAlone) {
  setenv("CUDA_VISIBLE_DEVICES", "2,3", 1);
  EXPECT_FALSE(on_the_default_gpu({}));
  unsetenv("CUDA_VISIBLE_DEVICES");
  setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
  EXPECT_FALSE(on_the_default_gpu({}));
  unsetenv("OMPI_COMM_WORLD_SIZE");
  setenv("PMIX_RANK", "0", 1);
  EXPECT_FALSE(on_the_default_gpu({}));
}

}  // namespace
}  // namespace heat
