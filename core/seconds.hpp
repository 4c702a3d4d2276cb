// Wall-clock seconds, the one way the solver, its exchanges and the writers time what they do.
#pragma once

#include <chrono>

namespace heat {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs f and returns its seconds.
template <typename F>
double seconds_of(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return seconds_since(t0);
}

// Runs f, adding its seconds to `total`.
template <typename F>
void timed(double& total, F&& f) {
  total += seconds_of(f);
}

}  // namespace heat
