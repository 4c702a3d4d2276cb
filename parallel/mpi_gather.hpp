// Collects the whole field, or runs of whole planes, from every rank's box: each rank contributes
// its part (Slab::part_begin..part_end along z, and along x and y where the rank grid splits them),
// and the parts tile the grid.
#pragma once

#include <mpi.h>

#include <functional>
#include <utility>
#include <vector>

#include "parallel/decomposition.hpp"
#include "core/field.hpp"

namespace heat {

// Collective over `comm`. Returns the whole field on rank 0 and an empty field on the others.
template <typename T>
Field<T> gather_whole_field(const Field<T>& box, const Slab& slab, const Grid& global, MPI_Comm comm);

// Collective over `comm`: the whole planes [first, second) of `planes_of_rank[rank]` on each rank
// (runs within [0, nz), empty ones allowed, overlapping ones too), made of every rank's part by one
// MPI_Ialltoallw whose types cut each part from its box and place it in the planes (no packing of
// ours). `wait` completes the request (polled on the snapshot writers' communicator).
template <typename T>
Field<T> regroup_into_planes(const Field<T>& box, const Slab& slab, const Grid& global,
                             const std::vector<std::pair<int, int>>& planes_of_rank, MPI_Comm comm,
                             const std::function<void(MPI_Request&)>& wait);

}  // namespace heat
