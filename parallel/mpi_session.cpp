#include "parallel/mpi_session.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "parallel/mpi_check.hpp"

namespace heat {

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  HEAT_MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  try {
    if (provided < MPI_THREAD_FUNNELED) throw RunError("MPI cannot give MPI_THREAD_FUNNELED");
    any_thread_may_call_ = provided >= MPI_THREAD_MULTIPLE;
    HEAT_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    HEAT_MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &snapshot_writers_));
    HEAT_MPI_CHECK(MPI_Comm_set_errhandler(snapshot_writers_, MPI_ERRORS_RETURN));
    HEAT_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
    HEAT_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size_));
    MPI_Comm node = MPI_COMM_NULL;
    HEAT_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node));
    const int local_rank_status = MPI_Comm_rank(node, &local_rank_);
    const int local_size_status = MPI_Comm_size(node, &local_size_);
    HEAT_MPI_CHECK(MPI_Comm_free(&node));
    HEAT_MPI_CHECK(local_rank_status);
    HEAT_MPI_CHECK(local_size_status);
  } catch (...) {
    if (snapshot_writers_ != MPI_COMM_NULL) MPI_Comm_free(&snapshot_writers_);
    MPI_Finalize();
    throw;
  }
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (snapshot_writers_ != MPI_COMM_NULL) MPI_Comm_free(&snapshot_writers_);
  MPI_Finalize();
}

void abort_job(int exit_code) {
  // MPI_Abort kills this process too, without flushing what it has printed.
  std::fflush(stdout);
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) {
    // MPI_Abort asks mpirun to end the job and waits for it. Open MPI 4.1.4's mpirun, ending a job
    // in which ranks die at once (one aborting, another killed, a third aborting too), was seen to
    // leave a rank spinning in MPI_Abort for good: so this rank ends itself a few seconds later
    // whatever happens, and mpirun, reaping it, ends the job with its exit code.
    std::thread([exit_code] {
      std::this_thread::sleep_for(std::chrono::seconds(kAbortGraceSeconds));
      std::_Exit(exit_code);
    }).detach();
    MPI_Abort(MPI_COMM_WORLD, exit_code);
  }
  std::_Exit(exit_code);
}

}  // namespace heat
