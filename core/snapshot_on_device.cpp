#include "core/snapshot_on_device.hpp"

namespace heat {

namespace {
struct HeldOnDevice {
  void* host = nullptr;
  DeviceSnapshot* snapshot = nullptr;
};
thread_local HeldOnDevice held_on_device;
}  // namespace

SnapshotOnDeviceScope::SnapshotOnDeviceScope(void* host, DeviceSnapshot& snapshot) {
  held_on_device = {host, &snapshot};
}

SnapshotOnDeviceScope::~SnapshotOnDeviceScope() { held_on_device = {}; }

const void* snapshot_values_on_device(const void* host) {
  return held_on_device.snapshot && held_on_device.host == host ? held_on_device.snapshot->values() : nullptr;
}

void bring_snapshot_to_host(const void* host) {
  if (!snapshot_values_on_device(host)) return;
  held_on_device.snapshot->fetch(held_on_device.host);
  held_on_device = {};
}

}  // namespace heat
