#include "parallel/mpi_halo_exchange.hpp"

#include <vector>

#include "parallel/mpi_check.hpp"

namespace heat {

template <typename T>
MpiHaloExchange<T>::MpiHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm)
    : SlabHaloExchange<T>(slab, global), comm_(comm) {
  if (slab.has_lower_neighbour()) lower_ = slab.lower_neighbour();
  if (slab.has_upper_neighbour()) upper_ = slab.upper_neighbour();
  side_type_ = make_planes_type<T>(global, slab.ghost);
}

template <typename T>
MpiHaloExchange<T>::~MpiHaloExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Type_free(&side_type_);
}

template <typename T>
void MpiHaloExchange<T>::start(T* box) {
  start_blocks(box + layout_.lower_edge, box + layout_.upper_edge, box + layout_.lower_ghost,
               box + layout_.upper_ghost);
}

template <typename T>
void MpiHaloExchange<T>::start_blocks(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost) {
  // Upwards (tag 1) and downwards (tag 2), so that two ranks that wrap are each other's lower and
  // upper neighbour and still match each block; a missing neighbour is MPI_PROC_NULL, for which
  // MPI completes the request at once. Receives first, so a send never waits for its buffer.
  constexpr int kUpTag = 1, kDownTag = 2;
  timed(seconds_, [&] {
    HEAT_MPI_CHECK(MPI_Irecv(lower_ghost, 1, side_type_, lower_, kUpTag, comm_, &requests_[0]));
    HEAT_MPI_CHECK(MPI_Irecv(upper_ghost, 1, side_type_, upper_, kDownTag, comm_, &requests_[1]));
    HEAT_MPI_CHECK(MPI_Isend(upper_edge, 1, side_type_, upper_, kUpTag, comm_, &requests_[2]));
    HEAT_MPI_CHECK(MPI_Isend(lower_edge, 1, side_type_, lower_, kDownTag, comm_, &requests_[3]));
  });
}

template <typename T>
void MpiHaloExchange<T>::finish() {
  timed(seconds_, [&] { HEAT_MPI_CHECK(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE)); });
}

template <typename T>
void MpiHaloExchange<T>::connect() {
  if (lower_ == MPI_PROC_NULL && upper_ == MPI_PROC_NULL) return;
  // Both edges are sent from one block (only read); not counted as an exchange of the run's.
  std::vector<T> edges(layout_.side_values, T(0)), lower_ghost(layout_.side_values), upper_ghost(layout_.side_values);
  const double before = seconds_;
  start_blocks(edges.data(), edges.data(), lower_ghost.data(), upper_ghost.data());
  finish();
  seconds_ = before;
}

template class MpiHaloExchange<float>;
template class MpiHaloExchange<double>;

}  // namespace heat
