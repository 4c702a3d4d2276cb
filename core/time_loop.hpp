// The one driver every caller of the backends goes through (docs/design.md §9): the run, verify,
// the reference comparisons and the Python module. advance() uploads once, steps in chunks (so a
// progress line, snapshots, blow-up checks and a request to stop can happen between them), hands
// each snapshot to the pipeline (snapshot_pipeline.hpp) and steps on; advance_in_place() steps a
// field the backend adopts where it lives in the same chunks with the same checks.
#pragma once

#include <algorithm>
#include <chrono>
#include <climits>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/seconds.hpp"
#include "core/snapshot_pipeline.hpp"

namespace heat {

struct LoopTimings {
  double upload_s = 0, compute_s = 0, download_s = 0;
  // The loop's waits for the writer (every buffer busy, the last writes) and the writer's own
  // time (copies landing, files written and flushed), which overlaps the computation.
  double output_wait_s = 0, writer_s = 0;
};

// The end of a chunk of steps as the run sees it: the seconds it took (which size the next chunk)
// and the signal that asks the run to stop (0: none).
struct ChunkEnd {
  double seconds = 0;
  int stop_signal = 0;
};

struct LoopOutcome {
  LoopTimings timings;
  bool snapshots_on_device = false;  // the snapshots were taken on the device (LoopSchedule::snapshots_on_device)
  int steps_done = 0;   // the steps asked for, or fewer where a stop request ended the run early
  int stop_signal = 0;  // the signal that ended the run early, 0 where it ran every step
};

// Where a run stands and when it takes snapshots: plain numbers.
struct LoopSchedule {
  // 0: only the final state; K > 0: the initial state, every K steps and the final state.
  int output_every = 0;
  // Snapshots in flight at most (each in a host buffer of the field's size) while the loop steps
  // on; 0: each snapshot is written by the loop itself before it steps on.
  int snapshot_buffers = 2;
  // The step number of the initial field (a restart's), so messages name the series' steps.
  int first_step = 0;
  // The global z of u's first plane (a rank's box), so messages name the whole grid's points.
  int first_plane = 0;
  // False where the caller does not read the final field in u (no check): unless the final
  // snapshot is written from u, it stays on the backend, u is left as it was, and the last blow-up
  // check reads the field where it lives. A GPU run then copies nothing back, and its host field
  // is never touched.
  bool final_field_read = true;
  // Snapshots are taken into the backend's device copy and written from there (the GPU's ZFP
  // encoder reads them; SnapshotPipeline's on_device), where the backend keeps one and buffers > 0.
  bool snapshots_on_device = false;
  // K > 0: the field also goes to the snapshot callback every K steps (from the initial state),
  // for the run's monitors; the callback tells the steps apart. 0: only output_every's.
  int monitor_every = 0;
  // > 0: the last step takes this dt instead of the problem's (a run to an end time; the backend
  // keeps it after the loop, Backend::set_step_dt). 0: every step alike.
  double last_step_dt = 0;

