// The run's snapshot writer, made from its plan (docs/design.md §4 and 7): what each
// snapshot records about the run, and this rank's share of a distributed snapshot.
#pragma once

#include <functional>
#include <memory>

#include "apps/run_options.hpp"
#include "io/monitor_csv.hpp"
#include "io/snapshots.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/ranks.hpp"

namespace heat {

// Null where the run writes no snapshots (--format none). `slab`: this rank's, whose layout gives
// every rank's part of a distributed snapshot. A run on a GPU (`uses_cuda`) that writes ZFP gets a
// writer that encodes on that GPU, whose cores outpace the host's many times over.
std::unique_ptr<SnapshotWriter> make_run_writer(const RunPlan& plan, const Ranks& ranks, const Slab& slab,
                                                bool uses_cuda);

// The formats whose snapshot of the run's first step would be written over the file the run
// starts from (a restart into its snapshot's own directory). That file already holds the state, is
// listed in the series, and must stay as it was should the run fail: a rewrite would store the
// new settings in it, and the plain restart from it would then be refused. The run's other
// formats (a .vti beside a restart from an .hdf) are written at that step as at every other.
OutputFormats formats_of_the_start_file(const RunPlan& plan);

// The loop's snapshot callback: at the steps of --output-every and the last, writes the field of
// `done` steps at the series' step and time, at the first step in every format but the one whose
// file the run starts from; at the steps of --monitor-every and the last, adds the monitors' row.
// Empty without a writer and monitors.
template <typename T>
std::function<void(const SnapshotSource<T>&, int)> snapshot_writes(SnapshotWriter* writer, MonitorCsv* monitors,
                                                                   const RunPlan& plan) {
  if (!writer && !monitors) return {};
  const OutputFormats start_file = formats_of_the_start_file(plan);
  return [writer, monitors, &plan, start_file](const SnapshotSource<T>& snapshot, int done) {
    const bool last = done == plan.steps;
    const int step = plan.start_step + done;
    if (writer && (last || (plan.output_every > 0 && done % plan.output_every == 0)))
      writer->write(snapshot, step, plan.time_after(done), done == 0 ? start_file : OutputFormats{});
    if (monitors && (last || done % plan.monitor_every == 0))
      monitors->append(monitor_csv_row(step, plan.time_after(done),
                                       measure_monitors(plan.problem, snapshot.host().data(), plan.probes)));
  };
}

// The run's monitors file (--output's monitors.csv), null without monitors. A run that continues
// the directory's series from a snapshot whose run wrote monitors keeps the file's rows before its
// start (InputError where the file's columns are not this run's); any other starts it anew.
std::unique_ptr<MonitorCsv> make_run_monitors(const RunPlan& plan);

}  // namespace heat
