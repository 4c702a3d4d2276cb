// validate_on_every_rank under mpirun: bad input found on some ranks becomes the same
// InputError on every rank (so every rank exits 2 and none waits on the others).
#include <gtest/gtest.h>

#include <string>

#include "mpi_support.hpp"
#include "parallel/collective_input.hpp"
#include "parallel/decomposition.hpp"

namespace heat {
namespace {

// The message every rank ended with, or "" when none threw.
std::string message_after(const std::function<void()>& validate) {
  try {
    validate_on_every_rank(MPI_COMM_WORLD, validate);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ValidateOnEveryRank, NothingWrongThrowsNowhere) {
  EXPECT_EQ(message_after([] {}), "");
}

TEST(ValidateOnEveryRank, OneRanksErrorReachesEveryRank) {
  const int last = test::world_size() - 1;
  const std::string message = message_after([&] {
    if (test::world_rank() == last) throw InputError("rank " + std::to_string(last) + " cannot read its file");
  });
  EXPECT_EQ(test::sum_over_ranks(message == "rank " + std::to_string(last) + " cannot read its file" ? 0 : 1), 0)
      << "rank " << test::world_rank() << " got: '" << message << "'";
}

TEST(ValidateOnEveryRank, TheLowestFailingRankSpeaks) {
  const std::string message = message_after([] {
    if (test::world_rank() > 0 || test::world_size() == 1)
      throw InputError("rank " + std::to_string(test::world_rank()) + " failed");
  });
  const std::string lowest = test::world_size() == 1 ? "rank 0 failed" : "rank 1 failed";
  EXPECT_EQ(test::sum_over_ranks(message == lowest ? 0 : 1), 0) << "rank " << test::world_rank() << ": " << message;
}

TEST(ValidateOnEveryRank, TooManyRanksIsRefusedOnEveryRank) {
  if (test::world_size() == 1) GTEST_SKIP() << "one rank is never too many";
  // order 4: each rank needs 2 planes; 2 * (ranks - 1) + 1 interior planes hold one rank fewer.
  Grid g;
  g.nx = g.ny = 8;
  g.nz = 4 + 2 * (test::world_size() - 1) + 1;
  const std::string message = message_after([&] { decompose(g, 4, test::world_size(), test::world_rank()); });
  const int most = test::world_size() - 1;
  const std::string limit = "at most " + std::to_string(most) + (most == 1 ? " rank " : " ranks ");
  EXPECT_EQ(test::sum_over_ranks(message.find(limit) != std::string::npos ? 0 : 1), 0) << message;
}

}  // namespace
}  // namespace heat
