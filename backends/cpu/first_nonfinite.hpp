// The blow-up check of the cpu backend (a whole problem or a rank's box): one parallel read.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

namespace heat {

// The smallest index n < count with values[n] NaN or Inf, or -1.
template <typename T>
long long first_nonfinite_on_host(const T* values, std::size_t count) {
  const long long n_values = static_cast<long long>(count);
  long long first = std::numeric_limits<long long>::max();
#pragma omp parallel for reduction(min : first) schedule(static)
  for (long long n = 0; n < n_values; ++n)
    if (!std::isfinite(values[n]) && n < first) first = n;
  return first == std::numeric_limits<long long>::max() ? -1 : first;
}

}  // namespace heat
