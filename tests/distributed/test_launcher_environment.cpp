// What a process can tell of its launch from its environment before MPI_Init (ranks_common.hpp).
#include <gtest/gtest.h>

#include <cstdlib>

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

}  // namespace
}  // namespace heat
