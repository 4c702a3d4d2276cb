// The options of a run (docs/design.md §3) and their validation. Everything that can be wrong
// with a command line is found here, before any field is allocated.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/snapshots.hpp"
#include "core/backend.hpp"
#include "core/field.hpp"
#include "core/monitors.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/rank_grid.hpp"
#include "core/initial_conditions.hpp"
#include "core/number_text.hpp"
#include "core/heat_source.hpp"
#include "core/problem.hpp"

namespace heat {

struct RunOptions {
  // The long names (without --) of the options that were given, on the command line, in
  // --config or by a caller that fills the options itself (heatrk4.step, a restart's stored dt):
  // the one answer to "was this option given?", as PETSc's options database keeps it.
  std::set<std::string> given;
  bool was_given(const std::string& name) const { return given.count(name) > 0; }

  int n = 64;
  // An axis not given takes --n; a spacing not given takes --h, else 1/(n_axis - 1): a unit cube.
  int nx = 0, ny = 0, nz = 0;
  double h = 0, hx = 0, hy = 0, hz = 0;
  double alpha = 1.0;
  // Given without --alpha: alpha = conductivity / heat_capacity (an unset one is found from the
  // other two, heat_capacity is 1 where only alpha or conductivity is given).
  double conductivity = 1.0, heat_capacity = 1.0;
  // Material fields (apps/material_fields.hpp): K and C from point arrays of VTKHDF files on the
  // run's grid, or regions: an integer label array (F.hdf:ARRAY) and a TOML table of materials.
  std::string conductivity_file, conductivity_array = "conductivity";
  std::string heat_capacity_file, heat_capacity_array = "heat_capacity";
  std::string materials;        // --materials F.toml
  std::string material_labels;  // --material-labels F.hdf:ARRAY
  // K or C given in memory on the run's grid (heatrk4.step's conductivity= and heat_capacity=
  // arrays), in place of a file; null: none. Checked as a file's array is.
  std::shared_ptr<const Field<double>> conductivity_values, heat_capacity_values;
  // The checksum of the fields a restart's snapshot ran with, where it takes their options from there.
  std::string materials_checksum;
  // A face's condition (core/boundary_conditions.hpp) as text; a face not given takes --bc.
  std::string bc = "layer";
  std::string bc_x_low, bc_x_high, bc_y_low, bc_y_high, bc_z_low, bc_z_high;
  std::vector<std::string> source;  // --source, each as core/heat_source.hpp's parse_source_spec reads it
  // The checksum a restart's snapshot recorded for each file source it takes from there, by its text.
  std::map<std::string, std::string> source_checksums;
  int order = 8;
  int steps = 10;
  double cfl = 0.05;
  double dt = 0;  // 0: from cfl
  std::string dt_stored_in;  // the snapshot a restart took dt from, when no option gave it
  bool allow_unstable = false;
  std::string precision = "float";
  std::string backend = "auto";
  std::string backend_stored_in;  // the snapshot a restart took the backend from, when --backend is not given
  int device = 0;
  std::string halo_exchange = "auto";
  std::string halo_overlap = "auto";
  std::string ranks_grid = "slabs";
  std::string init = "gaussian";
  unsigned long long seed = 42;
  std::array<int, 3> modes = {1, 1, 1};
  std::string init_file, init_array = "u";
  std::string output = "heatrk4-out";
  std::string format = "hdf5";
  int output_every = 0;
  std::string compress = "0";  // --compress: parse_compression (io/compression.hpp)
  int snapshot_buffers = 2;
  bool check = false;
  double rtol = -1, atol = -1;  // < 0: the precision's default (a given value is checked as it is parsed)
  std::string json;
  bool quiet = false;
  std::string restart;     // --restart FILE (apps/restart.hpp resolves what it implies)
  bool overwrite = false;  // replace another run's snapshots in --output
  std::string config;      // --config FILE.toml (apps/config_file.hpp)
  std::map<std::string, int> config_lines;  // the line of --config's file that gave each option it gave

  // End time and monitors (docs/design.md §3, "End time and monitors").
  double t_end = 0;        // --t-end T: the absolute time the run ends at, instead of --steps
  std::string probe;       // --probe X,Y,Z (each one more point): every probe's numbers in one comma list
  int monitor_every = 0;   // --monitor-every K: monitors every K steps (0: none unless --probe)
  // A restart going on to its file's t_end with its file's dt: the step the file's run reached t_end
  // at and the dt of that last step, which the restart takes as they are (0: plan them).
  int stored_end_step = 0;
  double stored_last_step_dt = 0;
  // A restart's file records monitors (monitor_every > 0): monitors.csv beside it holds the rows of
  // the run it continues. Where it records none, that file (if any) is not this run's history.
  bool start_had_monitors = false;
};

// A validated run: the problem and every choice resolved (auto backend, defaults, tolerances).
struct RunPlan {
  Problem problem;
  double cfl = 0;
  Precision precision = Precision::Float;
  std::string backend;     // resolved: never "auto"
  std::string backend_note;  // why auto chose it, or the restart's file it came from, for the summary
  // Why a restart did not take the backend its file stores (not in this build, no GPU, ...): the
  // run took auto instead and says so on stderr and in the summary; "" where it took it.
  std::string stored_backend_refused;
  BackendOptions backend_options;
  std::optional<GpuHaloRoute> asked_gpu_halos;   // --halo-exchange; none: auto
  RankGridChoice ranks_grid;  // --ranks-grid; set-up resolves it for the run's rank count
  GpuHaloRoute gpu_halos = GpuHaloRoute::Peer;  // how GPU ranks exchange ghost planes (set-up resolves auto)
  // --source, checked; add_heat_source (apps/heat_sources.hpp) then reads and sums them into
  // problem.source, records each for the snapshots and their power sum(w q) dV (W).
  std::vector<SourceSpec> sources;
  std::vector<SourceRecord> source_records;
  double source_power = 0;
  // The options that gave the problem its material fields and their checksum, for the snapshots.
  MaterialRecord materials;
  InitSpec init;
  std::string init_name;
  std::string init_file, init_array;
  int steps = 0;
  OutputSpec output;
  int output_every = 0;
  int snapshot_buffers = 0;  // host buffers of snapshots in flight (0: written before stepping on)
  bool check = false;
  double rtol = 0, atol = 0;
  std::string json;
  bool quiet = false;
  int start_step = 0;
  double start_time = 0;

