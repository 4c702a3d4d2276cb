#include "parallel/ranks.hpp"
// What both Ranks implementations share: the process's Ranks.
#pragma once

#include <optional>

namespace heat {

void set_process_ranks(const Ranks* ranks);

// What a process can tell of its launch before MPI_Init and before its command line is parsed:
// guesses for what set-up may start early, never for what a run computes.

// True under an MPI launcher: OpenMPI's mpirun, and PMI/PMIx launchers (MPICH's hydra, Slurm's
// srun), tell their ranks so.
bool started_by_mpi_launcher();

// The node-local rank that the launcher puts in this process's environment before MPI_Init, where
// it starts several ranks: OpenMPI's mpirun (OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK) or
// MPICH's hydra (PMI_SIZE, MPI_LOCALRANKID). None for a single rank, another launcher, or values
// that are not a count and a rank below it.
std::optional<int> launcher_local_rank_of_several();

}  // namespace heat
