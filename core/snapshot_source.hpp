// A snapshot as a writer receives it (docs/design.md §8): its values in host memory, or held on
// the run's GPU in the backend's device copy (DeviceSnapshot) until a reader needs them on the
// host. A reader that can use device memory (the GPU's ZFP encoder) asks on_device(); every other
// reader calls host(), which brings the values over the first time. Used on one thread at a time.
#pragma once

#include <cstddef>

#include "core/backend.hpp"
#include "core/field.hpp"

namespace heat {

template <typename T>
class SnapshotSource {
 public:
  // Values already on the host. Implicit: a host field is a snapshot.
  SnapshotSource(const Field<T>& host) : host_(&host) {}
  // Values in `device`'s copy; `landing`, a field of the snapshot's shape, receives them when
  // host() is first called.
  SnapshotSource(Field<T>& landing, DeviceSnapshot& device) : host_(&landing), landing_(&landing), device_(&device) {}

  int nx() const { return host_->nx(); }
  int ny() const { return host_->ny(); }
  int nz() const { return host_->nz(); }
  std::size_t index(int i, int j, int k) const { return host_->index(i, j, k); }

  // The device's copy of the values (index() as on the host), while they have not been brought
  // to the host; null for a snapshot on the host.
  const T* on_device() const { return device_ ? static_cast<const T*>(device_->values()) : nullptr; }

  // The values in host memory; for a snapshot on the device, copied over once, the first time.
  const Field<T>& host() const {
    if (device_) {
      device_->fetch(landing_->data());
      device_ = nullptr;
    }
    return *host_;
  }

 private:
  const Field<T>* host_;
  Field<T>* landing_ = nullptr;
  mutable DeviceSnapshot* device_ = nullptr;  // null once the values are on the host
};

}  // namespace heat
