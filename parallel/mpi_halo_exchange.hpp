// The halo exchange of cpu ranks: nonblocking MPI sends and receives of whole planes between host
// buffers, started by start() and completed by finish().
#pragma once

#include <mpi.h>

#include <array>

#include "parallel/halo_exchange.hpp"

namespace heat {

template <typename T>
class MpiHaloExchange final : public SlabHaloExchange<T> {
 public:
  // `comm` holds the ranks of the decomposition, rank i holding slab i.
  MpiHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm);
  ~MpiHaloExchange() override;
  MpiHaloExchange(const MpiHaloExchange&) = delete;
  MpiHaloExchange& operator=(const MpiHaloExchange&) = delete;

  void start(T* box) override;
  void finish() override;
  // One exchange between scratch blocks: MPI makes its connection to a peer at the first message.
  void connect() override;
  // The same exchange between blocks that need not lie in one box (each `ghost` planes long):
  // the edges are sent, the ghosts received, and none of the four may be touched until finish().
  void start_blocks(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost);
  double seconds_spent() override { return seconds_; }

 private:
  using SlabHaloExchange<T>::layout_;
  MPI_Comm comm_;
  MPI_Datatype side_type_ = MPI_DATATYPE_NULL;  // the ghost planes of one side, as one block
  int lower_ = MPI_PROC_NULL, upper_ = MPI_PROC_NULL;
  std::array<MPI_Request, 4> requests_{MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  double seconds_ = 0;
};

}  // namespace heat
