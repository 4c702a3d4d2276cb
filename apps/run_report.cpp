#include "apps/run_report.hpp"

namespace heat {

void record_loop_outcome(RunReport& report, const LoopOutcome& outcome, const Ranks& ranks, const BackendEntry& entry,
                         const Slab& slab, double exchange_s, const SnapshotWriter* writer) {
  const RunPlan& plan = report.plan;
  report.loop = outcome.timings;
  for (double* t : {&report.loop.upload_s, &report.loop.compute_s, &report.loop.download_s, &report.loop.output_wait_s,
                    &report.loop.writer_s})
    *t = ranks.slowest(*t);
  report.exchange_s = ranks.slowest(exchange_s);
  report.stop_signal = outcome.stop_signal;
  report.ranks = ranks.size();
  report.ghost_planes = slab.ghost;
  report.halo_exchange = !entry.uses_cuda ? "mpi" : plan.gpu_halos == GpuHaloRoute::Nccl ? "nccl" : "host";
  if (writer) report.files = writer->files();
  report.final_step = plan.start_step + outcome.steps_done;
  report.final_time = plan.start_time + outcome.steps_done * plan.problem.dt;
}

void publish_report(const RunReport& report, const Ranks& ranks) {
  if (!ranks.is_root()) return;
  if (!report.plan.quiet) print_summary(report);
  if (!report.plan.json.empty()) write_json_summary(report, report.plan.json);
}

}  // namespace heat
