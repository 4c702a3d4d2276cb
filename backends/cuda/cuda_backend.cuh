// What every CUDA backend shares: device selection, the memory check before allocation, the
// resident field u, a step() that blocks and surfaces errors, and snapshots copied out while the
// next steps run. Where a face's condition is not layer, u's ghosts are filled on the device
// (boundary_fill.cuh) when it is set and after every step; each backend fills what its stencil
// launches read between them (its stage fields, or its passes' operands). A steady source's arrays
// (source_arrays.hpp) are counted in the memory check here; the fill's rate is held here, the
// array a backend's kernels add by the backend. Material fields' arrays (material_arrays.hpp) are
// counted and held here, the fill's copies and the stencil's, which every backend reads alike.
#pragma once

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "backends/cuda/boundary_fill.cuh"
#include "backends/cuda/device_buffer.cuh"
#include "backends/cuda/device_initial_fields.hpp"
#include "backends/cuda/device_materials.cuh"
#include "backends/cuda/gpu_info.hpp"
#include "backends/cuda/material_arrays.hpp"
#include "backends/cuda/nonfinite.cuh"
#include "backends/cuda/source_arrays.hpp"
#include "core/step_columns.hpp"
#include "core/step_planes.hpp"

namespace heat {

// Selects the device and refuses (InputError, exit 2) a run that would not fit in its free memory.
void prepare_device(const BackendOptions& options, std::size_t bytes_needed, const std::string& backend_name);

// Snapshots taken while the GPU keeps stepping (docs/design.md §8): the field is copied to a
// device copy in the compute stream's order (a device-to-device copy, a millisecond at 600^3), and
// from there to the host on a copy stream of its own, beside the kernels that follow.
class SnapshotCopies {
 public:
  SnapshotCopies(std::size_t bytes, int device);
  ~SnapshotCopies();
  SnapshotCopies(const SnapshotCopies&) = delete;
  SnapshotCopies& operator=(const SnapshotCopies&) = delete;
  // Takes `field` (device memory, as the compute stream will have it after the work queued so
  // far) and starts its copy into `host` (page-locked, or the copy blocks).
  std::unique_ptr<PendingDownload> start(const void* field, void* host);
  // Takes `field` into the device copy alone, where a writer reads it (DeviceSnapshots::take_device_snapshot).
  std::unique_ptr<DeviceSnapshot> take(const void* field);

 private:
  std::size_t bytes_;
  int device_;
  DeviceBuffer<unsigned char> copy_;  // freed after the destructor has waited for its copies
  cudaStream_t stream_ = nullptr;
  // taken_: the copy holds the field; read_: the host has the copy, which may be overwritten.
  cudaEvent_t taken_ = nullptr, read_ = nullptr;
};

// The streams of a segment's last launch, split around its exchange (StepPart, EdgesFirst): the
// Edges part on a stream of the highest priority, so that its blocks start first and the exchange
// after it starts early; the Inside part on one of the lowest, beside the Edges and then the
// exchange. Both follow the legacy default stream's work before the launch; the legacy stream
// waits for the Edges part before the exchange starts and for the Inside part at the end.
class PartStreams {
 public:
  explicit PartStreams(int device);
  ~PartStreams();
  PartStreams(const PartStreams&) = delete;
  PartStreams& operator=(const PartStreams&) = delete;

  // Before the launch's parts, which both follow the legacy stream's work so far.
  void fork();
  // The stream of `part`'s launches (Edges or Inside).
  cudaStream_t stream_of(StepPart part) const;
  // After the Edges part's launches: the legacy stream's work from here on follows them.
  void edges_written();
  // After the Inside part's launches: the legacy stream's work from here on follows them.
  void join();

