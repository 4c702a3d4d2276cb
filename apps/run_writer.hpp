// The run's snapshot writer, made from its plan (docs/design.md §4 and 7): what each
// snapshot records about the run, and this rank's share of a distributed snapshot.
#pragma once

#include <functional>
#include <memory>

#include "apps/run_options.hpp"
#include "io/snapshots.hpp"
#include "solver/distributed/decomposition.hpp"
#include "solver/distributed/ranks.hpp"

namespace heat {

// Null where the run writes no snapshots (--format none).
std::unique_ptr<SnapshotWriter> make_run_writer(const RunPlan& plan, const Ranks& ranks, const Slab& slab,
                                                GhostScheme scheme);

// The loop's snapshot callback: writes the field of `done` steps at the series' step and time.
// Empty without a writer.
template <typename T>
std::function<void(const Field<T>&, int)> snapshot_writes(SnapshotWriter* writer, const RunPlan& plan) {
  if (!writer) return {};
  return [writer, &plan](const Field<T>& field, int done) {
    writer->write(field, plan.start_step + done, plan.start_time + done * plan.problem.dt);
  };
}

}  // namespace heat
