#include "apps/run_options.hpp"
#include "apps/heat_sources.hpp"
#include "apps/material_fields.hpp"
#include "apps/end_time_and_monitors.hpp"
#include "apps/physics_options.hpp"
#include "apps/option_values.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/boundary_stability.hpp"
#include "core/errors.hpp"
#include "core/grid_limits.hpp"
#include "core/materials.hpp"
#include "core/number_text.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "backends/registry.hpp"
#include "parallel/rank_grid.hpp"
#include "stencils/stencil.hpp"
#include "check/norms.hpp"

namespace heat {
namespace {

// More buffers than this only hold memory: the writer cannot keep up with the loop either way.
constexpr int kMaxSnapshotBuffers = 16;

void require_positive(double value, const char* option) {
  if (!(value > 0) || !std::isfinite(value))
    throw InputError(std::string(option) + " " + number_text(value) + " must be a positive number");
}

// The grid of the options, which must hold the stencil of `order`.
Grid resolve_grid(const RunOptions& o, int order) {
  struct Axis {
    int& points;
    int given_points;
    bool given;
    const char* name;
  };
  Grid g;
  const Axis axes[3] = {{g.nx, o.nx, o.was_given("nx"), "--nx"}, {g.ny, o.ny, o.was_given("ny"), "--ny"}, {g.nz, o.nz, o.was_given("nz"), "--nz"}};
  std::array<std::string, 3> sources;  // the option each axis's points came from
  for (int a = 0; a < 3; ++a) {
    const Axis& axis = axes[a];
    axis.points = axis.given ? axis.given_points : o.n;
    sources[a] = axis.given ? axis.name : "--n";
    if (axis.points < 1)
      throw InputError(sources[a] + " " + std::to_string(axis.points) + " must be a positive number of points");
  }
  const bool axes_given = o.was_given("nx") || o.was_given("ny") || o.was_given("nz");
  require_grid_points_fit(g.nx, g.ny, g.nz, axes_given ? "the grid (--n, --nx, --ny, --nz)" : "--n");
  require_grid_fits_order(g, order, sources);
  // A spacing given is checked under the option that gave it.
  auto spacing = [&](bool axis_given, double axis_h, const char* axis_option, int n) {
    if (axis_given) {
      require_positive(axis_h, axis_option);
      return axis_h;
    }
    if (o.was_given("h")) {
      require_positive(o.h, "--h");
      return o.h;
    }
    return n > 1 ? 1.0 / (n - 1) : 1.0;
  };
  g.hx = spacing(o.was_given("hx"), o.hx, "--hx", g.nx);
  g.hy = spacing(o.was_given("hy"), o.hy, "--hy", g.ny);
  g.hz = spacing(o.was_given("hz"), o.hz, "--hz", g.nz);
  return g;
}

// auto: tiled where a CUDA device is present, else cpu (both fill every condition, add heat
// sources and step material fields: `materials`, the option that gives them, or ""; tiled's
// material passes take 5.13 ms a step at 600^3 in float on an H200, cpu many times that). A
// radiation face steps in the stage form on either (backends/cuda/stage_form.hpp), on the GPU at
// its memory's bandwidth, many times the host's. Asked before a rank knows its device, so without
// starting a context on the one asked about (find_gpu).
std::string auto_backend(int device, const Boundaries& boundaries, const std::string& materials, std::string& note) {
  const GpuInfo gpu = find_gpu(device);
  if (gpu.available && default_registry().find("tiled")) {
    note = "auto: CUDA device " + std::to_string(device) + " (" + gpu.name + ") found";
    if (!materials.empty()) note += ", which steps the material fields";
    if (any_radiation(boundaries)) note += ", which steps the radiation faces in the stage form";
    return "tiled";
  }
  note = "auto: no CUDA GPU, so cpu (" + gpu.reason + ")";
  return "cpu";
}

// Why --backend `name` cannot run this problem here ("" where it can), with the fix.
std::string backend_problem(const std::string& name, int device, const Boundaries& boundaries,
                            const std::vector<std::string>& sources, const std::string& materials) {
  const BackendEntry* entry = default_registry().find(name);
  if (!entry) return "is unknown: this build has " + default_registry().names_text() + " and auto";
  if (entry->uses_cuda) {
    const GpuInfo gpu = find_gpu(device);
    if (!gpu.available) return "needs a CUDA GPU: " + gpu.reason + "; use --backend cpu";
  }
  for (int face = 0; face < kFaces; ++face)
    if (boundaries[face].kind != BoundaryKind::Layer && !entry->fills_boundaries)
      return "does not fill boundary conditions yet (--bc-" + std::string(face_name(face)) + " is " +
             boundary_condition_text(boundaries[face]) + "): use --backend cpu or cpu_reference, or layer on every face";
  if (!materials.empty() && !entry->steps_materials)
    return "does not step material fields yet (" + materials + "): use --backend cpu or cpu_reference";
  if (!sources.empty() && !entry->adds_sources)
    return "does not add heat sources yet (--source " + shown_value(sources.front()) +
           "): use --backend cpu or cpu_reference";
  return "";
}

// --backend, or auto; a restart without --backend takes the backend its file stores, and auto
// where that one cannot run here (`refused` then says why).
std::string resolve_backend(const RunOptions& o, const Boundaries& boundaries, const std::string& materials,
                            std::string& note, std::string& refused) {
  if (o.backend == "auto") return auto_backend(o.device, boundaries, materials, note);
  const std::string problem = backend_problem(o.backend, o.device, boundaries, o.source, materials);
  if (problem.empty()) {
    if (!o.backend_stored_in.empty()) note = "as stored in " + o.backend_stored_in;
    return o.backend;
  }
  if (o.backend_stored_in.empty()) throw InputError("--backend " + shown_value(o.backend) + " " + problem);
  refused = o.backend_stored_in + " stores backend " + shown_value(o.backend) + ", which " +
            problem.substr(0, problem.find(": use ")) + ": this run takes auto (give --backend to choose)";
  const std::string chosen = auto_backend(o.device, boundaries, materials, note);
  note = "not the stored " + o.backend + "; " + note;
  return chosen;
}

}  // namespace

void require_stable_cfl(double cfl, int order, bool allow_unstable, const std::string& given) {
  const double limit = max_stable_cfl(order);
  if (cfl > limit && !allow_unstable)
    throw InputError(given + " is unstable for order " + std::to_string(order) + ": the largest stable cfl is " +
                     number_text(std::floor(limit * 1e4) / 1e4) + " (add --allow-unstable to run it anyway)");
}

// InputError where a face's condition (a convective or radiation face's ghosts) lowers the stable
// cfl of `p` below `cfl`, naming the face, its Biot number and the largest stable cfl and dt.
void require_stable_at_faces(const Problem& p, double cfl, bool allow_unstable, const std::string& given,
                             double hottest) {
  const int face = face_limiting_cfl(p, hottest);
  if (face < 0 || allow_unstable) return;
  const double limit = stable_cfl_limit(p, hottest);
  if (cfl <= limit) return;
  const double h = face / 2 == 0 ? p.grid.hx : face / 2 == 1 ? p.grid.hy : p.grid.hz;
  const double floored = std::floor(limit * 1e4) / 1e4;
  // The dt of the floored cfl, to 4 digits and rounded down, so that giving it is stable too.
  const double dt = dt_from_cfl(p.grid, p.alpha, floored);
  const double unit = std::pow(10.0, std::floor(std::log10(dt)) - 3);
  char dt_text[32];
  std::snprintf(dt_text, sizeof dt_text, "%.4g", std::floor(dt / unit) * unit);
  const bool radiation = p.boundaries[face].kind == BoundaryKind::Radiation;
  const std::string biot = radiation ? " (Biot number h_rad*h/K = " : " (Biot number H*h/K = ";
  const std::string hot = radiation ? ", h_rad = 4*EPS*sigma*T^3 at T = " +
                                          number_text(std::max(hottest, p.boundaries[face].t_inf))
                                    : "";
  throw InputError(given + " is unstable with --bc-" + face_name(face) + " " +
                   boundary_condition_text(p.boundaries[face]) + biot +
                   number_text(face_heat_transfer(p.boundaries[face], hottest) * h / p.conductivity) + hot +
                   ") at order " +
                   std::to_string(p.order) + ": the largest stable cfl is " + number_text(floored) + " (dt " +
                   dt_text + "; add --allow-unstable to run it anyway)");
}

double built_in_hottest(const InitSpec& init) {
  switch (init.kind) {
    case InitKind::Uniform: return init.temperature;
    case InitKind::Randn: return 10;
    case InitKind::Gaussian:
    case InitKind::Sine: return 1;
    case InitKind::File: return 0;
  }
  return 0;
}

namespace {

// InputError where `cfl` (dt * largest K/C * S) is beyond the stable limit of p's material fields.
void require_stable_with_materials(const Problem& p, double cfl, bool allow_unstable, const std::string& given,
                                   const std::string& materials) {
  const double limit = material_cfl_limit(p);
  if (cfl <= limit || allow_unstable) return;
  throw InputError(given + " is unstable with the material fields of " + materials + " at order " +
                   std::to_string(p.order) + ": the largest stable cfl is " +
                   number_text(std::floor(limit * 1e4) / 1e4) + " (cfl = dt * largest K/C * S, largest K/C = " +
                   number_text(p.alpha) + "; add --allow-unstable to run it anyway)");
}

}  // namespace

void require_positive_cfl(double cfl) { require_positive(cfl, "--cfl"); }

CLI::Validator tolerance_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const bool parsed = !text.empty() && end && *end == '\0';
        if (parsed && tolerance_problem(value).empty()) return "";
        return shown_value(text) + " is not a tolerance: give a finite number, 0 or more";
      },
      "NUMBER >= 0");
}

