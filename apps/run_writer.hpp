// The run's snapshot writer, made from its plan (docs/design.md §4 and 7): what each
// snapshot records about the run, and this rank's share of a distributed snapshot.
#pragma once

#include <functional>
#include <memory>
#include <optional>

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

// On a rank grid that splits x or y (`slab`'s), the formats of the run whose pieces are runs of
// whole planes all the same, regrouped from the boxes (snapshot_planes_of_ranks): .vti pieces,
// which share a plane with the next, and lossy ZFP, whose 4-point blocks then fall as one process's;
// every other format is written box by box. None on z slabs.
OutputFormats formats_written_as_planes(const RunPlan& plan, const Slab& slab);

// InputError where the run regroups its boxes into runs of whole planes, one a rank (a rank grid
// that splits x or y, with a format written as planes or with monitors), and nz is less than the
// rank count (snapshot_planes_of_ranks).
void require_planes_for_every_rank(const RunPlan& plan, const Slab& slab);

// Collective over the snapshot writers (docs/design.md §7, "Monitors on ranks"): the monitors of
// the field whose box `box` (`slab`'s) is, on rank 0: each rank measures its part's planes
// (measure_plane_shares; on a rank grid that splits x or y, a run of whole planes with r planes
// beside it each way regrouped from the boxes), rank 0 gathers them and adds them in plane order,
// as one process adds its own, so the numbers are the same to the bit on any rank grid. Nothing on
// the other ranks.
template <typename T>
std::optional<MonitorValues> measure_on_ranks(const RunPlan& plan, const Ranks& ranks, const Slab& slab,
                                              const Field<T>& box);

// The loop's snapshot callback: at the steps of --output-every and the last, writes the field of
// `done` steps at the series' step and time, at the first step in every format but the one whose
// file the run starts from (on a rank grid that splits x or y, each rank's box, and for the formats
// written as planes the run of whole planes the boxes are regrouped into, snapshot_planes_of_ranks);
// at the steps of --monitor-every and the last, measures the monitors on every rank and rank 0 adds
// their row to `monitors` (its alone; null on the others). Empty without a writer and monitors.
template <typename T>
std::function<void(const SnapshotSource<T>&, int)> snapshot_writes(SnapshotWriter* writer, MonitorCsv* monitors,
                                                                   const RunPlan& plan, const Ranks& ranks,
                                                                   const Slab& slab) {
  if (!writer && plan.monitor_every == 0) return {};
  const OutputFormats start_file = formats_of_the_start_file(plan);
  const OutputFormats as_planes = formats_written_as_planes(plan, slab);
  const std::vector<std::pair<int, int>> planes =
      writer && !as_planes.empty() ? snapshot_planes_of_ranks(slab, plan.problem.grid) : std::vector<std::pair<int, int>>{};
  return [writer, monitors, &plan, &ranks, &slab, start_file, planes](const SnapshotSource<T>& snapshot, int done) {
    const bool last = done == plan.steps;
    const int step = plan.start_step + done;
    const OutputFormats skip = done == 0 ? start_file : OutputFormats{};
    if (writer && (last || (plan.output_every > 0 && done % plan.output_every == 0))) {
      if (planes.empty()) {
        writer->write(snapshot, step, plan.time_after(done), skip);
      } else {
        const Field<T> mine = ranks.planes_between_snapshot_writers(snapshot.host(), slab, plan.problem.grid, planes);
        const SnapshotSource<T> mine_source(mine);
        writer->write(snapshot, step, plan.time_after(done), skip, &mine_source);
      }
    }
    if (plan.monitor_every > 0 && (last || done % plan.monitor_every == 0)) {
      const std::optional<MonitorValues> values = measure_on_ranks(plan, ranks, slab, snapshot.host());
      if (monitors) monitors->append(monitor_csv_row(step, plan.time_after(done), *values));
    }
  };
}

// The run's monitors file (--output's monitors.csv), made by rank 0 alone (`root`); null elsewhere
// and without monitors. A run that continues the directory's series from a snapshot whose run wrote
// monitors keeps the file's rows before its start (InputError where the file's columns are not this
// run's); any other starts it anew.
std::unique_ptr<MonitorCsv> make_run_monitors(const RunPlan& plan, bool root);

}  // namespace heat
