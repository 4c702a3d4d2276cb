// Error checking for every MPI call: file, line, the call and MPI's message, thrown as RunError
// (exit code 3). MpiSession sets MPI_ERRORS_RETURN on MPI_COMM_WORLD so that calls return their
// error here instead of aborting inside MPI without a word.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/problem.hpp"

namespace heat {

[[noreturn]] inline void throw_mpi_error(int code, const char* expr, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw RunError(std::string("MPI error at ") + file + ":" + std::to_string(line) + ": " + expr + ": " +
                 (length > 0 ? std::string(text, std::size_t(length)) : "error code " + std::to_string(code)));
}

// The MPI type of a field value.
template <typename T>
MPI_Datatype mpi_value_type() {
  static_assert(sizeof(T) == sizeof(float) || sizeof(T) == sizeof(double), "float or double");
  return sizeof(T) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
}

}  // namespace heat

#define HEAT_MPI_CHECK(expr)                                                                                   \
  do {                                                                                                         \
    const int heat_mpi_status_ = (expr);                                                                       \
    if (heat_mpi_status_ != MPI_SUCCESS) ::heat::throw_mpi_error(heat_mpi_status_, #expr, __FILE__, __LINE__); \
  } while (0)

namespace heat {

// `planes` runs of `plane_values` contiguous values (whole z-planes, or a packed face's) as one
// committed MPI type, so that the counts passed to MPI are whole blocks and stay within int however
// large the grid. The caller frees it.
template <typename T>
MPI_Datatype make_planes_type(std::size_t plane_values, int planes) {
  if (plane_values > std::size_t(std::numeric_limits<int>::max()))
    throw InputError("a z-plane of " + std::to_string(plane_values) +
                     " points is more than MPI can send as one block (" +
                     std::to_string(std::numeric_limits<int>::max()) + ")");
  MPI_Datatype plane = MPI_DATATYPE_NULL, block = MPI_DATATYPE_NULL;
  HEAT_MPI_CHECK(MPI_Type_contiguous(int(plane_values), mpi_value_type<T>(), &plane));
  const int status = MPI_Type_contiguous(planes, plane, &block);
  HEAT_MPI_CHECK(MPI_Type_free(&plane));
  HEAT_MPI_CHECK(status);
  HEAT_MPI_CHECK(MPI_Type_commit(&block));
  return block;
}

// `planes` whole z-planes of g's nx*ny values.
template <typename T>
MPI_Datatype make_planes_type(const Grid& g, int planes) {
  return make_planes_type<T>(std::size_t(g.nx) * std::size_t(g.ny), planes);
}

}  // namespace heat
