// A job in which one rank fails while its neighbour waits on it: the failing rank's
// abort_job(3) must end the whole job with exit code 3 (CTest's timeout catches a hang).
#include <cstdio>

#include "parallel/mpi_check.hpp"
#include "parallel/mpi_session.hpp"

int main(int argc, char** argv) {
  heat::MpiSession mpi(argc, argv);
  try {
    if (mpi.rank() == mpi.size() - 1) throw heat::RunError("test hook: the last rank fails mid-run");
    // Waits for a message the failed rank never sends.
    double halo = 0;
    HEAT_MPI_CHECK(MPI_Recv(&halo, 1, MPI_DOUBLE, mpi.size() - 1, 0, mpi.world(), MPI_STATUS_IGNORE));
  } catch (const heat::RunError& e) {
    std::fprintf(stderr, "rank %d: %s\n", mpi.rank(), e.what());
    heat::abort_job(heat::exit_code::run_failure);
  }
  return 0;
}
