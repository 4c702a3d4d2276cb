// GPU ranks of a distributed run: the GPU each rank takes, and the exchange of its device box's
// ghost planes by the route the run chose (GpuHaloRoute). Only in builds with CUDA and MPI.
#pragma once

#include <mpi.h>

#include <memory>
#include <utility>
#include <vector>

#include "parallel/halo_exchange.hpp"

namespace heat {

// Starts the CUDA driver and, early (ProcessGpu::start_early), the context of the GPU that
// node-local rank `local_rank` takes by select_rank_gpu's rule: the slowest part of a rank's
// set-up, done before MPI_Init. Never throws.
void start_rank_gpu(int local_rank);

// Chooses this rank's GPU for the process (ProcessGpu::choose) and returns it. NCCL needs a GPU of its own for each rank (its
// node-local rank; InputError when the node has fewer); ranks on the peer and host routes share
// the node's GPUs in turn. InputError when the node has no GPU, or the build no NCCL for the NCCL
// route.
int select_rank_gpu(int local_rank, int local_size, GpuHaloRoute route);

// Whether the ranks of one node, taking its GPUs in turn as the peer route has them, can each copy
// from its neighbours' GPUs (peer access, or the same GPU), the neighbours being each pair of
// node-local ranks in `neighbours` (neighbouring_ranks). The same answer on every rank of the
// node: it asks about every neighbouring pair, not only its own.
bool rank_gpus_reach_their_neighbours(const std::vector<std::pair<int, int>>& neighbours);

// Collective over `comm`, whose rank i holds slab i: the exchange of `slab`'s ghost planes in
// device memory, in the legacy default stream's order, where the CUDA backends' kernels run.
template <typename T>
std::unique_ptr<HaloExchange<T>> make_gpu_halo_exchange(const Slab& slab, const Grid& global, MPI_Comm comm,
                                                        GpuHaloRoute route);

}  // namespace heat
