// Bad input found on some ranks only (one rank's file missing, a node short of GPUs) must still
// end every rank with exit code 2 and one message, before any work starts: the ranks that found
// nothing wrong would otherwise wait forever in their first exchange.
#pragma once

#include <mpi.h>

#include <functional>

namespace heat {

// Runs `validate` on every rank of `comm` (collective: every rank calls it at the same point).
// If it throws InputError on any rank, it throws InputError on every rank, with the message of
// the lowest rank that failed, so that rank 0 can print it for the whole job.
void validate_on_every_rank(MPI_Comm comm, const std::function<void()>& validate);

}  // namespace heat
