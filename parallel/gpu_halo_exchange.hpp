// GPU ranks of a distributed run: the GPU each rank takes, and the exchange of its device box's
// ghost planes by the route the run chose (GpuHaloRoute). Only in builds with CUDA and MPI.
#pragma once

#include <mpi.h>

#include <memory>

#include "parallel/halo_exchange.hpp"

namespace heat {

// Starts the CUDA driver and the context of the GPU that node-local rank `local_rank` takes (by
// select_rank_gpu's rule), so that a rank's slowest part of set-up can run beside MPI_Init, on
// any thread. Returns that GPU, or -1 where there is none or its context did not start (then
// select_rank_gpu reports why). Never throws.
int start_rank_gpu(int local_rank);

// Makes this rank's GPU current and returns it. NCCL needs a GPU of its own for each rank (its
// node-local rank; InputError when the node has fewer); ranks on the peer and host routes share
// the node's GPUs in turn. InputError when the node has no GPU, or the build no NCCL for the NCCL
// route. `started_device` (start_rank_gpu's, or -1): its context is given back if it is another GPU.
int select_rank_gpu(int local_rank, int local_size, GpuHaloRoute route, int started_device = -1);

// Whether `local_size` ranks of one node, taking its GPUs in turn as the peer route has them, can
// each copy from its neighbours' GPUs (peer access, or the same GPU). The same answer on every
// rank of the node: it asks about every neighbouring pair, not only its own.
bool rank_gpus_reach_their_neighbours(int local_size);

// Collective over `comm`, whose rank i holds slab i: the exchange of `slab`'s ghost planes in
// device memory, in the legacy default stream's order, where the CUDA backends' kernels run.
template <typename T>
std::unique_ptr<HaloExchange<T>> make_gpu_halo_exchange(const Slab& slab, const Grid& global, MPI_Comm comm,
                                                        GpuHaloRoute route);

}  // namespace heat