std::string tolerance_problem(double value) {
  if (std::isfinite(value) && value >= 0) return "";
  return number_text(value) + " is not a tolerance: give a finite number, 0 or more";
}

CLI::Validator uint64_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        errno = 0;
        if (digits) std::strtoull(text.c_str(), nullptr, 10);
        if (digits && errno != ERANGE) return "";
        return shown_value(text) + " is not a seed: give a whole number from 0 to " + std::to_string(ULLONG_MAX);
      },
      "UINT64");
}

void require_final_step_fits(int start_step, int steps) {
  if (start_step > INT_MAX - steps)
    throw InputError("the run would end at step " + std::to_string(std::int64_t(start_step) + steps) +
                     " (the snapshot's step " + std::to_string(start_step) + " plus --steps " + std::to_string(steps) +
                     "), past " + std::to_string(INT_MAX) + ", the last step heatrk4 counts");
}

void require_device_ordinal(int device) {
  if (device < 0)
    throw InputError("--device " + std::to_string(device) + " must be 0 or more (a CUDA device ordinal, from 0)");
}

void require_supported_order(int order) {
  if (!is_supported_order(order))
    throw InputError("--order " + std::to_string(order) + " is not supported: choose 2, 4, 6 or 8");
}

void require_grid_fits_order(const Grid& g, int order, const std::array<std::string, 3>& axis_names) {
  const int need = order + 1;  // 2r + 1
  const std::pair<int, std::string> axes[3] = {{g.nx, axis_names[0]}, {g.ny, axis_names[1]}, {g.nz, axis_names[2]}};
  for (const auto& [n, name] : axes)
    if (n < need)
      throw InputError(name + " " + std::to_string(n) + " is too small for order " +
                       std::to_string(order) + ": each axis needs at least 2r+1 = " + std::to_string(need) +
                       " points");
}

