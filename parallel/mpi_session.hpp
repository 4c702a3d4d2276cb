// MPI for the lifetime of one object: initialised in the constructor, finalised in the
// destructor, with the rank's place in the job and on its node.
//
// Failure contract (docs/design.md §7): a rank that fails while others may be waiting on it calls
// abort_job(), which ends every rank of the job; bad input found by every rank alike (too many
// ranks) needs no abort: every rank throws the same InputError and exits 2 on its own.
#pragma once

#include <mpi.h>

namespace heat {

class MpiSession {
 public:
  // Asks for MPI_THREAD_MULTIPLE, so that the snapshot writer thread may wait for the other
  // ranks' writers while the loop's thread exchanges halos; needs MPI_THREAD_FUNNELED at least
  // (every other MPI call is made by the thread that made the session).
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  MPI_Comm world() const { return MPI_COMM_WORLD; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // The rank among those on the same node (MPI_COMM_TYPE_SHARED): the GPU this rank takes.
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }
  // True when any thread may call MPI at any time (MPI gave MPI_THREAD_MULTIPLE).
  bool any_thread_may_call() const { return any_thread_may_call_; }
  // The snapshot writers' own communicator (a duplicate of the world's): a barrier of the writers
  // on it never matches a collective that the loop's thread makes on the world's.
  MPI_Comm snapshot_writers() const { return snapshot_writers_; }

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  bool any_thread_may_call_ = false;
  MPI_Comm snapshot_writers_ = MPI_COMM_NULL;
};

// Ends every rank of the job with `exit_code` (MPI_Abort on MPI_COMM_WORLD), so that no rank
// waits forever on one that failed; this process ends within kAbortGraceSeconds even where
// MPI_Abort does not return. Safe to call before MPI_Init or after MPI_Finalize: it then exits
// this process alone.
constexpr int kAbortGraceSeconds = 5;
[[noreturn]] void abort_job(int exit_code);

}  // namespace heat
