// The largest grid heatrk4 accepts, checked before anything is sized from it. Every byte count a
// run computes is the point count times at most a few hundred bytes (the arrays a backend, the
// reference and a file's values hold), so capping the points at 2^64 / 1024 keeps each of those
// products inside std::size_t: a grid that would wrap is refused instead of allocated short.
#pragma once

#include <cstdint>
#include <string>

#include "core/errors.hpp"

namespace heat {

constexpr std::uint64_t kMaxGridPoints = UINT64_MAX / 1024;

// Throws InputError naming the sizes, their exact product and the limit when nx*ny*nz is more
// than kMaxGridPoints (the sizes are positive; `source` says where they came from).
inline void require_grid_points_fit(std::int64_t nx, std::int64_t ny, std::int64_t nz, const std::string& source) {
  const unsigned __int128 points = (unsigned __int128)nx * (unsigned __int128)ny * (unsigned __int128)nz;
  if (points <= kMaxGridPoints) return;
  // Decimal digits of the 128-bit product, which std::to_string cannot print.
  std::string digits;
  for (unsigned __int128 rest = points; rest > 0; rest /= 10) digits.insert(digits.begin(), char('0' + int(rest % 10)));
  throw InputError(source + ": " + std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) +
                   " = " + digits + " points is more than " + std::to_string(kMaxGridPoints) +
                   ", the largest grid whose byte counts fit in 64 bits");
}

}  // namespace heat