 private:
  cudaStream_t edges_ = nullptr, inside_ = nullptr;
  cudaEvent_t forked_ = nullptr, edges_done_ = nullptr, inside_done_ = nullptr;
};

// Page-locks host memory (cudaHostRegister) while it lives.
std::unique_ptr<PinnedHostMemory> pin_host_memory(void* data, std::size_t bytes);

// The interior of the grid as the kernels see it.
struct GridDims {
  int nx, ny, nz;
  long long stride_y, stride_z;  // elements between neighbours along y and z
};

inline GridDims grid_dims(const Grid& g) { return GridDims{g.nx, g.ny, g.nz, (long long)g.nx, (long long)g.nx * g.ny}; }

// A register queue of the planes a z-marching thread holds, oldest first: drops the oldest and
// appends the newest (unrolled, so only register moves remain).
template <typename T, int N>
__device__ __forceinline__ void slide_in(T (&queue)[N], T newest) {
#pragma unroll
  for (int i = 0; i + 1 < N; ++i) queue[i] = queue[i + 1];
  queue[N - 1] = newest;
}

// Every CUDA backend steps a box as it steps a grid, leaving its outer r planes alone. Those
// planes hold u but not the stages' values, so each stage is wrong on r more planes inward: with
// PerStep's 4r ghost planes the wrong planes stay within the ghosts, which the exchange
// overwrites before the next step. The scheme of naive and reuse; tiled declares its own
// (tiled_ghost_scheme: PerHalfStep where its launches end with the second and fourth stages).
inline GhostScheme cuda_ghost_scheme(const Problem& p) {
  (void)p;
  return GhostScheme::PerStep;
}

// The capabilities (core/backend.hpp) are every CUDA backend's: snapshots copied out while the
// next steps run, and a field stepped in the caller's device memory. A rank's box is stepped with
// the exchange its final class's constructor is given (take_exchange).
template <typename T>
class CudaBackend : public Backend<T>,
                    public AsyncDownloads<T>,
                    public DeviceSnapshots<T>,
                    public ForeignDeviceMemory<T> {
 public:
  void upload(const Field<T>& u) override {
    u_.copy_from_host(u.data());
    field_set();
  }
  void upload_generated(const Grid& whole, const InitSpec& spec, const GridBox& box) override {
    make_initial_field_on_device(u_.get(), whole, spec, box);
    field_set();
  }
  void download(Field<T>& u) override { u_.copy_to_host(u.data()); }
  void step(int count) override {
    for (int n = 0; n < count; ++n) {
      // In the legacy default stream's order, like the kernels: the exchange reads the edge
      // planes the last step wrote and fills the ghost planes before the planes beside them are
      // stepped; with overlap the rest of the step runs while it travels.
      if (!exchange_) {
        step_once();
      } else if (!steps_in_parts()) {
        exchange_u_unless_current();
        step_once();
        ghosts_current_ = false;
      } else if (!part_streams_) {
        step_with_exchanges_first();
      } else {
        step_with_edges_first();
      }
      // u as a download, a snapshot or the next step reads it: face values held, ghosts filled.
      if (fills_ghosts_) fill_u();
    }
    // The compute stream only: a snapshot's copy to the host goes on meanwhile.
    HEAT_CUDA_CHECK(cudaStreamSynchronize(0));
  }
  // Without overlap: each segment of a step (StepPlanes) after the exchange of the field it reads.
  void step_with_exchanges_first() {
    for (segment_ = 0; segment_ < planes_.segments(); ++segment_) {
      if (segment_ == 0) exchange_u_unless_current();
      else exchange_->exchange(output_of_pass(planes_.last_pass_of(segment_ - 1)));
      for (StepPart part : {StepPart::LeadingLaunches, StepPart::Edges, StepPart::Inside}) step_part(part);
    }
    segment_ = 0;
    ghosts_current_ = false;
  }
  // EdgesFirst: each segment of a step (StepPlanes) leaves the ghost planes its output needs
  // filled for the next, from the planes its last launch wrote first; only the first step after the
  // field is set exchanges before it.
  void step_with_edges_first() {
    exchange_u_unless_current();
    for (segment_ = 0; segment_ < planes_.segments(); ++segment_) {
      step_part(StepPart::LeadingLaunches);
      part_streams_->fork();
      step_part(StepPart::Edges);
      part_streams_->edges_written();
      // Inside after start(): before it, the host route's download of the edges ran beside Inside
      // and lengthened the exchange, which that route does not hide.
      exchange_->start(output_of_pass(planes_.last_pass_of(segment_)));
      step_part(StepPart::Inside);
      exchange_->finish();
      part_streams_->join();
    }
    segment_ = 0;
    ghosts_current_ = true;
  }
  // u_ is the current field in every CUDA backend (those that step into a second buffer swap it in).
  long long first_nonfinite() override {
    return in_own_planes([&](const T* values, std::size_t count) { return first_nonfinite_on_device(values, count); });
  }
  long long download_finding_nonfinite(Field<T>& u) override {
    return in_own_planes([&](const T* values, std::size_t count) {
      return first_nonfinite_on_device_beside(values, count, [&] { download(u); });
    });
  }
  // Without a snapshot copy (BackendOptions::snapshots_while_stepping), the blocking download.
  std::unique_ptr<PendingDownload> start_download(Field<T>& u) override {
    if (!snapshots_) {
      download(u);
      return std::make_unique<LandedDownload>();
    }
    return snapshots_->start(u_.get(), u.data());
  }
  std::unique_ptr<PinnedHostMemory> pin(Field<T>& u) override {
    return pin_host_memory(u.data(), u.size() * sizeof(T));
  }
  bool takes_device_snapshots() const override { return snapshots_ != nullptr; }
  // Only where takes_device_snapshots() (the interface's precondition).
  std::unique_ptr<DeviceSnapshot> take_device_snapshot() override {
    if (!snapshots_) throw std::logic_error("this backend keeps no snapshot in device memory");
    return snapshots_->take(u_.get());
  }
  // u_, then each segment's output (StepPlanes::segments) where it is another field.
  std::vector<T*> exchanged_fields() override {
    std::vector<T*> fields{u_.get()};
    if (!steps_in_parts()) return fields;
    for (int segment = 0; segment < planes_.segments(); ++segment) {
      T* const output = output_of_pass(planes_.last_pass_of(segment));
      if (std::find(fields.begin(), fields.end(), output) == fields.end()) fields.push_back(output);
    }
    return fields;
  }
  void adopt_device_field(T* field) override {
    adopted_ = field;
    u_ = DeviceBuffer<T>::borrow(field, problem_.grid.points());
    field_set();
  }
  // Backends that step into a second buffer swap it with u_, so after an odd number of steps the
  // current field is in the backend's own memory: it is copied to the caller's, and the buffers
  // are swapped back, so that a backend kept for the next field (adopt_device_field) neither frees
  // its own buffer nor steps into this caller's memory.
  void release_device_field() override {
    if (!adopted_ || u_.get() == adopted_) return;
    HEAT_CUDA_CHECK(cudaMemcpyAsync(adopted_, u_.get(), u_.bytes(), cudaMemcpyDeviceToDevice, 0));
    HEAT_CUDA_CHECK(cudaStreamSynchronize(0));
    swap_second_buffer_back();
  }

 protected:
  CudaBackend(const Problem& p, const BackendOptions& o, std::size_t bytes_needed, const std::string& name)
      : problem_(p),
        planes_(p.grid.nz, p.radius()),
        overlap_(o.halo_overlap.value_or(HaloOverlap::Off) != HaloOverlap::Off),
        device_(o.device) {
    const std::size_t field_bytes = p.grid.points() * sizeof(T);
    prepare_device(o,
                   bytes_needed + device_source_bytes(p, sizeof(T)) + device_material_bytes(p, sizeof(T)) +
                       (o.snapshots_while_stepping ? field_bytes : 0),
                   name);
    if (!o.field_in_caller_memory) u_ = DeviceBuffer<T>(p.grid.points());
    if (o.snapshots_while_stepping) snapshots_ = std::make_unique<SnapshotCopies>(field_bytes, o.device);
    fill_arrays_ = DeviceFillArrays(p);
    materials_ = DeviceMaterials<T>(p);
    boundary_fill_ = DeviceBoundaryFill(p, FillPart::Full, FillRows::Whole, &fill_arrays_);
    fills_ghosts_ = fills_ghosts<T>(p.boundaries, nullptr);
  }
  // One rank's box, for `exchange` non-null (laid out for PerStep's or PerHalfStep's ghost planes):
  // the backend steps its box and has the exchange refresh the ghost planes; null: the whole grid.
  // The two kinds of CUDA backend call it last in their constructors (GlobalMemoryBackend,
  // PassFormBackend), where steps_in_parts() already answers as their final classes do.
  void take_exchange(HaloExchange<T>* exchange) {
    if (!exchange) return;
    if (exchange->scheme() == GhostScheme::PerStage)
      throw std::logic_error("a backend that steps its box whole needs PerStep's or PerHalfStep's ghost planes");
    // A box's materials (problem_.materials, box_problem's planes of the whole grid's, ghost planes
    // included) are uploaded as a grid's are: set once, never exchanged. One launch sequence a step
    // over the whole box (no step_part) exchanges once, before it, so it needs PerStep's 4r planes.
    if (!steps_in_parts() && exchange->scheme() != GhostScheme::PerStep)
      throw std::logic_error("a backend that steps its box whole needs PerStep's ghost planes");
    exchange_ = exchange;
    fills_ghosts_ = fills_ghosts(problem_.boundaries, exchange);
    planes_ = StepPlanes(problem_.grid.nz, problem_.radius(), exchange->sides());
    if (overlap_ && steps_in_parts()) {
      part_streams_ = std::make_unique<PartStreams>(device_);
      rim_ = ColumnRim(problem_.grid.nx, problem_.grid.ny, exchange->sides());
    }
  }
  bool overlaps_exchange() const override { return exchange_ && overlap_ && steps_in_parts(); }
  // Launches one RK4 step on the default stream; need not synchronise.
  virtual void step_once() = 0;
  // Whether the backend's launches can write a range of planes (step_part), and so step a box
  // while its exchange travels; those that step whole boxes only exchange first.
  virtual bool steps_in_parts() const { return false; }
  // Launches `part` of one RK4 step, each launch on its planes_of(part, its last pass); only where
  // steps_in_parts().
  virtual void step_part(StepPart part) {
    (void)part;
    throw std::logic_error("this backend steps whole boxes only");
  }
  // Each launch of step_part(part) goes on launch_stream(part): Edges and Inside on their streams
  // where the step overlaps its exchanges, all else on the legacy stream.
  cudaStream_t launch_stream(StepPart part) const {
    return part_streams_ && (part == StepPart::Edges || part == StepPart::Inside) ? part_streams_->stream_of(part) : 0;
  }
  // Whether `part` ends a step (the last launch whole, or its last part), where a backend that
  // steps into a second buffer, in one launch a step, swaps it in.
  static bool completes_step(StepPart part) { return part == StepPart::Whole || part == StepPart::Inside; }
  // The field that the launch ending with pass `pass` (2 or 4) writes, whose ghost planes the
  // exchange after it fills: u_ for pass 4, or the buffer swapped in after it.
  virtual T* output_of_pass(int pass) {
    if (pass != 4) throw std::logic_error("this backend has no launch that ends with pass " + std::to_string(pass));
    return u_.get();
  }
  // The planes of `part` of the launch ending with pass `pass`, in the segment being stepped.
  std::array<PlaneRange, 2> planes_of(StepPart part, int pass) const { return planes_.of(part, pass, segment_); }
  // The launches of `part` of the launch ending with pass `pass`, in the segment being stepped: its
  // planes over every column, or where the step overlaps an exchange across x or y, Edges and Inside
  // split by the rim of the box's columns too (launch_shares).
  std::vector<LaunchShare> shares_of(StepPart part, int pass) const {
    return launch_shares(planes_, rim_, part, pass, segment_);
  }
  // Called once u_ holds the initial field: prepares the other fields the kernels need from it.
  virtual void prepare_resident_field() {}
  // Where the backend has swapped its second buffer in for u_ (release_device_field), swaps them back.
  virtual void swap_second_buffer_back() {}
  // u's ghosts filled (where a face is not layer) before the fields prepared from it copy its
  // boundary layer.
  void field_set() {
    ghosts_current_ = false;
    boundary_fill_(u_.get());
    prepare_resident_field();
  }
  // For a backend that launches the passes of a step one by one (stencils/rk4_forms.hpp), where a
  // face is not layer: whether `part` of the step fills pass `pass`'s operand (1 to 4) before
  // launching it. Pass 1 reads u, filled after the last step. The others' operands are filled once,
  // on the legacy stream, after the pass that wrote them and before any part of theirs: in the
  // Whole part, or for a segment's passes in its LeadingLaunches part, which runs before the
  // segment's last pass forks onto the Edges and Inside streams.
  bool fills_operand(StepPart part, int pass) const {
    if (!boundary_fill_.fills() || pass == 1) return false;
    const int last = planes_.last_pass_of(segment_), passes = planes_.last_pass_of(0);
    return part == StepPart::Whole || (part == StepPart::LeadingLaunches && pass <= last && pass > last - passes);
  }

  // Whether the backend steps the whole grid, not a rank's box.
  bool steps_whole_grid() const { return exchange_ == nullptr; }

  Problem problem_;
  DeviceBuffer<T> u_;
  // What the fills read beside the field (a source's rate, a material's K and C in double).
  DeviceFillArrays fill_arrays_;
  DeviceBoundaryFill boundary_fill_;  // the faces that are not layer, as the problem states them
  DeviceMaterials<T> materials_;      // what the stencil reads of material fields; empty without

 private:
  // u's ghost planes from the neighbours, unless the last exchange of u brought them and no step
  // has written u since.
  void exchange_u_unless_current() {
    if (!ghosts_current_) exchange_->exchange(u_.get());
    ghosts_current_ = true;
  }
  // After a step where u's ghosts are filled: in a rank's box u's exchange first, so that its ghost
  // planes hold this step's values, as a downloaded box (a wrapped box's part holds ghost planes)
  // and the z faces' fill read them; then the whole fill. The fill of a plane reads that plane
  // alone, but for the z faces, so filling the x and y faces of the planes just received gives
  // what the neighbour's fill gave them: the host's order (x and y, the exchange, z) in two calls.
  void fill_u() {
    if (exchange_) exchange_u_unless_current();
    boundary_fill_(u_.get());
  }

  // `find`'s answer (a box index, or -1) over the box's own planes: its ghost planes hold whatever
  // the step left there (StepPlanes writes only those the step reads), which the next exchange
  // replaces.
  template <class Find>
  long long in_own_planes(const Find& find) const {
    const PlaneRange own = planes_.own();
    const std::size_t plane = std::size_t(problem_.grid.nx) * std::size_t(problem_.grid.ny);
    const std::size_t first = std::size_t(own.first) * plane;
    const long long at = find(u_.get() + first, std::size_t(own.size()) * plane);
    return at < 0 ? at : at + (long long)first;
  }

  std::unique_ptr<SnapshotCopies> snapshots_;
  StepPlanes planes_;
  ColumnRim rim_;  // none but where the step overlaps an exchange across x or y
  bool overlap_;  // EdgesFirst, where the backend steps in parts: the only way CUDA backends overlap
  // Around each step and after the field is set: a face is not layer, or z wraps the ranks
  // (fills_ghosts), so u's ghost planes are exchanged after the step, not before the next.
  bool fills_ghosts_ = false;
  bool ghosts_current_ = false;  // the last exchange of u_ filled its ghost planes, and no step has written u_ since
  int segment_ = 0;              // EdgesFirst: the segment of the step being launched
  int device_;
  std::unique_ptr<PartStreams> part_streams_;  // only for a box stepped in parts around its exchange
  HaloExchange<T>* exchange_ = nullptr;        // null: the whole grid, no neighbours
  T* adopted_ = nullptr;                       // the caller's memory (adopt_device_field), or null
};

}  // namespace heat
