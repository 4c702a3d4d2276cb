// The component that fills a rank's ghost planes from its neighbours (docs/design.md §7).
//
// A backend steps its box (decomposition.hpp) as if it were the whole problem and calls
// exchange() with each field it is about to read with the stencil: u before stage 1, and under
// GhostScheme::PerStage the stage input before stages 2 to 4. It need not know whether it runs
// alone: the first and last ranks have no neighbour on one side, and a single rank has none, so
// those sides are left as they are.
//
// The box pointer lives where the implementation works: host memory for MpiHaloExchange, device
// memory for NcclHaloExchange (MPI never sees a device pointer: the device machine's OpenMPI is
// not CUDA-aware).
#pragma once

#include <cstddef>

#include "solver/distributed/decomposition.hpp"

namespace heat {

// How GPU ranks exchange ghost planes (--halo-exchange).
enum class GpuHaloRoute {
  Nccl,  // device to device through NCCL (NVLink, PCIe or the network); one GPU per rank
  Host,  // through page-locked host memory over MPI; ranks may share a GPU
};

template <typename T>
class HaloExchange {
 public:
  virtual ~HaloExchange() = default;
  // Copies the neighbours' edge planes into this rank's ghost planes of `box`, and this rank's
  // edge planes into theirs. Every rank calls it the same number of times, in the same order.
  // Host implementations have finished when it returns; device implementations are enqueued on
  // the stream they were made with, before any work enqueued there afterwards.
  virtual void exchange(T* box) = 0;
  // Bytes this rank sends per exchange (it receives as many).
  virtual std::size_t bytes_sent() const = 0;
  // Seconds the exchanges so far took, waiting for the neighbours included: wall time inside
  // exchange() on the host, the stream's time from an exchange's start to its end on the device.
  // For the summary's halo time; a device implementation may wait for its last exchange here.
  virtual double seconds_spent() = 0;
};

// Where the four exchanged blocks sit in a box, in values from its start (0 on a side without a
// neighbour). Each block is `side_values` long: `ghost` whole planes of nx*ny values.
struct HaloLayout {
  std::size_t side_values = 0;
  std::size_t lower_ghost = 0;  // received from the lower neighbour (its last owned planes)
  std::size_t lower_edge = 0;   // this rank's first owned planes, sent to the lower neighbour
  std::size_t upper_edge = 0;   // this rank's last owned planes, sent to the upper neighbour
  std::size_t upper_ghost = 0;  // received from the upper neighbour (its first owned planes)
};

inline HaloLayout halo_layout(const Slab& s, const Grid& global) {
  const std::size_t plane = std::size_t(global.nx) * std::size_t(global.ny);
  HaloLayout l;
  l.side_values = std::size_t(s.ghost) * plane;
  if (s.has_lower_neighbour()) {
    l.lower_ghost = 0;
    l.lower_edge = std::size_t(s.ghost) * plane;
  }
  if (s.has_upper_neighbour()) {
    l.upper_edge = std::size_t(s.box_planes() - 2 * s.ghost) * plane;
    l.upper_ghost = std::size_t(s.box_planes() - s.ghost) * plane;
  }
  return l;
}

// Bytes one rank sends per exchange: a ghost-wide block to each neighbour it has.
inline std::size_t halo_bytes_sent(const Slab& s, const Grid& global, std::size_t value_size) {
  const int sides = int(s.has_lower_neighbour()) + int(s.has_upper_neighbour());
  return std::size_t(sides) * halo_layout(s, global).side_values * value_size;
}

}  // namespace heat