  // Whether the field after `done` steps goes to the snapshot callback (besides the final one).
  bool snapshot_due(int done) const {
    return (output_every > 0 && done % output_every == 0) || (monitor_every > 0 && done % monitor_every == 0);
  }
  // The steps from `done` to the next step snapshot_due holds for; INT_MAX where there is none.
  int steps_to_next_snapshot(int done) const {
    int next = INT_MAX;
    for (int every : {output_every, monitor_every})
      if (every > 0) next = std::min(next, every - done % every);
    return next;
  }
  // The steps in [0, steps) that snapshot_due holds for: those of either period, less those of both.
  int snapshots_before(int steps) const {
    const auto multiples = [steps](long long every) { return every > 0 ? int((steps + every - 1) / every) : 0; };
    const long long both = output_every > 0 && monitor_every > 0
                               ? (long long)output_every / std::gcd(output_every, monitor_every) * monitor_every
                               : 0;
    return multiples(output_every) + multiples(monitor_every) - multiples(both);
  }
};

// What the run does at the loop's moments; each may be empty.
template <typename T>
struct LoopCallbacks {
  // Puts the initial field on the backend instead of upload(u), whose values are then not read
  // (a field the backend makes itself: upload_generated). Empty: upload(u).
  std::function<void(Backend<T>&)> upload;
  // Called between chunks of steps with the steps done so far, the compute seconds spent and the
  // snapshots taken but not yet written.
  std::function<void(int done, int total, double compute_s, int pending_writes)> progress;
  // Writes a snapshot: the field and the number of steps this run has taken. Called in step
  // order and from one thread only (the writer's, or the loop's with no buffers). Empty: no output.
  std::function<void(const SnapshotSource<T>&, int steps_done)> snapshot;
  // Gives back what the run holds on the backend's device, once the final field is on the host
  // and every earlier snapshot written: called before the final snapshot's write ends (beside the
  // loop: while the writer writes it; with no buffers: before the loop writes it), so that the
  // process's exit need not wait for it. The loop touches the backend no more after it. Empty:
  // the backend is kept.
  std::function<void()> release_backend;
  // On several ranks, a collective: whether `here` (this rank may call release_backend) holds on
  // every rank, so that no rank lets go of device memory that a neighbour's exchange may still
  // read. Asked once, after the final field is on the host. Empty: this rank's `here`.
  std::function<bool(bool here)> release_agreed;
  // Called at the end of every chunk with the chunk's seconds; returns them with the signal that
  // asks the run to stop, if any. On several ranks a collective that returns the largest of each
  // over every rank, so that every rank sizes its next chunk alike (a rank does not wait in a
  // collective for a neighbour still stepping) and every rank stops after the same step. Empty:
  // the chunk's own seconds, no stop.
  std::function<ChunkEnd(ChunkEnd)> end_chunk;
};

// Steps between blow-up checks. A check reads the field once where it lives; a step moves it 2
// (tiled, all passes fused) to 28 (cpu) times and takes several times its memory floor, so on grids
// that fill a GPU a check every 16 steps costs about 1% (3% were a fused step at its floor). Chunks
// end more often than they are checked (their first ones are a step or two, for a live progress
// line), so a check runs only every 16 steps (a chunk ends there), before a snapshot, and at the
// loop's end as the final field is downloaded (Backend::download_finding_nonfinite; on a GPU the
// search runs beside the copy): a 10-step run spends no compute time on checks. A field that blew
// up stays non-finite, so a run stops at most 16 steps after it blows up instead of running to its
// end.
constexpr int kStepsBetweenFiniteChecks = 16;

// A field that holds NaN or Inf has blown up; running on would only waste time. `at`: the flat
// index of its first non-finite value (Backend::first_nonfinite), -1 for none; `nx`, `ny`: the
// plane of the backend's field; `last_finite`: the steps done at the previous check, which found
// the field finite; `first_step`: the step number of the run's initial field; `first_plane`: the
// global z of the field's first plane.
inline void require_finite(long long at, long long nx, long long ny, int first_step, int first_plane, int last_finite,
                           int steps_done) {
  if (at < 0) return;
  const auto step_text = [&](int done) {
    return std::to_string((long long)first_step + done) +
           (first_step ? " (step " + std::to_string(done) + " of this run)" : "");
  };
  throw RunError("the field blew up: a non-finite value at (i, j, k) = (" + std::to_string(at % nx) + ", " +
                 std::to_string(at / nx % ny) + ", " + std::to_string(first_plane + at / (nx * ny)) + ") after step " +
                 step_text(steps_done) + ", finite after step " + step_text(last_finite) +
                 ": is --cfl or --dt beyond stability?");
}

// `count` steps, the last of them of `last_dt` where that is > 0 (LoopSchedule::last_step_dt).
template <typename T>
void step_ending_with(Backend<T>& backend, int count, double last_dt) {
  if (!(last_dt > 0)) return backend.step(count);
  if (count > 1) backend.step(count - 1);
  backend.set_step_dt(last_dt);
  backend.step(1);
}

// Where a run's steps stand after a chunk, for its end and for the moments between chunks.
struct ChunkedSteps {
  int done = 0;
  int last_finite = 0;   // the steps done at the last check, which found the field finite
  int stop_signal = 0;   // the signal that ended the steps early, 0 where they all ran
  double compute_s = 0;  // the steps' seconds and the checks'
};

// The chunks of steps and the blow-up checks between them, which every caller of the backends
// shares (advance, advance_in_place): chunks grow until one takes about a quarter second (so
// progress stays live without the loop costing anything measurable) or reaches
// kStepsBetweenFiniteChecks, and end at every snapshot step. `nx`, `ny`: the plane of the
// backend's field. After every chunk `after_chunk(steps, snapshot_due)` runs, where
// `snapshot_due` says the field of this step is due as a snapshot (never at the last step, nor at
// a stop). The last chunk's field is not checked: the caller checks it as it takes the field.
template <typename T>
ChunkedSteps step_in_chunks(Backend<T>& backend, int steps, const LoopSchedule& schedule, long long nx, long long ny,
                            const std::function<ChunkEnd(ChunkEnd)>& end_chunk,
                            const std::function<void(const ChunkedSteps&, bool snapshot_due)>& after_chunk) {
  ChunkedSteps s;
  int chunk = 1;
  while (s.done < steps) {
    const int chunk_steps = std::min({chunk, steps - s.done, s.last_finite + kStepsBetweenFiniteChecks - s.done,
                                      schedule.steps_to_next_snapshot(s.done)});
    const auto t0 = WallClock::now();
    step_ending_with(backend, chunk_steps, s.done + chunk_steps == steps ? schedule.last_step_dt : 0);
    const double dt = seconds_since(t0);
    s.done += chunk_steps;
    const ChunkEnd end = end_chunk ? end_chunk({dt, 0}) : ChunkEnd{dt, 0};
    const bool last_chunk = s.done == steps || end.stop_signal;
    const bool snapshot_due = schedule.snapshot_due(s.done) && s.done < steps;
    // Before a snapshot of this field is taken (the writer may still be writing earlier ones).
    if (!last_chunk && (snapshot_due || s.done == s.last_finite + kStepsBetweenFiniteChecks)) {
      const auto t1 = WallClock::now();
      require_finite(backend.first_nonfinite(), nx, ny, schedule.first_step, schedule.first_plane, s.last_finite,
                     s.done);
      s.compute_s += seconds_since(t1);
      s.last_finite = s.done;
    }
    s.compute_s += dt;
    // Capped at the run's length: a chunk limited by --output-every never takes long, so an
    // uncapped doubling would overflow after 31 snapshots.
    if (end.seconds < 0.25) chunk = chunk <= steps / 2 ? 2 * chunk : steps;
    const bool stopping = end.stop_signal && s.done < steps;
    if (after_chunk) after_chunk(s, snapshot_due && !stopping);
    if (stopping) {
      s.stop_signal = end.stop_signal;
      break;
    }
  }
  return s;
}

// Runs `steps` steps starting from u (or from what callbacks.upload puts on the backend); on
// return u holds the final field and every snapshot is written. A stop request
// (callbacks.end_chunk) ends the run after the chunk in progress: the snapshots taken so far are
// written, none is added at the stop, and u holds the field of the step it stopped at. Every
// snapshot goes through the pipeline; with no buffers it writes them on this thread.
template <typename T>
LoopOutcome advance(Backend<T>& backend, Field<T>& u, int steps, const LoopSchedule& schedule = {},
                    const LoopCallbacks<T>& callbacks = {}) {
  LoopOutcome outcome;
  LoopTimings& t = outcome.timings;
  const bool output = bool(callbacks.snapshot);
  // The snapshots before the final one, which the writer writes from u itself.
  const int taken_while_stepping = schedule.snapshots_before(steps);
  SnapshotPipeline<T> pipeline(backend, u, output ? schedule.snapshot_buffers : 0, taken_while_stepping,
                               callbacks.snapshot, schedule.snapshots_on_device);
  // Mid-run snapshots: into a free buffer, the loop's own waits for one (or, with no buffers, for
  // the write) not counted as download. Every snapshot step ends a chunk whose field the loop
  // found finite, so a field that has blown up is never written.
  auto take_snapshot = [&](int done) {
    const double waited = pipeline.wait_seconds();
    timed(t.download_s, [&] { pipeline.submit(done); });
    t.download_s -= pipeline.wait_seconds() - waited;
  };

  // A run that fails (a step, a blow-up, the release) still writes the snapshots it has taken
  // before the failure is reported (after a failed write the writer writes nothing more).
  try {
    timed(t.upload_s, [&] {
      if (callbacks.upload)
        callbacks.upload(backend);
      else
        backend.upload(u);
    });
    if (output && schedule.snapshot_due(0)) take_snapshot(0);

    auto between_chunks = [&](const ChunkedSteps& now, bool snapshot_due) {
      t.compute_s = now.compute_s;
      pipeline.check();  // a failed write ends the run now, not at the end
      if (callbacks.progress) callbacks.progress(now.done, steps, now.compute_s, pipeline.pending());
      if (output && snapshot_due) take_snapshot(now.done);
    };
    const ChunkedSteps s =
        step_in_chunks(backend, steps, schedule, u.nx(), u.ny(), callbacks.end_chunk, between_chunks);
    outcome.steps_done = s.done;
    outcome.stop_signal = s.stop_signal;

    // The final state goes to u itself (the caller's result), from which the writer writes it
    // unless it takes its snapshots on the device; a run that was stopped adds no snapshot.
    const bool final_snapshot_from_u = output && !pipeline.on_device();
    long long nonfinite_at = -1;
    if (schedule.final_field_read || final_snapshot_from_u)
      timed(t.download_s, [&] { nonfinite_at = backend.download_finding_nonfinite(u); });
    else
      timed(t.compute_s, [&] { nonfinite_at = backend.first_nonfinite(); });
    require_finite(nonfinite_at, u.nx(), u.ny(), schedule.first_step, schedule.first_plane, s.last_finite, s.done);
    bool backend_done = callbacks.release_backend && pipeline.release_buffers_if_idle();
    if (callbacks.release_backend && callbacks.release_agreed) backend_done = callbacks.release_agreed(backend_done);
    if (output && !outcome.stop_signal) {
      if (final_snapshot_from_u)
        pipeline.submit_held(u, s.done);
      else
        take_snapshot(s.done);
    }
    if (backend_done) callbacks.release_backend();
    pipeline.drain();
  } catch (...) {
    pipeline.finish_quietly();
    throw;
  }
  t.output_wait_s = pipeline.wait_seconds();
  t.writer_s = pipeline.writer_seconds();
  outcome.snapshots_on_device = pipeline.on_device();
  return outcome;
}

// advance() for a field the backend adopts where it lives (ForeignDeviceMemory::adopt_device_field:
// the caller's device memory, `grid`'s points), stepped in place: the same chunks, blow-up checks,
// progress and stops, with no upload, download or snapshot (the callbacks' upload, snapshot and
// release_backend are refused). On return, and after a blow-up or a stop, the field holds the
// state of the last step taken: a blow-up's NaN or Inf stays where the caller can look at it.
// InputError, before anything is stepped, for a backend without ForeignDeviceMemory.
template <typename T>
LoopOutcome advance_in_place(Backend<T>& backend, T* field, const Grid& grid, int steps,
                             const LoopSchedule& schedule = {}, const LoopCallbacks<T>& callbacks = {}) {
  if (callbacks.upload || callbacks.snapshot || callbacks.release_backend)
    throw std::logic_error("a field stepped in place is neither uploaded, written nor released by the loop");
  ForeignDeviceMemory<T>* const foreign = capability<ForeignDeviceMemory<T>>(backend);
  if (!foreign) throw InputError("this backend does not step device memory it is given (the CUDA backends do)");
  LoopOutcome outcome;
  LoopTimings& t = outcome.timings;
  timed(t.upload_s, [&] { foreign->adopt_device_field(field); });
  ChunkedSteps s;
  try {
    s = step_in_chunks(backend, steps, schedule, grid.nx, grid.ny, callbacks.end_chunk,
                       [&](const ChunkedSteps& now, bool) {
                         if (callbacks.progress) callbacks.progress(now.done, steps, now.compute_s, 0);
                       });
  } catch (...) {
    // A failed step's error is the one to report; a release that fails after it adds nothing.
    try {
      foreign->release_device_field();
    } catch (...) {
    }
    throw;
  }
  outcome.steps_done = s.done;
  outcome.stop_signal = s.stop_signal;
  t.compute_s = s.compute_s;
  long long nonfinite_at = -1;
  timed(t.download_s, [&] {
    foreign->release_device_field();
    nonfinite_at = backend.first_nonfinite();
  });
  require_finite(nonfinite_at, grid.nx, grid.ny, schedule.first_step, schedule.first_plane, s.last_finite, s.done);
  return outcome;
}

}  // namespace heat
