// main() of the GoogleTest programs that run under mpirun: MPI around the tests, and one
// rank's output. The tests reach their verdicts collectively (every rank asserts the same
// reduced value), so rank 0's report is the job's; the exit code is the worst of all ranks.
#include <gtest/gtest.h>

#include "solver/distributed/mpi_session.hpp"

int main(int argc, char** argv) {
  heat::MpiSession mpi(argc, argv);
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
