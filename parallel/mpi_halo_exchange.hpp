// The halo exchange of cpu ranks: nonblocking MPI sends and receives between host boxes. Across z
// whole planes, started by start() and completed by finish(); where the rank grid splits x or y
// too, the faces across x and then y first, each completed before the next (start() returns once
// they have landed), so that each carries the ghost points of the axes before it.
#pragma once

#include <mpi.h>

#include <array>

#include "parallel/halo_exchange.hpp"

namespace heat {

template <typename T>
class MpiHaloExchange final : public SlabHaloExchange<T> {
 public:
  // `comm` holds the ranks of the decomposition, rank i holding the slab of rank i.
  MpiHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm);
  // The exchange of one line's blocks alone (start_blocks), no faces across x and y: what host
  // staging moves for GPU ranks.
  MpiHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line, MPI_Comm comm);
  ~MpiHaloExchange() override;
  MpiHaloExchange(const MpiHaloExchange&) = delete;
  MpiHaloExchange& operator=(const MpiHaloExchange&) = delete;

  void start(T* box) override;
  void finish() override;
  void exchange_across(T* box, int axis) override;
  // One exchange between scratch blocks: MPI makes its connection to a peer at the first message.
  void connect() override;
  // The z exchange between blocks that need not lie in one box (each `ghost` planes long):
  // the edges are sent, the ghosts received, and none of the four may be touched until finish().
  void start_blocks(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost);
  double seconds_spent() override { return seconds_; }

 private:
  using SlabHaloExchange<T>::layout_;

  // A face across x or y: its MPI type (a subarray of the box, from the box's first value) and
  // where its four blocks begin in the box.
  struct Face {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int lower = MPI_PROC_NULL, upper = MPI_PROC_NULL;
    FaceBlocks blocks;
  };
  void exchange_face(T* box, int axis);

  MPI_Comm comm_;
  MPI_Datatype side_type_ = MPI_DATATYPE_NULL;  // the ghost planes of one side, as one block
  int lower_ = MPI_PROC_NULL, upper_ = MPI_PROC_NULL;
  std::array<Face, 2> faces_;  // across x and y; no type where the axis has no neighbour
  std::size_t box_values_ = 0;
  std::array<MPI_Request, 4> requests_{MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  double seconds_ = 0;
};

}  // namespace heat
