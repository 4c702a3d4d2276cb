// Error checking for every MPI call: file, line, the call and MPI's message, thrown as RunError
// (exit code 3). MpiSession sets MPI_ERRORS_RETURN on MPI_COMM_WORLD so that calls return their
// error here instead of aborting inside MPI without a word.
#pragma once

#include <mpi.h>

#include <string>

#include "solver/errors.hpp"

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

#define HEAT_MPI_CHECK(expr)                                                  \
  do {                                                                        \
    const int heat_mpi_status_ = (expr);                                      \
    if (heat_mpi_status_ != MPI_SUCCESS)                                      \
      ::heat::throw_mpi_error(heat_mpi_status_, #expr, __FILE__, __LINE__);   \
  } while (0)
