#include "parallel/grid_halo_exchange.hpp"

#include "backends/cuda/cuda_check.cuh"

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
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&legacy_done_, cudaEventDisableTiming));
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&exchange_done_, cudaEventDisableTiming));
  z_ = line_exchange(z_line(slab, global), stream_.get());
  const Grid box = slab.box_grid(global);
  for (int axis = 0; axis < 2; ++axis) {
    const HaloLine line = packed_face_line(slab, global, axis);
    if (!line.has_lower_neighbour() && !line.has_upper_neighbour()) continue;
    const FaceBlocks blocks = face_blocks(slab, global, axis);
    auto face = std::make_unique<Face>();
    face->packed = DeviceBuffer<T>(4 * line.layout.side_values);
    face->edges = face_copies(blocks, box, line, true);
    face->ghosts = face_copies(blocks, box, line, false);
    face->route = line_exchange(line, stream_.get());
    faces_[std::size_t(axis)] = std::move(face);
    axes_.push_back(axis);
  }
  axes_.push_back(2);
}

template <typename T>
GridHaloExchange<T>::~GridHaloExchange() {
  for (cudaEvent_t e : {legacy_done_, exchange_done_})
    if (e) cudaEventDestroy(e);
}

template <typename T>
void GridHaloExchange<T>::follow_legacy_stream() {
  HEAT_CUDA_CHECK(cudaEventRecord(legacy_done_, cudaStreamLegacy));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(stream_.get(), legacy_done_, 0));
}

template <typename T>
void GridHaloExchange<T>::precede_legacy_stream() {
  HEAT_CUDA_CHECK(cudaEventRecord(exchange_done_, stream_.get()));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, exchange_done_, 0));
}

template <typename T>
void GridHaloExchange<T>::start_axis(int axis) {
  if (axis == 2) return z_->start(box_);
  Face& face = *faces_[std::size_t(axis)];
  face_times_.begin(stream_.get());
  pack_face(box_, face.packed.get(), face.edges, stream_.get());
  face.route->start(face.packed.get());
}

template <typename T>
void GridHaloExchange<T>::finish_axis(int axis) {
  if (axis == 2) return z_->finish();
  Face& face = *faces_[std::size_t(axis)];
  face.route->finish();
  unpack_face(face.packed.get(), box_, face.ghosts, stream_.get());
  face_times_.end(stream_.get());
}

template <typename T>
void GridHaloExchange<T>::start(T* device_box) {
  box_ = device_box;
  follow_legacy_stream();
  start_axis(axes_.front());
}

template <typename T>
void GridHaloExchange<T>::finish() {
  finish_axis(axes_.front());
  for (std::size_t i = 1; i < axes_.size(); ++i) {
    start_axis(axes_[i]);
    finish_axis(axes_[i]);
  }
  precede_legacy_stream();
}

template <typename T>
void GridHaloExchange<T>::exchange_across(T* device_box, int axis) {
  if (axis != 2 && !faces_[std::size_t(axis)]) return;
  box_ = device_box;
  follow_legacy_stream();
  start_axis(axis);
  finish_axis(axis);
  precede_legacy_stream();
}

template <typename T>
void GridHaloExchange<T>::connect() {
  z_->connect();
  for (auto& face : faces_)
    if (face) face->route->connect();
}

template <typename T>
void GridHaloExchange<T>::open(const std::vector<T*>& boxes) {
  follow_legacy_stream();
  z_->open(boxes);
  for (auto& face : faces_)
    if (face) face->route->open({face->packed.get()});
  precede_legacy_stream();
}

template <typename T>
double GridHaloExchange<T>::seconds_spent() {
  return face_times_.seconds() + z_->seconds_spent();
}

template class GridHaloExchange<float>;
template class GridHaloExchange<double>;

}  // namespace heat
