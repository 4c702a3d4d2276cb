// The device time of a GPU route's exchanges: each exchange's work on its stream between a pair
// of events. The pairs are reused in turn, and a pair's time is read before its reuse: by then it
// is long finished, so the host rarely waits, and never runs more than kPairs exchanges ahead of
// the device.
#pragma once

#include <cuda_runtime.h>

#include <array>

#include "backends/cuda/cuda_check.cuh"

namespace heat {

class DeviceExchangeTimes {
 public:
  DeviceExchangeTimes() {
    for (Pair& p : pairs_) {
      HEAT_CUDA_CHECK(cudaEventCreate(&p.begin));
      HEAT_CUDA_CHECK(cudaEventCreate(&p.end));
    }
  }
  ~DeviceExchangeTimes() {
    for (Pair& p : pairs_) {
      if (p.begin) cudaEventDestroy(p.begin);
      if (p.end) cudaEventDestroy(p.end);
    }
  }
  DeviceExchangeTimes(const DeviceExchangeTimes&) = delete;
  DeviceExchangeTimes& operator=(const DeviceExchangeTimes&) = delete;

  // An exchange's work on `stream` begins here...
  void begin(cudaStream_t stream) {
    Pair& p = pairs_[next_];
    add(p);
    HEAT_CUDA_CHECK(cudaEventRecord(p.begin, stream));
  }
  // ...and ends here; the event that marks its end, for work that must follow it.
  cudaEvent_t end(cudaStream_t stream) {
    Pair& p = pairs_[next_];
    HEAT_CUDA_CHECK(cudaEventRecord(p.end, stream));
    p.pending = true;
    next_ = (next_ + 1) % kPairs;
    return p.end;
  }
  // The seconds of every exchange so far; waits for those still running.
  double seconds() {
    for (Pair& p : pairs_) add(p);
    return seconds_;
  }
  // Waits for the exchanges so far and leaves them out of seconds().
  void forget_so_far() {
    seconds();
    seconds_ = 0;
  }

 private:
  static constexpr std::size_t kPairs = 32;
  struct Pair {
    cudaEvent_t begin = nullptr, end = nullptr;
    bool pending = false;
  };
  void add(Pair& p) {
    if (!p.pending) return;
    float ms = 0;
    HEAT_CUDA_CHECK(cudaEventSynchronize(p.end));
    HEAT_CUDA_CHECK(cudaEventElapsedTime(&ms, p.begin, p.end));
    seconds_ += 1e-3 * double(ms);
    p.pending = false;
  }
  std::array<Pair, kPairs> pairs_{};
  std::size_t next_ = 0;
  double seconds_ = 0;
};

}  // namespace heat
