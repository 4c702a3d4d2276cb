#include "solver/distributed/mpi_halo_exchange.hpp"

#include <chrono>

#include "solver/distributed/mpi_check.hpp"

namespace heat {

template <typename T>
MpiHaloExchange<T>::MpiHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm)
    : layout_(halo_layout(slab, global)), comm_(comm), bytes_sent_(halo_bytes_sent(slab, global, sizeof(T))) {
  if (slab.has_lower_neighbour()) lower_ = slab.rank - 1;
  if (slab.has_upper_neighbour()) upper_ = slab.rank + 1;
  side_type_ = make_planes_type<T>(global, slab.ghost);
}

template <typename T>
MpiHaloExchange<T>::~MpiHaloExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Type_free(&side_type_);
}

template <typename T>
void MpiHaloExchange<T>::exchange(T* box) {
  exchange_blocks(box + layout_.lower_edge, box + layout_.upper_edge, box + layout_.lower_ghost,
                  box + layout_.upper_ghost);
}

template <typename T>
void MpiHaloExchange<T>::exchange_blocks(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost) {
  // Upwards first, then downwards; a missing neighbour is MPI_PROC_NULL, for which MPI does nothing.
  constexpr int kUpTag = 1, kDownTag = 2;
  const auto start = std::chrono::steady_clock::now();
  HEAT_MPI_CHECK(MPI_Sendrecv(upper_edge, 1, side_type_, upper_, kUpTag, lower_ghost, 1, side_type_, lower_, kUpTag,
                              comm_, MPI_STATUS_IGNORE));
  HEAT_MPI_CHECK(MPI_Sendrecv(lower_edge, 1, side_type_, lower_, kDownTag, upper_ghost, 1, side_type_, upper_, kDownTag,
                              comm_, MPI_STATUS_IGNORE));
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template class MpiHaloExchange<float>;
template class MpiHaloExchange<double>;

}  // namespace heat
