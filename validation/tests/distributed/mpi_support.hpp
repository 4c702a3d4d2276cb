// Helpers for the tests that run under mpirun.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstring>

#include "solver/distributed/mpi_check.hpp"
#include "solver/distributed/mpi_session.hpp"
#include "solver/field.hpp"

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

// Points where two fields of the same shape differ in any bit.
template <typename T>
long long bitwise_differences(const Field<T>& a, const Field<T>& b) {
  long long differences = 0;
  for (std::size_t n = 0; n < a.size(); ++n) differences += std::memcmp(a.data() + n, b.data() + n, sizeof(T)) != 0;
  return differences;
}

}  // namespace heat::test
