#include "parallel/collective_input.hpp"

#include <string>

#include "parallel/mpi_check.hpp"

namespace heat {

void validate_on_every_rank(MPI_Comm comm, const std::function<void()>& validate) {
  int rank = 0, size = 1;
  HEAT_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  HEAT_MPI_CHECK(MPI_Comm_size(comm, &size));
  std::string message;
  int failed_here = size;  // no rank: larger than any rank number
  try {
    validate();
  } catch (const InputError& e) {
    message = e.what();
    failed_here = rank;
  }
  int first_failed = size;
  HEAT_MPI_CHECK(MPI_Allreduce(&failed_here, &first_failed, 1, MPI_INT, MPI_MIN, comm));
  if (first_failed == size) return;

  int length = int(message.size());
  HEAT_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, first_failed, comm));
  message.resize(std::size_t(length));
  HEAT_MPI_CHECK(MPI_Bcast(message.data(), length, MPI_CHAR, first_failed, comm));
  throw InputError(message);
}

}  // namespace heat
