// The one time-loop driver every backend goes through: upload once, step in chunks (so a
// progress line and snapshots can happen between them), download once per snapshot.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>

#include "solver/backend.hpp"
#include "solver/errors.hpp"

namespace heat {

struct LoopTimings {
  double upload_s = 0, compute_s = 0, download_s = 0, output_s = 0;
};

template <typename T>
struct LoopHooks {
  // Called between chunks of steps with the steps done so far and the compute seconds spent.
  std::function<void(int done, int total, double compute_s)> progress;
  // 0: only the final state; K > 0: the initial state, every K steps and the final state.
  int output_every = 0;
  // Receives the downloaded field and the number of steps this run has taken. Empty: no output.
  std::function<void(const Field<T>&, int steps_done)> snapshot;
};

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A field that holds NaN or Inf has blown up; running on would only waste time.
template <typename T>
void require_finite(const Field<T>& u, int steps_done) {
  for (std::size_t n = 0; n < u.size(); ++n)
    if (!std::isfinite(u.data()[n]))
      throw RunError("the field holds a non-finite value after " + std::to_string(steps_done) +
                     " steps (flat index " + std::to_string(n) + ")");
}

// Runs `steps` steps starting from u; on return u holds the final field.
template <typename T>
LoopTimings run_time_loop(Backend<T>& backend, Field<T>& u, int steps, const LoopHooks<T>& hooks) {
  using clock = std::chrono::steady_clock;
  LoopTimings t;
  auto timed = [](double& acc, auto&& f) {
    const auto t0 = clock::now();
    f();
    acc += seconds_since(t0);
  };
  auto emit = [&](int done) {
    timed(t.download_s, [&] { backend.download(u); });
    require_finite(u, done);
    timed(t.output_s, [&] { hooks.snapshot(u, done); });
  };

  timed(t.upload_s, [&] { backend.upload(u); });
  if (hooks.snapshot && hooks.output_every > 0) emit(0);

  // Chunks grow until one takes about a quarter second, so progress stays live without
  // the loop costing anything measurable.
  int chunk = 1, done = 0;
  while (done < steps) {
    int chunk_steps = std::min(chunk, steps - done);
    if (hooks.output_every > 0) chunk_steps = std::min(chunk_steps, hooks.output_every - done % hooks.output_every);
    const auto t0 = clock::now();
    backend.step(chunk_steps);
    const double dt = seconds_since(t0);
    t.compute_s += dt;
    done += chunk_steps;
    // Capped at the run's length: a chunk limited by --output-every never takes long, so an
    // uncapped doubling would overflow after 31 snapshots.
    if (dt < 0.25) chunk = chunk <= steps / 2 ? 2 * chunk : steps;
    if (hooks.progress) hooks.progress(done, steps, t.compute_s);
    const bool snapshot_due = hooks.output_every > 0 && done % hooks.output_every == 0 && done < steps;
    if (hooks.snapshot && snapshot_due) emit(done);
  }
  if (hooks.snapshot) {
    emit(steps);
  } else {
    timed(t.download_s, [&] { backend.download(u); });
    require_finite(u, steps);
  }
  return t;
}

}  // namespace heat
