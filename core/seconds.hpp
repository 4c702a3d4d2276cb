// Wall-clock seconds: the one clock the loop, the pipeline, the exchanges, the writers, the
// set-up phases and the progress line time what they do with.
#pragma once

#include <chrono>

namespace heat {

using WallClock = std::chrono::steady_clock;

inline double seconds_between(WallClock::time_point t0, WallClock::time_point t1) {
  return std::chrono::duration<double>(t1 - t0).count();
}

inline double seconds_since(WallClock::time_point t0) { return seconds_between(t0, WallClock::now()); }

// Runs f and returns its seconds.
template <typename F>
double seconds_of(F&& f) {
  const auto t0 = WallClock::now();
  f();
  return seconds_since(t0);
}

// Runs f, adding its seconds to `total`.
template <typename F>
void timed(double& total, F&& f) {
  total += seconds_of(f);
}

}  // namespace heat
