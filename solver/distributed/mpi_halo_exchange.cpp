#include "solver/distributed/mpi_halo_exchange.hpp"

#include <chrono>
#include <limits>
#include <string>

#include "solver/distributed/mpi_check.hpp"

namespace heat {

template <typename T>
MpiHaloExchange<T>::MpiHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm)
    : layout_(halo_layout(slab, global)), comm_(comm), bytes_sent_(halo_bytes_sent(slab, global, sizeof(T))) {
  if (slab.has_lower_neighbour()) lower_ = slab.rank - 1;
  if (slab.has_upper_neighbour()) upper_ = slab.rank + 1;
  // A block of one plane per ghost plane, so no count passed to MPI exceeds int however large the grid.
  const std::size_t plane_values = std::size_t(global.nx) * std::size_t(global.ny);
  if (plane_values > std::size_t(std::numeric_limits<int>::max()))
    throw InputError("a z-plane of " + std::to_string(plane_values) + " points is more than MPI can send as one block (" +
                     std::to_string(std::numeric_limits<int>::max()) + ")");
  MPI_Datatype plane = MPI_DATATYPE_NULL;
  HEAT_MPI_CHECK(MPI_Type_contiguous(int(plane_values), mpi_value_type<T>(), &plane));
  const int status = MPI_Type_contiguous(slab.ghost, plane, &side_type_);
  HEAT_MPI_CHECK(MPI_Type_free(&plane));
  HEAT_MPI_CHECK(status);
  HEAT_MPI_CHECK(MPI_Type_commit(&side_type_));
}

template <typename T>
MpiHaloExchange<T>::~MpiHaloExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Type_free(&side_type_);
}

template <typename T>
void MpiHaloExchange<T>::exchange(T* box) {
  // Upwards first, then downwards; a missing neighbour is MPI_PROC_NULL, for which MPI does nothing.
  constexpr int kUpTag = 1, kDownTag = 2;
  const auto start = std::chrono::steady_clock::now();
  HEAT_MPI_CHECK(MPI_Sendrecv(box + layout_.upper_edge, 1, side_type_, upper_, kUpTag,
                              box + layout_.lower_ghost, 1, side_type_, lower_, kUpTag, comm_, MPI_STATUS_IGNORE));
  HEAT_MPI_CHECK(MPI_Sendrecv(box + layout_.lower_edge, 1, side_type_, lower_, kDownTag,
                              box + layout_.upper_ghost, 1, side_type_, upper_, kDownTag, comm_, MPI_STATUS_IGNORE));
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template class MpiHaloExchange<float>;
template class MpiHaloExchange<double>;

}  // namespace heat
