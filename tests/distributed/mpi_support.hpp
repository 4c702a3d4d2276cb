// Helpers for the tests that run under mpirun.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "parallel/mpi_check.hpp"
#include "parallel/mpi_session.hpp"
#include "parallel/slab_field.hpp"
#include "core/initial_conditions.hpp"
#include "core/field.hpp"
#include "tests/bitwise.hpp"

namespace heat::test {

// The session that mpi_test_main.cpp holds around the tests.
const MpiSession& mpi_session();
inline int world_rank() { return mpi_session().rank(); }
inline int world_size() { return mpi_session().size(); }

// The sum of a count over all ranks, so every rank asserts the same verdict.
inline long long sum_over_ranks(long long count) {
  long long total = 0;
  HEAT_MPI_CHECK(MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
  return total;
}

// rank 0's value, on every rank.
inline long long from_rank0(long long value) {
  HEAT_MPI_CHECK(MPI_Bcast(&value, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
  return value;
}

// This rank's box of a random whole field on `g`, as the job's decomposition cuts it (wrapped,
// as for periodic z, where `wraps`).
template <typename T>
struct RankBox {
  Slab slab;
  Field<T> values;
};
template <typename T>
RankBox<T> random_rank_box(const Grid& g, int order, GhostScheme scheme, std::uint64_t seed, bool wraps = false) {
  Boundaries faces;
  if (wraps) faces[4] = faces[5] = BoundaryCondition{BoundaryKind::Periodic};
  const Slab slab = decompose(g, order, world_size(), world_rank(), scheme, 1, 0, faces);
  return {slab, box_of(field_cast<T>(randn_field(g, seed)), slab)};
}

}  // namespace heat::test
