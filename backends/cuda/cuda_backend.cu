#include <stdexcept>

#include "backends/cuda/cuda_backend.cuh"
#include "core/errors.hpp"

namespace heat {

void prepare_device(const BackendOptions& options, std::size_t bytes_needed, const std::string& backend_name) {
  const GpuInfo info = query_gpu(options.device);
  if (!info.available) throw InputError("backend '" + backend_name + "' needs a CUDA GPU: " + info.reason);
  HEAT_CUDA_CHECK(cudaSetDevice(options.device));
  if (bytes_needed > info.free_bytes)
    throw InputError(
        "backend '" + backend_name + "' needs " + std::to_string(bytes_needed) + " bytes of GPU memory but " +
        info.name + " has " + std::to_string(info.free_bytes) +
        " bytes free: use a smaller grid (a --precision double run needs about twice a float one's memory)");
}

namespace {

// A snapshot's copy to the host, done when its event has completed.
class EventDownload final : public PendingDownload {
 public:
  EventDownload(cudaEvent_t landed, int device) : landed_(landed), device_(device) {}
  ~EventDownload() override { cudaEventDestroy(landed_); }  // no throw from a destructor
  // Called from the writer thread, which selects the run's device first.
  void wait() override {
    HEAT_CUDA_CHECK(cudaSetDevice(device_));
    HEAT_CUDA_CHECK(cudaEventSynchronize(landed_));
  }

 private:
  cudaEvent_t landed_;
  int device_;
};

// The snapshot copy as a writer reads it on the device.
class CopyOnDevice final : public DeviceSnapshot {
 public:
  CopyOnDevice(const void* copy, std::size_t bytes, cudaEvent_t taken, cudaStream_t stream, int device)
      : copy_(copy), bytes_(bytes), taken_(taken), stream_(stream), device_(device) {}
  // Called from the writer thread, which selects the run's device first.
  void wait() override {
    HEAT_CUDA_CHECK(cudaSetDevice(device_));
    HEAT_CUDA_CHECK(cudaEventSynchronize(taken_));
  }
  const void* values() const override { return copy_; }
  // On the copies' stream, not behind the steps queued on the legacy one.
  void fetch(void* host) override {
    wait();
    HEAT_CUDA_CHECK(cudaMemcpyAsync(host, copy_, bytes_, cudaMemcpyDeviceToHost, stream_));
    HEAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  const void* copy_;
  std::size_t bytes_;
  cudaEvent_t taken_;
  cudaStream_t stream_;
  int device_;
};

class RegisteredHostMemory final : public PinnedHostMemory {
 public:
  explicit RegisteredHostMemory(void* data) : data_(data) {}
  ~RegisteredHostMemory() override { cudaHostUnregister(data_); }

 private:
  void* data_;
};

}  // namespace

SnapshotCopies::SnapshotCopies(std::size_t bytes, int device) : bytes_(bytes), device_(device), copy_(bytes) {
  // Non-blocking: the legacy default stream, where the kernels run, must not wait for this one.
  HEAT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&taken_, cudaEventDisableTiming));
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&read_, cudaEventDisableTiming));
}

SnapshotCopies::~SnapshotCopies() {
  // A copy still reading copy_ must finish before it is freed; errors cannot be thrown from here.
  if (stream_) cudaStreamSynchronize(stream_);
  if (read_) cudaEventDestroy(read_);
  if (taken_) cudaEventDestroy(taken_);
  if (stream_) cudaStreamDestroy(stream_);
}

std::unique_ptr<PendingDownload> SnapshotCopies::start(const void* field, void* host) {
  // The device copy is overwritten only after the previous snapshot has left it (a wait on the
  // GPU, which a snapshot interval of more than the copy's few tens of milliseconds never feels).
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(0, read_, 0));
  HEAT_CUDA_CHECK(cudaMemcpyAsync(copy_.get(), field, bytes_, cudaMemcpyDeviceToDevice, 0));
  HEAT_CUDA_CHECK(cudaEventRecord(taken_, 0));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(stream_, taken_, 0));
  HEAT_CUDA_CHECK(cudaMemcpyAsync(host, copy_.get(), bytes_, cudaMemcpyDeviceToHost, stream_));
  HEAT_CUDA_CHECK(cudaEventRecord(read_, stream_));
  cudaEvent_t landed = nullptr;
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&landed, cudaEventDisableTiming));
  auto download = std::make_unique<EventDownload>(landed, device_);
  HEAT_CUDA_CHECK(cudaEventRecord(landed, stream_));
  return download;
}

std::unique_ptr<DeviceSnapshot> SnapshotCopies::take(const void* field) {
  // The writer has finished with the previous snapshot taken here before this call; a copy to
  // the host started by start() may still be reading the copy.
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(0, read_, 0));
  HEAT_CUDA_CHECK(cudaMemcpyAsync(copy_.get(), field, bytes_, cudaMemcpyDeviceToDevice, 0));
  HEAT_CUDA_CHECK(cudaEventRecord(taken_, 0));
  return std::make_unique<CopyOnDevice>(copy_.get(), bytes_, taken_, stream_, device_);
}

PartStreams::PartStreams(int device) {
  HEAT_CUDA_CHECK(cudaSetDevice(device));
  int least = 0, greatest = 0;
  HEAT_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  // Non-blocking: neither waits for the legacy stream's work unless told to by an event.
  HEAT_CUDA_CHECK(cudaStreamCreateWithPriority(&edges_, cudaStreamNonBlocking, greatest));
  HEAT_CUDA_CHECK(cudaStreamCreateWithPriority(&inside_, cudaStreamNonBlocking, least));
  for (cudaEvent_t* e : {&forked_, &edges_done_, &inside_done_})
    HEAT_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
}

PartStreams::~PartStreams() {
  // Errors cannot be thrown from here; the streams' work is over once a step has returned.
  for (cudaStream_t s : {edges_, inside_})
    if (s) cudaStreamSynchronize(s);
  for (cudaEvent_t e : {forked_, edges_done_, inside_done_})
    if (e) cudaEventDestroy(e);
  for (cudaStream_t s : {edges_, inside_})
    if (s) cudaStreamDestroy(s);
}

void PartStreams::fork() {
  HEAT_CUDA_CHECK(cudaEventRecord(forked_, cudaStreamLegacy));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(edges_, forked_, 0));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(inside_, forked_, 0));
}

cudaStream_t PartStreams::stream_of(StepPart part) const {
  if (part == StepPart::Edges) return edges_;
  if (part == StepPart::Inside) return inside_;
  throw std::logic_error("PartStreams runs the Edges and Inside parts only");
}

void PartStreams::edges_written() {
  HEAT_CUDA_CHECK(cudaEventRecord(edges_done_, edges_));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, edges_done_, 0));
}

void PartStreams::join() {
  HEAT_CUDA_CHECK(cudaEventRecord(inside_done_, inside_));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, inside_done_, 0));
}

std::unique_ptr<PinnedHostMemory> pin_host_memory(void* data, std::size_t bytes) {
  // Portable: the writer thread that registers it need not have the run's device current.
  HEAT_CUDA_CHECK(cudaHostRegister(data, bytes, cudaHostRegisterPortable));
  return std::make_unique<RegisteredHostMemory>(data);
}

}  // namespace heat
