// Checks of a resolved run plan that make_run_plan's option checks cannot make alone: numbers
// derived from several options, and the file system. All before any work; InputError (exit 2).
#pragma once

#include <cstddef>
#include <string>

#include "apps/run_options.hpp"

namespace heat {

// dt, the stencil's weights alpha*c_k/h^2, the RK4 factors and the grid's extent must be finite,
// normal numbers in the run's precision: a spacing of 1e200 makes dt infinite, 1e-200 makes it 0.
void require_usable_derived_values(const RunPlan& plan);

// --json and --output must take files (created and removed there now). An output directory that
// holds another run's snapshots is refused unless `overwrite` (then plan.output.replace_series
// is set) or the run restarts from a snapshot in that directory, continuing its series.
void require_usable_output_paths(RunPlan& plan, bool overwrite);

// Throws InputError when `bytes`, what `who` needs of host memory on this rank, is more than this
// rank's share of what the node has available (MemAvailable over `ranks_on_node`); `fix` says how
// to need less. Nothing is refused where the memory available cannot be read.
void require_host_bytes(std::size_t bytes, int ranks_on_node, const std::string& who, const std::string& fix);

}  // namespace heat
