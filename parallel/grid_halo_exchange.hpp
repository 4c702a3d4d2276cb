// The halo exchange of GPU ranks on a rank grid that splits x or y (docs/design.md §7): as cpu
// ranks' (MpiHaloExchange), the faces across x, then y, each landed before the next, then z's
// whole planes, so that each carries the ghost points the axes before it just received and edges
// and corners arrive. A face across x or y is packed by a kernel into a contiguous block on the
// device (face_packing.hpp), moved by the run's route as it moves z's planes (a line of its own:
// packed_face_line) and unpacked into the ghost points. All of it runs on the exchange's own
// stream (UrgentStream), after the legacy default stream's work enqueued before start() and
// before its work enqueued after finish(), so that the kernels a backend enqueues on other
// streams in between (EdgesFirst's Inside part: the tiles clear of the rim, step_columns.hpp) run
// beside it, and the packing kernels' few blocks get SMs before theirs.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "backends/cuda/device_buffer.cuh"
#include "parallel/device_exchange_times.hpp"
#include "parallel/face_packing.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/urgent_stream.hpp"

namespace heat {

template <typename T>
class GridHaloExchange final : public SlabHaloExchange<T> {
 public:
  // The route's exchange of one line of `slab`'s, made by every rank in the same order (z, x, y),
  // in the order of the work of stream `order` (HaloExchange's start() and finish() there).
  using LineExchange = std::function<std::unique_ptr<HaloExchange<T>>(const HaloLine& line, cudaStream_t order)>;

  // Collective where the route's exchanges are made so.
  GridHaloExchange(const Slab& slab, const Grid& global, const LineExchange& line_exchange);
  ~GridHaloExchange() override;
  GridHaloExchange(const GridHaloExchange&) = delete;
  GridHaloExchange& operator=(const GridHaloExchange&) = delete;

  // The first axis with a neighbour packed and started: it travels while the caller's kernels run.
  void start(T* device_box) override;
  // The first axis landed and unpacked, then each later one started and landed in turn; the
  // legacy stream's work enqueued after it waits for the last. On the host route each axis's
  // start and finish wait for its copies, so there finish() returns once all have landed, and
  // the axes after the first travel while the kernels enqueued before finish() run.
  void finish() override;
  void exchange_across(T* device_box, int axis) override;
  void connect() override;
  // z's boxes, and each face's packed buffer, whose first exchange it runs.
  void open(const std::vector<T*>& boxes) override;
  // z's exchanges' time, and each face's on the device from its pack to its unpack.
  double seconds_spent() override;

 private:
  // A face with a neighbour on at least one side: its packed blocks (packed_face_line's layout),
  // what the kernels copy, and the route's exchange of the blocks.
  struct Face {
    DeviceBuffer<T> packed;
    FaceCopies edges, ghosts;
    std::unique_ptr<HaloExchange<T>> route;
  };
  void start_axis(int axis);
  void finish_axis(int axis);
  // The exchange's stream takes up after the legacy stream's work enqueued so far...
  void follow_legacy_stream();
  // ...and the legacy stream's work enqueued from here on waits for the exchange's.
  void precede_legacy_stream();

  UrgentStream stream_;  // declared first: the routes order their work with it until they end
  cudaEvent_t legacy_done_ = nullptr, exchange_done_ = nullptr;
  std::unique_ptr<HaloExchange<T>> z_;
  std::array<std::unique_ptr<Face>, 2> faces_;  // across x and y; null without a neighbour
  std::vector<int> axes_;                       // those exchanged, in order: x and y with a face, then z
  T* box_ = nullptr;                            // the box of the exchange in flight
  DeviceExchangeTimes face_times_;
};

}  // namespace heat
