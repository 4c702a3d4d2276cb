// Checks of a resolved run plan that make_run_plan's option checks cannot make alone: numbers
// derived from several options, and the file system. All before any work; InputError (exit 2).
#pragma once

#include <cstddef>
#include <string>

#include "apps/run_options.hpp"
#include "io/input_file.hpp"
#include "io/output_lock.hpp"
#include "parallel/decomposition.hpp"
#include "backends/registry.hpp"

namespace heat {

// dt, the stencil's weights alpha*c_k/h^2, the RK4 factors and the grid's extent must be finite,
// normal numbers in the run's precision: a spacing of 1e200 makes dt infinite, 1e-200 makes it 0.
void require_usable_derived_values(const RunPlan& plan);

// --json and --output must take files (created and removed there now), and neither may be a file
// the run reads (--restart, --init-file, --config) or --json one the run writes. With
// `hold_directory` this process takes the output directory's lock, held by the returned object
// for the run (another run holding it is refused). An output directory that holds another run's
// snapshots is refused unless --overwrite, or --output and --restart are not given (then
// plan.output.replace_series is set: the default directory holds the latest run), or the run
// starts from a heatrk4 snapshot in that directory (`from_a_snapshot`: the file records its run),
// continuing its series; a file without a run's record there starts a new series, so it is
// refused like any other new run. `options` are the run's, a restart's implications filled in.
OutputDirectoryLock require_usable_output_paths(RunPlan& plan, const RunOptions& options, bool from_a_snapshot,
                                                bool hold_directory);

// A ZFP bound the run's precision cannot hold at the initial field's largest values (io/compression.hpp)
// is refused before any work, as the snapshots could not be written (by the maximum principle
// no later field is larger): InputError naming the bound, the values and the smallest bound that
// holds. Each rank checks its box: a file's values (`loaded`, read), a generated field's without
// making it (core/initial_magnitude.hpp).
void require_zfp_bound_holds(const RunPlan& plan, const Slab& slab, const LoadedField& loaded);

// Host memory one rank needs: its box of the field, the snapshot buffers, the cpu backend's
// working arrays when it runs on the host, a file's values (read whole, held in double), and for
// --check on rank 0 (`root`) the whole field gathered and the double reference's.
std::size_t run_host_bytes_needed(const RunPlan& plan, const BackendEntry& entry, const Slab& slab, bool root);

// Throws InputError when `bytes`, what `who` needs of host memory on this rank, is more than this
// rank's share of what the node has available (MemAvailable over `ranks_on_node`); `fix` says how
// to need less. Nothing is refused where the memory available cannot be read.
void require_host_bytes(std::size_t bytes, int ranks_on_node, const std::string& who, const std::string& fix);

}  // namespace heat
