// The blow-up check of every CUDA backend: one reduction over a device field.
#pragma once

#include <cstddef>
#include <functional>

namespace heat {

// The smallest index n < count with values[n] NaN or Inf, or -1; blocks until known.
// One read of the field: about a tenth of what a step moves, for the leanest backend a half.
template <typename T>
long long first_nonfinite_on_device(const T* values, std::size_t count);

// The same, found on a stream of its own while `meanwhile` runs (the final download: the copy
// engine copies while the SMs read), once the default stream's work so far is done. `meanwhile`
// must not write `values`.
template <typename T>
long long first_nonfinite_on_device_beside(const T* values, std::size_t count, const std::function<void()>& meanwhile);

}  // namespace heat
