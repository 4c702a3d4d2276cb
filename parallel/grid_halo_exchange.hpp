// The halo exchange of GPU ranks on a rank grid that splits x or y (docs/design.md §7): as cpu
// ranks' (MpiHaloExchange), the faces across x, then y, each completed before the next, then z's
// whole planes, so that each carries the ghost points the axes before it just received and edges
// and corners arrive. A face across x or y is packed by a kernel into a contiguous block on the
// device (face_packing.hpp), moved by the run's route as it moves z's planes (a line of its own:
// packed_face_line) and unpacked into the ghost points; all in the legacy default stream's order,
// where the CUDA backends' kernels run.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "backends/cuda/device_buffer.cuh"
#include "parallel/device_exchange_times.hpp"
#include "parallel/face_packing.hpp"
#include "parallel/halo_exchange.hpp"

namespace heat {

template <typename T>
class GridHaloExchange final : public SlabHaloExchange<T> {
 public:
  // The route's exchange of one line of `slab`'s, made by every rank in the same order (z, x, y).
  using LineExchange = std::function<std::unique_ptr<HaloExchange<T>>(const HaloLine& line)>;

  // Collective where the route's exchanges are made so.
  GridHaloExchange(const Slab& slab, const Grid& global, const LineExchange& line_exchange);

  // x and y, each landed (enqueued) before the next, then z started: the step's kernels must all
  // be queued before it, since the faces span every plane (no overlap on such a grid).
  void start(T* device_box) override;
  void finish() override;
  void exchange_across(T* device_box, int axis) override;
  void connect() override;
  // z's boxes, and each face's packed buffer, whose first exchange it runs.
  void open(const std::vector<T*>& boxes) override;
  // z's exchanges' time, and the faces' on the device from the first pack to the last unpack.
  double seconds_spent() override;

 private:
  // A face with a neighbour on at least one side: its packed blocks (packed_face_line's layout),
  // what the kernels copy, and the route's exchange of the blocks.
  struct Face {
    DeviceBuffer<T> packed;
    FaceCopies edges, ghosts;
    std::unique_ptr<HaloExchange<T>> route;
  };
  void exchange_face(T* device_box, int axis);

  std::unique_ptr<HaloExchange<T>> z_;
  std::array<std::unique_ptr<Face>, 2> faces_;  // across x and y; null without a neighbour
  DeviceExchangeTimes face_times_;
};

}  // namespace heat
