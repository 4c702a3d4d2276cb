// What the halo exchanges of parallel/ share (docs/design.md §7): the route GPU ranks
// take and where the exchanged blocks sit in a box. The interface a backend calls, HaloExchange,
// is the core's (core/ghost_exchange.hpp).
//
// A route moves the four blocks of one line (HaloLine): this rank's two edges to its neighbours
// along an axis, their edges into its two ghost blocks. Across z the blocks are whole planes of the
// box; across x and y (a rank grid that splits them) GPU ranks pack each face into a contiguous
// block first (grid_halo_exchange.hpp), which their routes then move as they move z's planes.
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
  GhostSides sides{s.has_lower_neighbour(), s.has_upper_neighbour(), s.ghost, s.fills_ghosts};
  sides.radiates = s.radiates;
  sides.across = {{{s.x.has_lower_neighbour(), s.x.has_upper_neighbour()},
                   {s.y.has_lower_neighbour(), s.y.has_upper_neighbour()}}};
  return sides;
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

// A face across x (axis 0) or y (1) in the box: face_extent's points from each of four corners, in
// values from the box's start: the lower ghost points, this rank's first own points (sent to the
// lower neighbour), its last (to the upper one) and the upper ghost points.
struct FaceBlocks {
  std::array<int, 3> extent{};
  std::size_t lower_ghost = 0, lower_edge = 0, upper_edge = 0, upper_ghost = 0;
  std::size_t values() const { return std::size_t(extent[0]) * std::size_t(extent[1]) * std::size_t(extent[2]); }
};

inline FaceBlocks face_blocks(const Slab& s, const Grid& global, int axis) {
  const Grid box = s.box_grid(global);
  const std::size_t stride[3] = {1, std::size_t(box.nx), std::size_t(box.nx) * std::size_t(box.ny)};
  FaceBlocks f;
  f.extent = face_extent(s, global, axis);
  // Along the axes after this one the face leaves out the r points at either end.
  std::size_t later = 0;
  for (int b = axis + 1; b < 3; ++b) later += std::size_t(s.radius) * stride[b];
  const int n = axis == 0 ? box.nx : box.ny, g = s.ghost;
  f.lower_ghost = later;
  f.lower_edge = later + std::size_t(g) * stride[axis];
  f.upper_edge = later + std::size_t(n - 2 * g) * stride[axis];
  f.upper_ghost = later + std::size_t(n - g) * stride[axis];
  return f;
}

// One axis's exchange as a route moves it: the ranks of this rank's neighbours along the axis and
// where the four blocks sit in the memory the route is given, each `planes` runs of `plane_values`
// contiguous values.
struct HaloLine {
  int lower = -1, upper = -1;  // ranks of the run; -1 where there is no neighbour
  int planes = 0;
  std::size_t plane_values = 0;
  HaloLayout layout;
  bool has_lower_neighbour() const { return lower >= 0; }
  bool has_upper_neighbour() const { return upper >= 0; }
};

// z's line: whole planes of the box (halo_layout).
inline HaloLine z_line(const Slab& s, const Grid& global) {
  const Grid box = s.box_grid(global);
  HaloLine line;
  if (s.has_lower_neighbour()) line.lower = s.lower_neighbour();
  if (s.has_upper_neighbour()) line.upper = s.upper_neighbour();
  line.planes = s.ghost;
  line.plane_values = std::size_t(box.nx) * std::size_t(box.ny);
  line.layout = halo_layout(s, global);
  return line;
}

// The line of the face across x (axis 0) or y (1), packed: its four blocks (face_blocks) one after
// the other, lower ghost, lower edge, upper edge, upper ghost, as z's sit in a box.
inline HaloLine packed_face_line(const Slab& s, const Grid& global, int axis) {
  const AxisSplit& along = axis == 0 ? s.x : s.y;
  const std::size_t values = face_blocks(s, global, axis).values();
  HaloLine line;
  if (along.has_lower_neighbour()) line.lower = s.neighbour(axis, -1);
  if (along.has_upper_neighbour()) line.upper = s.neighbour(axis, 1);
  line.planes = s.ghost;
  line.plane_values = values / std::size_t(s.ghost);
  line.layout = HaloLayout{values, 0, values, 2 * values, 3 * values};
  return line;
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
// of the line it moves sit, the scheme and sides it fills, and the bytes it sends.
template <typename T>
class SlabHaloExchange : public HaloExchange<T> {
 public:
  GhostScheme scheme() const override { return scheme_; }
  GhostSides sides() const override { return sides_; }
  std::size_t bytes_sent() const override { return bytes_sent_; }

 protected:
  SlabHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line)
      : layout_(line.layout),
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