  // End time and monitors.
  std::optional<double> t_end;  // --t-end; none: the run takes --steps steps
  double last_step_dt = 0;      // > 0: the last step's dt, which lands on t_end (LoopSchedule::last_step_dt)
  // A restart's file's end step and last dt (RunOptions::stored_end_step), when its dt is the file's.
  int stored_end_step = 0;
  double stored_last_step_dt = 0;
  std::vector<Probe> probes;
  int monitor_every = 0;  // 0: no monitors
  bool monitors_continue = false;  // RunOptions::start_had_monitors

  // The physical time after `done` of the run's steps: t_end exactly after the last of a run to it.
  double time_after(int done) const {
    return t_end && done == steps ? *t_end : start_time + done * problem.dt;
  }
};


// Whether the run's GPU encodes its snapshots (ZFP into HDF5 on a CUDA backend,
// io/zfp/gpu_zfp_encoder.hpp).
inline bool gpu_encodes_snapshots(const RunPlan& plan, bool uses_cuda) {
  return uses_cuda && plan.output.formats.has(OutputFormat::Hdf5) && plan.output.compress.is_zfp();
}

// Whether its snapshots stay on the GPU (docs/design.md §8): HDF5 alone, taken while stepping
// (the backend's device copy), written beside the loop; no host buffer holds them.
inline bool snapshots_stay_on_gpu(const RunPlan& plan, bool uses_cuda) {
  return gpu_encodes_snapshots(plan, uses_cuda) && plan.output.formats == OutputFormats(OutputFormat::Hdf5) &&
         plan.backend_options.snapshots_while_stepping && plan.monitor_every == 0;
}

// Whether anything reads the run's final field on the host (--check, a snapshot written from the
// host): where nothing does, a GPU run leaves it on the device and never touches its host copy.
// (Ranks whose MPI keeps the writer on the loop's thread write from the host all the same: their
// final field then lands in untouched pages, which the memory check has not counted.)
inline bool reads_final_field(const RunPlan& plan, bool uses_cuda) {
  return plan.check || plan.monitor_every > 0 ||
         (!plan.output.formats.empty() && !snapshots_stay_on_gpu(plan, uses_cuda));
}

// --halo-overlap's value: off, or auto and on (unset: the backend's own way to overlap); InputError
// for another.
std::optional<HaloOverlap> parse_halo_overlap(const std::string& value);
// --halo-exchange's value, none for "auto"; InputError for another.
std::optional<GpuHaloRoute> parse_gpu_halo_route(const std::string& name);

// Resolves and validates; throws InputError naming the value, the limit and the fix.
// `file_grid` carries the grid read from --init-file (nullptr otherwise).
RunPlan make_run_plan(const RunOptions& options, const Grid* file_grid = nullptr);

// Throws InputError unless every axis has at least 2r + 1 points for the order; the message calls
// the axes `axis_names` (the options that gave their points, where they did).
void require_grid_fits_order(const Grid& g, int order,
                             const std::array<std::string, 3>& axis_names = {"nx =", "ny =", "nz ="});
// Throws InputError for an order outside {2,4,6,8}.
void require_supported_order(int order);
// Throws InputError for a --cfl that is not a positive number.
void require_positive_cfl(double cfl);
// Throws InputError for a cfl beyond RK4's stability limit at `order`, unless `allow_unstable`;
// `given` names what the user gave ("--cfl 0.6", "--dt 0.01 (cfl 0.6)").
void require_stable_cfl(double cfl, int order, bool allow_unstable, const std::string& given);
// InputError where a face's condition (a convective or radiation face's ghosts) lowers the stable
// cfl of `p` below `cfl` (`given` names the step), naming the face, its Biot number and the largest
// stable cfl and dt, unless `allow_unstable`. `hottest`: the largest temperature the run starts
// from, which bounds a radiation face's (core/boundary_stability.hpp); a file's is known once read.
void require_stable_at_faces(const Problem& p, double cfl, bool allow_unstable, const std::string& given,
                             double hottest);
// The largest value of a built-in initial field: uniform's T, gaussian's and sine's peak 1,
// randn's 10 (a standard normal passes it with probability 1e-23 a point); 0 for a file.
double built_in_hottest(const InitSpec& init);
// Throws InputError for a --device below 0 (every command that takes one).
void require_device_ordinal(int device);
// Throws InputError when a run from step `start_step` (a snapshot's) cannot count `steps` more in an int.
void require_final_step_fits(int start_step, int steps);

// CLI11 checks shared by run and compare: a tolerance that is a finite number, 0 or more (0 and 0
// ask compare for bitwise equality), and an unsigned 64-bit integer in decimal digits (--seed).
CLI::Validator tolerance_check();
// What tolerance_check says of a number: "" for a finite one, 0 or more.
std::string tolerance_problem(double value);
CLI::Validator uint64_check();

}  // namespace heat
