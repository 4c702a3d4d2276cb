// The contract every backend meets (docs/design.md, "Seam: the backend interface").
//
// - All calls are blocking: when one returns, its work is complete and any error has been thrown.
// - upload() copies the whole field, boundary layer included; the field then stays resident in
//   the backend's memory (the GPU's, for CUDA backends) between step() calls.
// - step(count) advances `count` classical RK4 steps of alpha*Lap on the interior; the boundary
//   layer (every point within r of a face) of a `layer` face is never written, and the ghosts of
//   a face with another condition are filled from the field (BackendEntry::fills_boundaries).
// - download() copies the current field back, boundary layer included.
// - first_nonfinite() finds the first NaN or Inf of the current field where it lives (one read
//   of the field, cheap beside a step), so the time loop can stop a run that blew up;
//   download_finding_nonfinite(u) is download(u) and first_nonfinite() in one call, which a
//   backend may run at once (CUDA: the search beside the copy).
// - A backend for one rank's box is made with the exchange that fills its ghost planes
//   (BackendEntry::make); every backend's constructor takes it, null for a grid alone.
// Errors: InputError for a problem the backend cannot take, RunError for a failure while running.
//
// What only some backends can do is not on Backend<T> but in a small interface of its own below
// (AsyncDownloads, DeviceSnapshots, ForeignDeviceMemory), which such a backend also derives from.
// A caller asks for one with capability<Interface>(backend), a dynamic_cast: null where the
// backend lacks it, and the caller then does without (the snapshot pipeline downloads, blocking)
// or refuses (a field stepped in place). A dynamic_cast and not a virtual accessor per interface:
// Backend<T> then names none of them, and an interface is added without touching it.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "core/ghost_exchange.hpp"
#include "core/initial_conditions.hpp"
#include "core/problem.hpp"

namespace heat {

// A copy on its way into host memory; wait() returns once every value has landed (and throws
// RunError for a copy that failed). Waiting twice is harmless.
class PendingDownload {
 public:
  virtual ~PendingDownload() = default;
  virtual void wait() = 0;
};

// Keeps host memory page-locked while it lives, so copies into it need no staging.
class PinnedHostMemory {
 public:
  virtual ~PinnedHostMemory() = default;
};

// A snapshot kept in the backend's device memory (a CUDA backend's snapshot copy), for a writer
// that reads it there (the GPU's ZFP encoder) instead of from a host buffer. wait() returns once
// values() holds the field as it was when the snapshot was taken; fetch(host) copies it into
// host memory of the field's size. The backend holds one such copy: the next snapshot may be
// taken only once this one is destroyed.
class DeviceSnapshot {
 public:
  virtual ~DeviceSnapshot() = default;
  virtual void wait() = 0;
  virtual const void* values() const = 0;
  virtual void fetch(void* host) = 0;
};

template <typename T>
class Backend {
 public:
  virtual ~Backend() = default;
  virtual void upload(const Field<T>& u) = 0;
  virtual void step(int count) = 0;
  virtual void download(Field<T>& u) = 0;
  // The flat index (Grid::index) of the first non-finite value of the current field, or -1.
  virtual long long first_nonfinite() = 0;
  // Makes the steps after it take `dt` instead of Problem::dt: the backend remakes the constants it
  // made from Problem::dt exactly as its constructor did. A run to an end time calls it before its
  // shortened last step (LoopSchedule::last_step_dt).
  virtual void set_step_dt(double dt) = 0;
  // download(u), then first_nonfinite(); the run's last check, which then costs no time of its own
  // where the backend overlaps the two.
  virtual long long download_finding_nonfinite(Field<T>& u) {
    download(u);
    return first_nonfinite();
  }

  // Makes `box` of the generated initial field of grid `whole` (all of it, or a rank's box)
  // where the backend keeps its field (on the GPU for CUDA backends, which then upload nothing);
  // the default makes it on the host and uploads it.
  virtual void upload_generated(const Grid& whole, const InitSpec& spec, const GridBox& box) {
    upload(make_initial_field<T>(whole, spec, box));
  }

