#include "parallel/grid_halo_exchange.hpp"

namespace heat {

namespace {

// What the kernels copy of a face on the sides with a neighbour: its `edges` (packed to be sent)
// or its ghost blocks (unpacked once received), at their offsets in the box and in the packed line.
FaceCopies face_copies(const FaceBlocks& blocks, const Grid& box, const HaloLine& line, bool edges) {
  FaceCopies c;
  for (int a = 0; a < 3; ++a) c.extent[a] = blocks.extent[std::size_t(a)];
  c.stride_y = box.nx;
  c.stride_z = (long long)box.nx * box.ny;
  const auto add = [&](std::size_t box_at, std::size_t packed_at) {
    c.box_at[c.sides] = box_at;
    c.packed_at[c.sides] = packed_at;
    ++c.sides;
  };
  if (line.has_lower_neighbour())
    edges ? add(blocks.lower_edge, line.layout.lower_edge) : add(blocks.lower_ghost, line.layout.lower_ghost);
  if (line.has_upper_neighbour())
    edges ? add(blocks.upper_edge, line.layout.upper_edge) : add(blocks.upper_ghost, line.layout.upper_ghost);
  return c;
}

}  // namespace

template <typename T>
GridHaloExchange<T>::GridHaloExchange(const Slab& slab, const Grid& global, const LineExchange& line_exchange)
    : SlabHaloExchange<T>(slab, global, z_line(slab, global)) {
  z_ = line_exchange(z_line(slab, global));
  const Grid box = slab.box_grid(global);
  for (int axis = 0; axis < 2; ++axis) {
    const HaloLine line = packed_face_line(slab, global, axis);
    if (!line.has_lower_neighbour() && !line.has_upper_neighbour()) continue;
    const FaceBlocks blocks = face_blocks(slab, global, axis);
    auto face = std::make_unique<Face>();
    face->packed = DeviceBuffer<T>(4 * line.layout.side_values);
    face->edges = face_copies(blocks, box, line, true);
    face->ghosts = face_copies(blocks, box, line, false);
    face->route = line_exchange(line);
    faces_[std::size_t(axis)] = std::move(face);
  }
}

template <typename T>
void GridHaloExchange<T>::exchange_face(T* device_box, int axis) {
  Face* face = faces_[std::size_t(axis)].get();
  if (!face) return;
  pack_face(device_box, face->packed.get(), face->edges, 0);
  face->route->exchange(face->packed.get());
  unpack_face(face->packed.get(), device_box, face->ghosts, 0);
}

template <typename T>
void GridHaloExchange<T>::start(T* device_box) {
  face_times_.begin(0);
  exchange_face(device_box, 0);
  exchange_face(device_box, 1);
  face_times_.end(0);
  z_->start(device_box);
}

template <typename T>
void GridHaloExchange<T>::finish() {
  z_->finish();
}

template <typename T>
void GridHaloExchange<T>::exchange_across(T* device_box, int axis) {
  if (axis == 2) return z_->exchange(device_box);
  face_times_.begin(0);
  exchange_face(device_box, axis);
  face_times_.end(0);
}

template <typename T>
void GridHaloExchange<T>::connect() {
  z_->connect();
  for (auto& face : faces_)
    if (face) face->route->connect();
}

template <typename T>
void GridHaloExchange<T>::open(const std::vector<T*>& boxes) {
  z_->open(boxes);
  for (auto& face : faces_)
    if (face) face->route->open({face->packed.get()});
}

template <typename T>
double GridHaloExchange<T>::seconds_spent() {
  return face_times_.seconds() + z_->seconds_spent();
}

template class GridHaloExchange<float>;
template class GridHaloExchange<double>;

}  // namespace heat
