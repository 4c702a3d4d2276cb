// What a run reports: the text summary on stdout and the same as JSON for --json.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "apps/run_options.hpp"
#include "io/snapshots.hpp"
#include "core/time_loop.hpp"
#include "check/norms.hpp"

namespace heat {

struct RunReport {
  RunPlan plan;
  std::string device;      // "host (N threads)" or the GPU's name, memory and capability
  double bytes_per_point = 0;  // the backend's byte model, per interior point per step
  double setup_s = 0, check_s = 0;
  // Where set-up went, phase by phase in order (the first: from the process's start to the run's,
  // to /proc's 10 ms resolution), for the JSON summary's timing.setup_phases.
  std::vector<std::pair<std::string, double>> setup_phases;
  LoopTimings loop;  // each time the slowest rank's
  // Where the backend keeps the field: on the host, the loop's "upload" makes the initial field
  // in the backend's arrays and its "download" copies the final one out; nothing crosses a bus.
  bool backend_on_host = false;
  int ranks = 1;
  std::string ranks_grid = "1x1x1";  // PxQxR (--ranks-grid): ranks along x, y and z
  double exchange_s = 0;  // the slowest rank's time in halo exchanges, waiting included
  std::string halo_exchange;  // how ranks exchange ghost planes: "mpi" (cpu ranks), "nccl", "peer" or "host" (GPU ranks)
  int ghost_planes = 0;       // on each side of a slab with a neighbour
  bool halo_overlap = false;  // the interior stepped while the ghost planes travel (--halo-overlap)
  bool snapshots_on_device = false;  // kept on the GPU for its ZFP encoder (docs/design.md §8)
  // With --init-file: the bytes each rank read of the file (its planes and the file's metadata),
  // in rank order; -1 where the system does not say.
  std::vector<double> input_bytes_read;
  // The values each rank took from the file's storage (LoadedField::points_read), in rank order.
  std::vector<double> input_points_read;
  bool checked = false;
  FieldDifference check;
  std::string check_backend;  // what the check ran in double: cpu, or cpu_reference for a cpu run
  std::vector<std::string> files;
  std::string monitors_file;  // the monitors' CSV, "" without monitors
  StaleRemoval stale_removal;  // the files of the run this one replaced, removed beside it
  std::vector<std::string> overrides;  // options that replaced a setting stored in the input file
  // Where the input file's values were stored lossily (ZFP within a bound), what that means for
  // the run that goes on from them; empty otherwise.
  std::string lossy_start;
  int final_step = 0;
  double final_time = 0;
  int stop_signal = 0;  // the signal that stopped the run at final_step, before its last step; 0: none

  double ms_per_step() const { return 1e3 * loop.compute_s / (final_step - plan.start_step); }
  double points_per_second() const;
  double effective_gb_per_s() const;
};

void print_summary(const RunReport& report);
// The JSON summary's text (--json's file, heatrk4.run's dict).
std::string json_summary(const RunReport& report);
// Throws RunError when the file cannot be written.
void write_json_summary(const RunReport& report, const std::string& path);

}  // namespace heat