  // The fields whose ghost planes the exchange the backend was made with fills, in the order the
  // steps first give them (HaloExchange::open): the resident field, and the buffer a backend that
  // steps into a second one swaps with it. Empty where the exchange needs no notice of them (the
  // cpu backends, which hand it their fields step by step). On Backend<T> and not a capability:
  // every backend takes an exchange when made, so a rank's set-up asks every backend, and the
  // empty default is a true answer, not a refusal.
  virtual std::vector<T*> exchanged_fields() { return {}; }

  // Whether the steps run while the exchange travels (--halo-overlap as the backend applies it, which
  // the run's summary reports): false without an exchange, and where the backend exchanges first
  // (the stage form, kernels that step whole boxes), whatever the option asked.
  virtual bool overlaps_exchange() const { return false; }
};

// What a capability's caller asks for: `backend` as the interface `Capability` (AsyncDownloads<T>,
// DeviceSnapshots<T>, ForeignDeviceMemory<T>), or null where it lacks it.
template <class Capability, typename T>
Capability* capability(Backend<T>& backend) {
  return dynamic_cast<Capability*>(&backend);
}

// A copy that had landed when it was handed over.
class LandedDownload final : public PendingDownload {
 public:
  void wait() override {}
};

// Capability: downloads that may return before their work is done (CUDA backends). start_download
// takes the current field at once, and later step() calls may run while the copy travels to the
// host (docs/design.md §8).
template <typename T>
class AsyncDownloads {
 public:
  virtual ~AsyncDownloads() = default;
  // Starts copying the current field into `u`, which must not be read, moved or freed before
  // the returned download's wait() has returned.
  virtual std::unique_ptr<PendingDownload> start_download(Field<T>& u) = 0;
  // Page-locks `u`'s memory for start_download() until the returned object is destroyed (which
  // must happen before `u` is freed); may be null. Called from the snapshot writer's thread while
  // the loop's thread steps: it touches no backend state.
  virtual std::unique_ptr<PinnedHostMemory> pin(Field<T>& u) = 0;
};

// `backend`'s start_download where it has AsyncDownloads, else the blocking download, landed.
template <typename T>
std::unique_ptr<PendingDownload> start_download(Backend<T>& backend, Field<T>& u) {
  if (auto* downloads = capability<AsyncDownloads<T>>(backend)) return downloads->start_download(u);
  backend.download(u);
  return std::make_unique<LandedDownload>();
}

// `backend`'s pin(u) where it has AsyncDownloads, else null (nothing gains from it).
template <typename T>
std::unique_ptr<PinnedHostMemory> pin_for_downloads(Backend<T>& backend, Field<T>& u) {
  if (auto* downloads = capability<AsyncDownloads<T>>(backend)) return downloads->pin(u);
  return nullptr;
}

// Capability: a snapshot kept in the backend's device memory (CUDA backends). A backend made
// without BackendOptions::snapshots_while_stepping keeps no device copy: takes_device_snapshots()
// says so, and take_device_snapshot() must then not be called.
template <typename T>
class DeviceSnapshots {
 public:
  virtual ~DeviceSnapshots() = default;
  // Whether take_device_snapshot() may be called: the backend holds a device copy.
  virtual bool takes_device_snapshots() const = 0;
  // Takes the current field into the backend's device copy, in the order of the work queued so
  // far, and returns at once; later step() calls may run while the copy is made.
  virtual std::unique_ptr<DeviceSnapshot> take_device_snapshot() = 0;
};

// Whether `backend` takes snapshots into its device memory (DeviceSnapshots).
template <typename T>
bool takes_device_snapshots(Backend<T>& backend) {
  const auto* snapshots = capability<DeviceSnapshots<T>>(backend);
  return snapshots && snapshots->takes_device_snapshots();
}

// Capability: stepping device memory the caller owns (CUDA backends; the Python module's in-place
// step, docs/design.md §11).
template <typename T>
class ForeignDeviceMemory {
 public:
  virtual ~ForeignDeviceMemory() = default;
  // `field`: the grid's points in device memory on the backend's device (BackendOptions::device),
  // which nothing else writes until release_device_field() has returned. It becomes the resident
  // field in place of upload(); step() advances it in place, its boundary layer is never written,
  // and the backend never frees it. Needs a backend made with BackendOptions::field_in_caller_memory.
  virtual void adopt_device_field(T* field) = 0;
  // Leaves the current field in the adopted memory (a device-to-device copy where the last step
  // ended in a buffer of the backend's own); nothing is stepped after it.
  virtual void release_device_field() = 0;
};

// Choices that are not part of the problem but of where and how it runs.
struct BackendOptions {
  int device = 0;  // CUDA device ordinal
  // Snapshots are taken while steps go on (start_download): a CUDA backend keeps a device copy
  // of the field for them, counted in its memory check.
  bool snapshots_while_stepping = false;
  // The resident field will be the caller's device memory (adopt_device_field): a CUDA backend
  // allocates no field u of its own.
  bool field_in_caller_memory = false;
  // One rank's box (made with an exchange): whether the backend computes its interior while its
  // ghost planes travel, where it can (the cpu backend's single passes, tiled's steps). Unset:
  // the entry's choice for the order (BackendEntry::halo_overlap).
  std::optional<HaloOverlap> halo_overlap;
};

// What a backend's entry in the registry says about it without building one.
// What a backend runs for one order and precision, where that differs between them (tiled's
// kernel configurations); `heatrk4 backends` prints the rows, so the documents need not copy them.
struct OrderDefault {
  int order = 0;
  Precision precision = Precision::Float;
  std::string configuration;  // as the backend names it, e.g. "factors/64x16/c2x1/a2"
  int kernels_per_step = 0;
  int arrays_per_point = 0;  // the byte model's arrays per point per step
  std::string kernel_file;   // where the kernels are, e.g. "one_pass.cuh"
  std::string why;           // the measured reason, in a few words
};

struct BackendEntry {
  std::string name;
  std::string description;
  bool uses_cuda = false;
  // Whether it fills the ghost points of faces whose condition is not layer (Problem::boundaries);
  // a run asks for such faces only from a backend that does.
  bool fills_boundaries = false;
  // Whether it adds a steady heat source (Problem::source); a run with a source asks for none other.
  bool adds_sources = false;
  // Whether it steps material fields (Problem::materials); a run with them asks for none other.
  bool steps_materials = false;
  // One row per order and precision where the backend's design depends on them, else empty.
  std::vector<OrderDefault> defaults;
  // Bytes that must cross main memory per interior point per step under this backend's design:
  // each array read or written once, neighbours served by caches. The benchmark divides by it.
  std::function<double(const Problem&, std::size_t value_size)> bytes_per_point;
  // Bytes of the backend's own working memory (on the device for CUDA backends).
  std::function<std::size_t(const Problem&, std::size_t value_size)> working_bytes;
  // How one rank's box keeps its ghost planes right under this backend for a problem (its order,
  // whether K and C are fields): the scheme the decomposition lays the box out for and the exchange
  // fills (core/ghost_exchange.hpp).
  std::function<GhostScheme(const Problem&)> ghost_scheme;
  // The work a side with a neighbour costs a rank of this backend, in own planes, by order: what
  // decompose() evens out between end and middle ranks. Unset: none.
  std::function<int(int order)> side_planes;
  // Whether a rank's box steps its interior while its ghost planes travel, by order, where the
  // options leave it unset: the faster of the two where both were measured.
  std::function<HaloOverlap(int order)> halo_overlap;
  // The backend for problem `p` (a whole grid, or one rank's box). `exchange`: null for a grid
  // without neighbours; otherwise the exchange that fills the box's ghost planes, laid out for
  // ghost_scheme(p) and outliving the backend.
  std::function<std::unique_ptr<Backend<float>>(const Problem&, const BackendOptions&, HaloExchange<float>*)>
      make_float;
  std::function<std::unique_ptr<Backend<double>>(const Problem&, const BackendOptions&, HaloExchange<double>*)>
      make_double;

  // The overlap a backend of this entry runs with: the options', or where unset the entry's own.
  HaloOverlap chosen_halo_overlap(const BackendOptions& o, int order) const {
    return o.halo_overlap ? *o.halo_overlap : halo_overlap(order);
  }

  template <typename T>
  std::unique_ptr<Backend<T>> make(const Problem& p, const BackendOptions& o,
                                   HaloExchange<T>* exchange = nullptr) const {
    BackendOptions chosen = o;
    chosen.halo_overlap = chosen_halo_overlap(o, p.order);
    if constexpr (sizeof(T) == sizeof(float))
      return make_float(p, chosen, exchange);
    else
      return make_double(p, chosen, exchange);
  }
};

}  // namespace heat
