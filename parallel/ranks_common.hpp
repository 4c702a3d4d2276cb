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

// False where the command line shows that the process will not use a GPU: a cpu backend
// (`--backend cpu`, `--backend=cpu_reference`) or compare (backends, verify and convergence look
// for one, and verify and convergence step on it). A guess made before
// the command line is parsed, for what set-up may start early; a backend set in a --config file
// is not seen (the answer is then true).
bool command_line_may_take_a_gpu(int argc, const char* const* argv);

// True for a process started without an MPI launcher whose command line runs on CUDA device 0,
// the default: no --device but 0, no --config (whose file may name another), no cpu backend
// (command_line_may_take_a_gpu), no command but run, and CUDA_VISIBLE_DEVICES unset. Such a run needs
// no other GPU to be visible.
bool plain_run_on_the_default_gpu(int argc, const char* const* argv);

}  // namespace heat
