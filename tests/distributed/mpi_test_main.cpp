// main() of the GoogleTest programs that run under mpirun: MPI around the tests, and one
// rank's output. The tests reach their verdicts collectively (every rank asserts the same
// reduced value), so rank 0's report is the job's; the exit code is the worst of all ranks.
#include <gtest/gtest.h>

#include "mpi_support.hpp"

namespace heat::test {
namespace {
const MpiSession* the_session = nullptr;
}
const MpiSession& mpi_session() { return *the_session; }
}  // namespace heat::test

int main(int argc, char** argv) {
  heat::MpiSession mpi(argc, argv);
  heat::test::the_session = &mpi;
  ::testing::InitGoogleTest(&argc, argv);
  if (mpi.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int result = RUN_ALL_TESTS();
  int worst = result;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, mpi.world());
  return worst;
}
