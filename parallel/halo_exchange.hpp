// What the halo exchanges of parallel/ share (docs/design.md §7): the route GPU ranks
// take and where the exchanged blocks sit in a box. The interface a backend calls, HaloExchange,
// is the core's (core/ghost_exchange.hpp).
//
// A backend steps its box (decomposition.hpp) as if it were the whole problem and exchanges each
// field it is about to read with the stencil: u before stage 1, and under GhostScheme::PerStage
// the stage input before stages 2 to 4. The box pointer lives where the implementation works:
// host memory for cpu ranks (MpiHaloExchange), device memory for GPU ranks by any of their three
// routes (GpuHaloRoute: PeerHaloExchange, NcclHaloExchange, HostStagedHaloExchange, which stages
// through host memory itself, since MPI never sees a device pointer: the device machine's
// OpenMPI is not CUDA-aware).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "parallel/decomposition.hpp"
#include "core/ghost_exchange.hpp"
#include "core/seconds.hpp"

namespace heat {

// How GPU ranks exchange ghost planes (--halo-exchange).
enum class GpuHaloRoute {
  Nccl,  // device to device through NCCL (NVLink, PCIe or the network); one GPU per rank
  Peer,  // device to device by the copy engines (CUDA IPC); every rank on one node
  Host,  // through page-locked host memory over MPI; ranks may share a GPU
};
constexpr GpuHaloRoute kGpuHaloRoutes[] = {GpuHaloRoute::Peer, GpuHaloRoute::Nccl, GpuHaloRoute::Host};

// The route's name for --halo-exchange and the summary.
constexpr const char* gpu_halo_route_name(GpuHaloRoute route) {
  switch (route) {
    case GpuHaloRoute::Nccl:
      return "nccl";
    case GpuHaloRoute::Peer:
      return "peer";
    case GpuHaloRoute::Host:
      return "host";
  }
  return "?";
}

// The route --halo-exchange names `name`; none for a name that is no route ("auto" included).
inline std::optional<GpuHaloRoute> gpu_halo_route_named(const std::string& name) {
  for (GpuHaloRoute route : kGpuHaloRoutes)
    if (name == gpu_halo_route_name(route)) return route;
  return std::nullopt;
}

// Where the four exchanged z blocks sit in a box, in values from its start (0 on a side without a
// neighbour). Each block is `side_values` long: `ghost` whole planes of the box's nx*ny values.
struct HaloLayout {
  std::size_t side_values = 0;
  std::size_t lower_ghost = 0;  // received from the lower neighbour (its last owned planes)
  std::size_t lower_edge = 0;   // this rank's first owned planes, sent to the lower neighbour
  std::size_t upper_edge = 0;   // this rank's last owned planes, sent to the upper neighbour
  std::size_t upper_ghost = 0;  // received from the upper neighbour (its first owned planes)
};

inline HaloLayout halo_layout(const Slab& s, const Grid& global) {
  const Grid box = s.box_grid(global);
  const std::size_t plane = std::size_t(box.nx) * std::size_t(box.ny);
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

inline GhostSides ghost_sides(const Slab& s) {
  return GhostSides{s.has_lower_neighbour(), s.has_upper_neighbour(), s.ghost, s.fills_ghosts};
}

// The points of one face across x (axis 0) or y (1) that the exchange sends: `ghost` wide, the
// box's whole extent along the axes exchanged before it, its extent less r on either side along
// the ones after it (MpiHaloExchange says why).
inline std::array<int, 3> face_extent(const Slab& s, const Grid& global, int axis) {
  const Grid box = s.box_grid(global);
  const int n[3] = {box.nx, box.ny, box.nz};
  std::array<int, 3> extent{};
  for (int a = 0; a < 3; ++a) extent[std::size_t(a)] = a < axis ? n[a] : n[a] - 2 * s.radius;
  extent[std::size_t(axis)] = s.ghost;
  return extent;
}

// Bytes one rank sends per exchange: a ghost-wide block to each neighbour it has.
inline std::size_t halo_bytes_sent(const Slab& s, const Grid& global, std::size_t value_size) {
  const int sides = int(s.has_lower_neighbour()) + int(s.has_upper_neighbour());
  std::size_t values = std::size_t(sides) * halo_layout(s, global).side_values;
  const AxisSplit* across[2] = {&s.x, &s.y};
  for (int axis = 0; axis < 2; ++axis) {
    const std::array<int, 3> e = face_extent(s, global, axis);
    const int faces = int(across[axis]->has_lower_neighbour()) + int(across[axis]->has_upper_neighbour());
    values += std::size_t(faces) * std::size_t(e[0]) * std::size_t(e[1]) * std::size_t(e[2]);
  }
  return values * value_size;
}

// What an exchange of one slab's ghost planes knows of it, whatever its route: where the blocks
// sit, the scheme and sides it fills, and the bytes it sends.
template <typename T>
class SlabHaloExchange : public HaloExchange<T> {
 public:
  GhostScheme scheme() const override { return scheme_; }
  GhostSides sides() const override { return sides_; }
  std::size_t bytes_sent() const override { return bytes_sent_; }

 protected:
  SlabHaloExchange(const Slab& slab, const Grid& global)
      : layout_(halo_layout(slab, global)),
        scheme_(slab.scheme),
        sides_(ghost_sides(slab)),
        bytes_sent_(halo_bytes_sent(slab, global, sizeof(T))) {}
  const HaloLayout layout_;

 private:
  GhostScheme scheme_;
  GhostSides sides_;
  std::size_t bytes_sent_;
};

}  // namespace heat
