// Collects the whole field on rank 0 from every rank's box: each rank contributes its part
// (Slab::part_begin..part_end), and the parts tile the grid in rank order.
#pragma once

#include <mpi.h>

#include "parallel/decomposition.hpp"
#include "core/field.hpp"

namespace heat {

// Collective over `comm`. Returns the whole field on rank 0 and an empty field on the others.
template <typename T>
Field<T> gather_whole_field(const Field<T>& box, const Slab& slab, const Grid& global, MPI_Comm comm);

}  // namespace heat
