// The run's report after its loop (docs/design.md §9, step 6): filled from the plan, the
// loop's outcome and the ranks, then published on rank 0.
#pragma once

#include "apps/run_summary.hpp"
#include "io/snapshots.hpp"
#include "parallel/ranks.hpp"
#include "backends/registry.hpp"

namespace heat {

// Records where the loop ended and how long it took, each time the slowest rank's (a collective),
// and the files `writer` (null: none) has written, once it has removed the files of the run it
// replaced (waited for here: the run ends with them gone).
void record_loop_outcome(RunReport& report, const LoopOutcome& outcome, const Ranks& ranks, const BackendEntry& entry,
                         const Slab& slab, double exchange_s, bool overlapped, SnapshotWriter* writer);

// Collective. Records the bytes and the values each rank read of the --init-file (`bytes_read`,
// `points_read`: this rank's, LoadedField's).
void record_input_read(RunReport& report, const Ranks& ranks, long long bytes_read, long long points_read);

// The summary on stdout (unless --quiet) and the JSON (with --json), from rank 0.
void publish_report(const RunReport& report, const Ranks& ranks);

}  // namespace heat
