// A snapshot the time loop keeps on the GPU (docs/design.md §8): the writer's thread is handed a
// host field of the snapshot's shape that holds nothing yet, its values in a DeviceSnapshot
// (core/backend.hpp) on the run's GPU. While a SnapshotOnDeviceScope lives on that thread, the
// HDF5 writer's ZFP route encodes straight from the device (gpu_zfp_encoder.hpp), and every other
// reader of the host field calls bring_snapshot_to_host() first.
#pragma once

#include "core/backend.hpp"

namespace heat {

// One scope at a time on a thread; `host` is the field the writer is handed.
class SnapshotOnDeviceScope {
 public:
  SnapshotOnDeviceScope(void* host, DeviceSnapshot& snapshot);
  ~SnapshotOnDeviceScope();
  SnapshotOnDeviceScope(const SnapshotOnDeviceScope&) = delete;
  SnapshotOnDeviceScope& operator=(const SnapshotOnDeviceScope&) = delete;
};

// The device values of the host field that starts at `host`, where a scope on this thread holds
// them and they have not been brought to the host; null where the host field holds its values.
const void* snapshot_values_on_device(const void* host);

// Copies the values a scope on this thread holds for the host field at `host` into it, once; from
// then on the host field holds its values. Nothing where none is held.
void bring_snapshot_to_host(const void* host);

}  // namespace heat
