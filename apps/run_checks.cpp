#include "apps/run_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/initial_magnitude.hpp"
#include "parallel/slab_field.hpp"
#include "io/compression.hpp"
#include "io/output_paths.hpp"
#include "io/monitor_csv.hpp"
#include "io/stale_files.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "backends/registry.hpp"
#include "stencils/stencil.hpp"

namespace heat {

namespace {

// `value` held in T must be finite and no smaller in magnitude than T's smallest normal number
// (below it, precision is lost and products flush to zero).
template <typename T>
void require_normal_in(double value, const std::string& what, const std::string& fix) {
  const double magnitude = std::fabs(value);
  if (std::isfinite(magnitude) && magnitude <= double(std::numeric_limits<T>::max()) &&
      magnitude >= double(std::numeric_limits<T>::min()))
    return;
  const char* type = sizeof(T) == sizeof(float) ? "float" : "double";
  throw InputError(what + " = " + number_text(value) + " is outside " + type + "'s normal range [" +
                   number_text(std::numeric_limits<T>::min()) + ", " + number_text(std::numeric_limits<T>::max()) +
                   "]: " + fix);
}

template <typename T>
void require_usable_values_in(const RunPlan& plan) {
  const Problem& p = plan.problem;
  const Grid& g = p.grid;
  const std::string scale_fix = "choose a spacing and --alpha of ordinary size (the grid's unit is free)";
  require_normal_in<double>(p.alpha, "--alpha", scale_fix);
  const double h[3] = {g.hx, g.hy, g.hz};
  const int n[3] = {g.nx, g.ny, g.nz};
  const char* axis_name[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const std::string axis = axis_name[a];
    require_normal_in<double>(h[a], "the spacing along " + axis, scale_fix);
    require_normal_in<double>((n[a] - 1) * h[a], "the grid's extent along " + axis + ", (n" + axis + "-1)*h" + axis,
                              scale_fix);
  }
  require_normal_in<double>(p.dt, "the time step dt (from --cfl or --dt, --alpha and the spacing)", scale_fix);
  const std::string precision_fix = sizeof(T) == sizeof(float) ? "use --precision double, or " + scale_fix : scale_fix;
  require_normal_in<T>(p.dt / 6, "dt/6, the smallest RK4 factor", precision_fix);
  const double inv_h2 = 1.0 / (h[0] * h[0]) + 1.0 / (h[1] * h[1]) + 1.0 / (h[2] * h[2]);
  require_normal_in<T>(p.alpha * stencil_coefficient(p.radius(), 0) * inv_h2, "the stencil's centre weight",
                       precision_fix);
  for (int a = 0; a < 3; ++a)
    for (int k = 1; k <= p.radius(); ++k) {
      const double weight = p.alpha * stencil_coefficient(p.radius(), k) / (h[a] * h[a]);
      const std::string name = "alpha*c" + std::to_string(k) + "/h" + axis_name[a] + "^2";
      require_normal_in<T>(weight, "the stencil weight " + name, precision_fix);
      require_normal_in<T>(weight * p.dt, "the step's coefficient dt*" + name, precision_fix);
    }
  const double final_time = plan.time_after(plan.steps);
  if (!std::isfinite(final_time))
    throw InputError("the run's final time " + number_text(final_time) + " is not finite: " + scale_fix);
}

std::string describe(const std::vector<std::string>& names) {
  // The series files, monitors.csv and materials.hdf by name, the snapshots counted.
  std::vector<std::string> snapshots, series;
  for (const auto& name : names)
    (name.rfind("heat.", 0) == 0 || name == kMonitorFileName || name == kMaterialsFileName ? series : snapshots)
        .push_back(name);
  std::string text;
  if (!snapshots.empty())
    text = std::to_string(snapshots.size()) + " snapshot" + (snapshots.size() > 1 ? "s " : " ") + snapshots.front() +
           (snapshots.size() > 1 ? " ... " + snapshots.back() : "");
  for (const auto& name : series) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// The run starts from a file in `directory`.
bool starts_from_a_file_in(const RunPlan& plan, const std::string& directory) {
  if (plan.init.kind != InitKind::File) return false;
  std::string from = std::filesystem::path(plan.init_file).parent_path().string();
  std::error_code ec;
  return std::filesystem::equivalent(from.empty() ? "." : from, directory, ec);
}

// MemAvailable from /proc/meminfo, in bytes (0 when unknown).
std::size_t available_host_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

}  // namespace

std::size_t run_host_bytes_needed(const RunPlan& plan, const BackendEntry& entry, const Slab& slab, bool root) {
  const std::size_t n = plan.problem.grid.points();
  Problem box_problem = plan.problem;
  box_problem.grid = slab.box_grid(plan.problem.grid);
  const std::size_t box = box_problem.grid.points();
  const std::size_t value = plan.precision == Precision::Float ? sizeof(float) : sizeof(double);
  // The box's host copy, touched only where the final field is read.
  std::size_t bytes = reads_final_field(plan, entry.uses_cuda) ? box * value : 0;
  // The snapshots' host buffers. Snapshots kept on the GPU touch a host box only where a chunk is
  // left to libzfp on the host (a GPU without memory for the encoder): not counted.
  if ((plan.output_every > 0 || plan.monitor_every > 0) && !snapshots_stay_on_gpu(plan, entry.uses_cuda))
    bytes += std::size_t(plan.snapshot_buffers) * box * value;
  // A .vti piece on ranks: the rank's planes copied out with the next rank's first plane.
  if (slab.ranks > 1 && plan.output.formats.has(OutputFormat::Vtk)) bytes += box * value;
  // A file's values: the box's planes, held in double.
  if (plan.init.kind == InitKind::File) bytes += box * (sizeof(double) + value);
  if (!entry.uses_cuda) bytes += entry.working_bytes(box_problem, value);
  // Sources, on every rank: the whole grid's q, rate and step increment in double (and a Horner
  // operand while they are made), the shortened last step's increment, and the backend's copy of
  // what it adds.
  if (!plan.sources.empty()) bytes += (plan.last_step_dt > 0 ? 5 : 4) * n * sizeof(double) + box * value;
  // Material fields, on every rank: the whole grid's K and C in double (read while planning), the
  // box's planes of them (box_problem) and a host backend's K, 1/K and 1/C.
  if (plan.problem.materials)
    bytes += 2 * n * sizeof(double) + box * (2 * sizeof(double) + (entry.uses_cuda ? 0 : 3 * value));
  if (plan.check && root)
    bytes += n * (value + sizeof(double)) + default_registry().find("cpu")->working_bytes(plan.problem, sizeof(double));
  return bytes;
}

void require_host_bytes(std::size_t bytes, int ranks_on_node, const std::string& who, const std::string& fix) {
  const std::size_t have = available_host_bytes() / std::size_t(ranks_on_node);
  if (have && bytes > have)
    throw InputError(who + " needs about " + std::to_string(bytes) + " bytes of host memory but " + std::to_string(have) +
                     " are available: " + fix);
}

void require_usable_derived_values(const RunPlan& plan) {
  if (plan.precision == Precision::Float)
    require_usable_values_in<float>(plan);
  else
    require_usable_values_in<double>(plan);
}

void require_zfp_bound_holds(const RunPlan& plan, const Slab& slab, const LoadedField& loaded) {
  const Compression& c = plan.output.compress;
  if (!plan.output.formats.has(OutputFormat::Hdf5) || c.codec != Codec::ZfpAccuracy) return;
  const bool is_float = plan.precision == Precision::Float;
  const double unheld = smallest_magnitude_unheld(c, is_float);
  double largest = 0;
  if (plan.init.kind == InitKind::File) {
    const double* values = loaded.values.data();
    const std::int64_t count = std::int64_t(loaded.values.size());
#pragma omp parallel for reduction(max : largest)
    for (std::int64_t n = 0; n < count; ++n)
      largest = std::max(largest, std::abs(is_float ? double(float(values[n])) : values[n]));
  } else {
    const Grid& grid = plan.problem.grid;
    for (const Planes& planes : box_sources(slab, grid))
      largest = std::max(largest, is_float ? largest_initial_magnitude<float>(grid, plan.init, planes, unheld)
                                           : largest_initial_magnitude<double>(grid, plan.init, planes, unheld));
  }
  if (largest < unheld) return;
  throw InputError(unheld_bound_reason(c, is_float, largest) + " (the initial field's largest values; no later " +
                   "field of the run is larger)");
}

OutputDirectoryLock require_usable_output_paths(RunPlan& plan, const RunOptions& options, bool from_a_snapshot,
                                                bool hold_directory) {
  std::vector<RolePath> inputs;
  if (!options.restart.empty()) inputs.push_back({"--restart", options.restart});
  else if (plan.init.kind == InitKind::File) inputs.push_back({"--init-file", plan.init_file});
  if (options.was_given("config")) inputs.push_back({"--config", options.config});
  const bool writes_snapshots = !plan.output.formats.empty() || plan.monitor_every > 0;
  const std::string& directory = plan.output.directory;
  if (!plan.json.empty()) {
    require_output_apart({"--json", plan.json}, inputs, writes_snapshots ? directory : "");
    require_writable_file(plan.json, "--json");
  }
  if (!writes_snapshots) return {};
  require_writable_directory(directory, "--output");
  // Taken before the directory's files are looked at: a run still writing them is named as such.
  OutputDirectoryLock lock = hold_directory ? OutputDirectoryLock(directory) : OutputDirectoryLock();
  if (const std::string why = unusable_trash_reason(directory); !why.empty()) throw InputError("--output: " + why);
  const auto existing = run_files_in(directory);
  const bool from_a_file_here = starts_from_a_file_in(plan, directory);
  if (existing.empty() || (from_a_file_here && from_a_snapshot)) return lock;
  // --restart's directory is the snapshot's, never the default one a new run may replace. A file
  // that records no run starts a series of its own from step 0, over the files there.
  const bool may_replace = options.overwrite || (!options.was_given("output") && options.restart.empty());
  if (!may_replace && from_a_file_here)
    throw InputError(plan.init_file + " records no heatrk4 run (no /heatrk4 group), so a run from it starts a new "
                     "series at step 0, and " + directory + " holds another run's files (" + describe(existing) +
                     "): choose another --output, or add --overwrite to replace them");
  if (!may_replace)
    throw InputError("--output " + directory + " holds another run's files (" + describe(existing) +
                     "): choose another --output, add --overwrite to replace them, or --restart from one of them");
  plan.output.replace_series = true;
  return lock;
}

}  // namespace heat
