#include "apps/run_report.hpp"

#include <limits>
#include <vector>

#include "parallel/rank_backend.hpp"

namespace heat {

void record_loop_outcome(RunReport& report, const LoopOutcome& outcome, const Ranks& ranks, const BackendEntry& entry,
                         const Slab& slab, double exchange_s, bool overlapped, SnapshotWriter* writer) {
  const RunPlan& plan = report.plan;
  report.loop = outcome.timings;
  for (double* t : {&report.loop.upload_s, &report.loop.compute_s, &report.loop.download_s, &report.loop.output_wait_s,
                    &report.loop.writer_s})
    *t = ranks.slowest(*t);
  report.exchange_s = ranks.slowest(exchange_s);
  const StaleRemoval stale = writer ? writer->finish_stale_removal() : StaleRemoval{};
  report.stale_removal.files = std::size_t(ranks.slowest(double(stale.files)));
  report.stale_removal.seconds = ranks.slowest(stale.seconds);
  report.stale_removal.wait_s = ranks.slowest(stale.wait_s);
  report.stop_signal = outcome.stop_signal;
  report.snapshots_on_device = outcome.snapshots_on_device;
  report.ranks = ranks.size();
  report.ranks_grid = slab.rank_grid.text();
  report.ghost_planes = slab.ghost;
  // Any rank's (Backend::overlaps_exchange): an end rank of a slab that overlaps has one.
  report.halo_overlap = ranks.largest({overlapped ? 1.0 : 0.0})[0] > 0;
  report.halo_exchange = !entry.uses_cuda ? "mpi" : gpu_halo_route_name(plan.gpu_halos);
  if (writer) report.files = writer->files();
  report.final_step = plan.start_step + outcome.steps_done;
  report.final_time = plan.time_after(outcome.steps_done);
}

void record_input_read(RunReport& report, const Ranks& ranks, long long bytes_read, long long points_read) {
  // Every rank's values in their own slots, the lowest double in the others: the largest of each
  // slot over the ranks is then the value of the rank it belongs to.
  const std::size_t count = std::size_t(ranks.size()), rank = std::size_t(ranks.rank());
  std::vector<double> slots(2 * count, std::numeric_limits<double>::lowest());
  slots[rank] = double(bytes_read);
  slots[count + rank] = double(points_read);
  const std::vector<double> every_rank = ranks.largest(slots);
  report.input_bytes_read.assign(every_rank.begin(), every_rank.begin() + std::ptrdiff_t(count));
  report.input_points_read.assign(every_rank.begin() + std::ptrdiff_t(count), every_rank.end());
}

void publish_report(const RunReport& report, const Ranks& ranks) {
  if (!ranks.is_root()) return;
  if (!report.plan.quiet) print_summary(report);
  if (!report.plan.json.empty()) write_json_summary(report, report.plan.json);
}

}  // namespace heat
