// GPU timing for the benchmark, in plain C++ so bench.cpp needs no nvcc: CUDA events around
// blocking calls, and the device-to-device copy that serves as the memory ceiling.
#pragma once

#include <cstddef>
#include <functional>

namespace heat::bench {

// Milliseconds that `work` took on the device, timed with CUDA events on the default stream.
double time_with_events_ms(const std::function<void()>& work);

// Bandwidth of cudaMemcpy device-to-device on a buffer of `bytes`, counting bytes read plus
// bytes written, as the median of `repeats` copies after a warm-up. In bytes per second.
double copy_bandwidth(std::size_t bytes, int repeats);

}  // namespace heat::bench
