// A run's steady heat sources (--source, docs/design.md §1 "Sources"): checked with the rest of
// the options, then read and summed into the problem's HeatSource once the memory check has passed.
#pragma once

#include <string>
#include <vector>

#include "apps/run_options.hpp"
#include "core/heat_source.hpp"

namespace heat {

// Each --source of `o`, parsed and checked against `p` (its grid, order and faces): InputError
// naming the value for a bad one, a Gaussian centred outside the body, or a file source whose file
// or array is missing or whose grid (points or spacing) is not the run's. No array is read here.
std::vector<SourceSpec> resolve_sources(const RunOptions& o, const Problem& p);

// Reads the file sources, sums every source's q and hands the problem its HeatSource (rate and
// step increment, backends/cpu/source_step.hpp); records each source for the snapshots and the
// power sum(w q) dV for the summary. Nothing without sources. InputError for a file array with a
// non-finite value, or one whose checksum differs from the one the snapshot a restart took the
// source from recorded (`o.source_checksums`).
void add_heat_source(RunPlan& plan, const RunOptions& o);

// A checksum of a source's values as read, widened to double: FNV-1a over their bytes.
std::string source_checksum(const Field<double>& q);

}  // namespace heat
