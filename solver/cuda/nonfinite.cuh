// The blow-up check of every CUDA backend: one reduction over a device field.
#pragma once

#include <cstddef>

namespace heat {

// The smallest index n < count with values[n] NaN or Inf, or -1; blocks until known.
// One read of the field: about a tenth of what a step moves, for the leanest backend a half.
template <typename T>
long long first_nonfinite_on_device(const T* values, std::size_t count);

}  // namespace heat