RunPlan make_run_plan(const RunOptions& o, const Grid* file_grid) {
  RunPlan plan;
  require_supported_order(o.order);
  plan.problem.order = o.order;
  if (file_grid) {
    require_grid_fits_order(*file_grid, o.order);
    plan.problem.grid = *file_grid;
  } else {
    plan.problem.grid = resolve_grid(o, o.order);
  }

  resolve_material(o, plan.problem);
  plan.problem.boundaries = resolve_boundaries(o, plan.problem.grid, o.order);
  plan.materials = resolve_material_fields(o, plan.problem);
  const std::string materials_named = material_fields_named(o);
  const double alpha = plan.problem.alpha;
  plan_steps_or_end_time(plan, o);

  if (o.was_given("cfl") && o.was_given("dt")) throw InputError("--dt and --cfl both given: give one (dt = cfl / (alpha*S))");
  if (o.was_given("dt")) {
    require_positive(o.dt, "--dt");
    plan.problem.dt = o.dt;
    plan.cfl = cfl_from_dt(plan.problem.grid, alpha, o.dt);
  } else {
    require_positive(o.cfl, "--cfl");
    plan.cfl = o.cfl;
    plan.problem.dt = dt_from_cfl(plan.problem.grid, alpha, o.cfl);
  }
  // A dt the restart took from its snapshot is named as such: the user gave no --dt to change.
  const std::string dt_named = o.dt_stored_in.empty() ? "--dt " + number_text(o.dt)
                                                      : "the dt " + number_text(o.dt) + " stored in " + o.dt_stored_in;
  const std::string cfl_named = " (cfl " + number_text(plan.cfl) +
                                (o.dt_stored_in.empty() ? ")" : "; give --cfl or --dt for this run)");
  const std::string given_step = o.was_given("dt") ? dt_named + cfl_named : "--cfl " + number_text(plan.cfl);
  parse_init(o.init, plan.init);  // a radiation face's stable step reads the initial field's largest value
  if (plan.problem.materials && any_radiation(plan.problem.boundaries))
    throw InputError(materials_named + " cannot run beside radiation faces yet: their stable step with material "
                                       "fields is not bounded (give constant --conductivity and --heat-capacity)");
  if (plan.problem.materials) {
    require_stable_with_materials(plan.problem, plan.cfl, o.allow_unstable, given_step, materials_named);
  } else {
    require_stable_cfl(plan.cfl, o.order, o.allow_unstable, given_step);
    require_stable_at_faces(plan.problem, plan.cfl, o.allow_unstable, given_step, built_in_hottest(plan.init));
  }

  if (o.precision == "float") plan.precision = Precision::Float;
  else if (o.precision == "double") plan.precision = Precision::Double;
  else throw InputError("--precision " + shown_value(o.precision) + " is not one of float, double");

  plan.backend_options.device = o.device;
  require_device_ordinal(o.device);
  plan.sources = resolve_sources(o, plan.problem);
  plan.backend = resolve_backend(o, plan.problem.boundaries, materials_named, plan.backend_note,
                                 plan.stored_backend_refused);
  plan.asked_gpu_halos = parse_gpu_halo_route(o.halo_exchange);
  plan.backend_options.halo_overlap = parse_halo_overlap(o.halo_overlap);
  plan.ranks_grid = parse_ranks_grid(o.ranks_grid);

  plan.init_name = init_text(plan.init);
  plan.init.seed = o.seed;
  plan.init.modes = o.modes;
  for (int m : o.modes)
    if (m < 1) throw InputError("--modes " + std::to_string(m) + " must be a positive mode number");
  if (plan.init.kind == InitKind::File && o.init_file.empty())
    throw InputError("--init file needs --init-file FILE.hdf");
  if (plan.init.kind != InitKind::File && o.was_given("init-file"))
    throw InputError("--init-file is given but --init is " + shown_value(o.init) + ": use --init file");
  plan.init_file = o.init_file;
  plan.init_array = o.init_array;

  plan.output.directory = o.output;
  plan.output.formats = parse_output_formats(o.format);
  const std::string why_not = output_format_unavailable_reason(plan.output.formats);
  if (!why_not.empty()) throw InputError("--format " + shown_value(o.format) + ": " + why_not);
  plan.output.compress = parse_compression(o.compress);
  if (const std::string why = compression_unavailable_reason(plan.output.compress, plan.output.formats.has(OutputFormat::Vtk));
      !why.empty())
    throw InputError("--compress " + o.compress + ": " + why);
  if (o.output_every < 0)
    throw InputError("--output-every " + std::to_string(o.output_every) + " must be 0 (final state only) or more");
  plan.output_every = o.output_every;
  if (o.snapshot_buffers < 0 || o.snapshot_buffers > kMaxSnapshotBuffers)
    throw InputError("--snapshot-buffers " + std::to_string(o.snapshot_buffers) + " must be from 0 to " +
                     std::to_string(kMaxSnapshotBuffers));
  // Monitors read each monitored step's field from a snapshot, beside the loop like the files.
  const bool monitors = o.monitor_every > 0 || !o.probe.empty();
  plan.snapshot_buffers = plan.output.formats.empty() && !monitors ? 0 : o.snapshot_buffers;
  plan.backend_options.snapshots_while_stepping = plan.snapshot_buffers > 0 && (plan.output_every > 0 || monitors);

  plan.check = o.check;
  const double tol = default_tolerance(plan.precision);
  plan.rtol = o.rtol >= 0 ? o.rtol : tol;
  plan.atol = o.atol >= 0 ? o.atol : tol;
  plan.json = o.json;
  plan.quiet = o.quiet;
  plan_probes(plan, o);
  return plan;
}

std::optional<GpuHaloRoute> parse_gpu_halo_route(const std::string& name) {
  if (name == "auto") return std::nullopt;
  if (const std::optional<GpuHaloRoute> route = gpu_halo_route_named(name)) return route;
  std::string names = "auto";
  for (GpuHaloRoute route : kGpuHaloRoutes) names += std::string(", ") + gpu_halo_route_name(route);
  throw InputError("--halo-exchange " + shown_value(name) + " is not one of " + names);
}

std::optional<HaloOverlap> parse_halo_overlap(const std::string& value) {
  // on: the backend's own way to overlap (BackendEntry::halo_overlap), which auto takes wherever a
  // backend can overlap.
  if (value == "auto" || value == "on") return std::nullopt;
  if (value == "off") return HaloOverlap::Off;
  throw InputError("--halo-overlap " + shown_value(value) + " is not one of auto, on, off");
}

}  // namespace heat
