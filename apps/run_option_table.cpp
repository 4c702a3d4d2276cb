#include "apps/run_option_table.hpp"

#include <cmath>
#include <type_traits>

#include "apps/config_file.hpp"
#include "apps/option_values.hpp"
#include "backends/registry.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {
namespace {

template <typename T>
constexpr OptionType type_of() {
  if constexpr (std::is_same_v<T, bool>) return OptionType::Flag;
  if constexpr (std::is_same_v<T, int>) return OptionType::Integer;
  if constexpr (std::is_same_v<T, unsigned long long>) return OptionType::Seed;
  if constexpr (std::is_same_v<T, double>) return OptionType::Number;
  if constexpr (std::is_same_v<T, std::string>) return OptionType::Text;
  if constexpr (std::is_same_v<T, std::array<int, 3>>) return OptionType::ThreeIntegers;
  if constexpr (std::is_same_v<T, std::vector<std::string>>) return OptionType::TextList;
}

enum Shown { Hidden, Default };

template <typename T>
RunOption option(const char* name, T RunOptions::*member, std::string help, Shown shown = Hidden) {
  RunOption o;
  o.name = name;
  o.help = std::move(help);
  o.type = type_of<T>();
  o.shows_default = shown == Default;
  o.set = [member](RunOptions& options, const OptionValue& value) { options.*member = std::get<T>(value); };
  o.bind = [member](CLI::App& app, const std::string& names, const std::string& help, RunOptions& options) {
    if constexpr (std::is_same_v<T, bool>)
      return app.add_flag(names, options.*member, help);
    else if constexpr (std::is_same_v<T, std::vector<std::string>>)
      // One value each time it is given (a value may hold commas); the values add up.
      return app.add_option(names, options.*member, help)->allow_extra_args(false);
    else
      return app.add_option(names, options.*member, help);
  };
  return o;
}

RunOption tolerance(const char* name, double RunOptions::*member, std::string help) {
  RunOption o = option(name, member, std::move(help));
  o.problem = [](const OptionValue& value) { return tolerance_problem(std::get<double>(value)); };
  return o;
}

// What a row adds to its option's type and help, said where the row is written.
RunOption said_also_by(std::vector<std::string> others, RunOption o) {
  o.said_another_way = std::move(others);
  return o;
}
RunOption with_alias(const char* alias, RunOption o) {
  o.aliases = alias;
  return o;
}
RunOption comma_list(RunOption o) {
  o.comma_list = true;
  return o;
}
RunOption repeatable(RunOption o) {
  o.repeatable = true;
  return o;
}
RunOption integer_too(RunOption o) {
  o.integer_too = true;
  return o;
}
// --config: a file cannot name another, and the path is checked before the file is read.
RunOption config_file(RunOption o) {
  o.in_files = false;
  o.problem = [](const OptionValue& value) { return config_file_problem(std::get<std::string>(value)); };
  return o;
}

std::vector<RunOption> make_table() {
  std::vector<RunOption> table = {
      config_file(option("config", &RunOptions::config, "read options from a TOML file (keys are the long option names)")),
      option("n", &RunOptions::n, "points along each axis (sets nx = ny = nz)", Default),
      said_also_by({"n"}, option("nx", &RunOptions::nx, "points along x (overrides --n)")),
      said_also_by({"n"}, option("ny", &RunOptions::ny, "points along y (overrides --n)")),
      said_also_by({"n"}, option("nz", &RunOptions::nz, "points along z (overrides --n)")),
      option("h", &RunOptions::h, "grid spacing on every axis (default 1/(n-1): a unit cube)"),
      said_also_by({"h"}, option("hx", &RunOptions::hx, "spacing along x")),
      said_also_by({"h"}, option("hy", &RunOptions::hy, "spacing along y")),
      said_also_by({"h"}, option("hz", &RunOptions::hz, "spacing along z")),
      option("alpha", &RunOptions::alpha, "diffusivity", Default),
      option("conductivity", &RunOptions::conductivity,
             "thermal conductivity K (alpha = K/C; default alpha*C, read by flux and convective faces)"),
      option("heat-capacity", &RunOptions::heat_capacity,
             "volumetric heat capacity C = rho*c_p (alpha = K/C; default 1, or K/alpha)"),
      option("conductivity-file", &RunOptions::conductivity_file,
             "K as a field: a VTKHDF file of the run's grid whose point array --conductivity-array holds K at "
             "each point (instead of --conductivity)"),
      option("conductivity-array", &RunOptions::conductivity_array, "point array of --conductivity-file", Default),
      option("heat-capacity-file", &RunOptions::heat_capacity_file,
             "C as a field: a VTKHDF file of the run's grid whose point array --heat-capacity-array holds C at "
             "each point (instead of --heat-capacity)"),
      option("heat-capacity-array", &RunOptions::heat_capacity_array, "point array of --heat-capacity-file",
             Default),
      option("materials", &RunOptions::materials,
             "K and C by region: a TOML file of [materials.NAME] tables, each with conductivity, heat_capacity "
             "and an integer label, which --material-labels places"),
      option("material-labels", &RunOptions::material_labels,
             "F.hdf:ARRAY: an integer point array of a VTKHDF file of the run's grid, the label of --materials' "
             "material at each point"),
      option("bc", &RunOptions::bc,
             "condition on every face: layer (the outer r points keep their initial values), temperature:T, "
             "insulated, flux:Q (heat into the domain per area), convective:H,T_INF, radiation:EPS,T_INF (emissivity "
             "EPS in [0, 1], T_INF in kelvin; cpu backends) or periodic",
             Default),
      option("bc-x-low", &RunOptions::bc_x_low, "condition on the low x face (overrides --bc)"),
      option("bc-x-high", &RunOptions::bc_x_high, "condition on the high x face (overrides --bc)"),
      option("bc-y-low", &RunOptions::bc_y_low, "condition on the low y face (overrides --bc)"),
      option("bc-y-high", &RunOptions::bc_y_high, "condition on the high y face (overrides --bc)"),
      option("bc-z-low", &RunOptions::bc_z_low, "condition on the low z face (overrides --bc)"),
      option("bc-z-high", &RunOptions::bc_z_high, "condition on the high z face (overrides --bc)"),
      option("source", &RunOptions::source,
             "a steady heat source, repeatable (summed): uniform:Q (W/m^3 in the whole body), "
             "gaussian:X,Y,Z,SIGMA,POWER (POWER watts about the point X,Y,Z, point (i,j,k) lying at "
             "(i*hx, j*hy, k*hz)) or file:F.hdf:ARRAY (q from a point array of a VTKHDF file of the run's grid)"),
      option("order", &RunOptions::order, "order of the stencil: 2, 4, 6 or 8", Default),
      option("steps", &RunOptions::steps, "RK4 steps", Default),
      said_also_by({"dt"}, option("cfl", &RunOptions::cfl, "dt*alpha*(1/hx^2+1/hy^2+1/hz^2)", Default)),
      said_also_by({"cfl"}, option("dt", &RunOptions::dt, "time step (instead of --cfl)")),
      option("allow-unstable", &RunOptions::allow_unstable, "run with a cfl above RK4's stability limit"),
      option("precision", &RunOptions::precision, "float or double", Default),
      option("backend", &RunOptions::backend, default_registry().names_text() + " or auto (see: heatrk4 backends)",
             Default),
      option("device", &RunOptions::device, "CUDA device ordinal (under mpirun each rank takes its node-local rank's)",
             Default),
      option("halo-exchange", &RunOptions::halo_exchange,
             "how GPU ranks under mpirun exchange ghost planes: peer (device to device by the copy engines, "
             "every rank on one node; ranks may share a GPU), nccl (device to device, a GPU per rank, any "
             "number of nodes), host (through host memory over MPI; ranks may share a GPU) or auto (peer on "
             "one node whose GPUs reach each other, else nccl)",
             Default),
      option("halo-overlap", &RunOptions::halo_overlap,
             "on (as auto): ranks step while the exchange travels, the cpu backend the planes that read no "
             "ghost plane, tiled what follows the planes the neighbours need; off: exchange, then step (same "
             "bits either way)",
             Default),
      option("ranks-grid", &RunOptions::ranks_grid,
             "how ranks under mpirun split the grid: slabs (1xN along z), PxQxR (P along x, Q along y, R along "
             "z) or auto (the split that exchanges the fewest points)",
             Default),
      option("init", &RunOptions::init, "initial field: gaussian, randn, sine, uniform:T (T everywhere) or file", Default),
      option("seed", &RunOptions::seed, "seed of --init randn (0 to 2^64-1)", Default),
      // std::array<int, 3> is one value of three integers to CLI11, so --modes takes exactly three.
      option("modes", &RunOptions::modes, "mode numbers of --init sine along x y z (three integers)"),
      option("init-file", &RunOptions::init_file, "VTKHDF ImageData file to start from (implies --init file)"),
      option("init-array", &RunOptions::init_array, "point array to read from --init-file", Default),
      option("output", &RunOptions::output,
             "directory for snapshots. Not given: each run replaces the previous run's snapshots there; "
             "given: a directory holding another run's snapshots is refused unless --overwrite",
             Default),
      comma_list(option("format", &RunOptions::format,
             "snapshot formats: hdf5, vtk, a comma list such as hdf5,vtk (both: the same), or none", Default)),
      option("output-every", &RunOptions::output_every, "snapshot every K steps (0: the final state only)", Default),
      option("snapshot-buffers", &RunOptions::snapshot_buffers,
             "snapshots in flight while the run steps on, each a host copy of the field (0: write before "
             "stepping on; a GPU run writing ZFP .hdf alone keeps one on the device instead)",
             Default),
      integer_too(option("compress", &RunOptions::compress,
             "0..9 or gzip:0..9: gzip level (zlib for .vti); zfp:BOUND: ZFP within an absolute error bound "
             "(zfp:1e-6); zfp:reversible: lossless ZFP (.hdf only); a restart takes the file's unless given",
             Default)),
      option("check", &RunOptions::check,
             "compare with the fast cpu backend in double precision (with cpu_reference for a cpu run), which the "
             "tests hold to cpu_reference"),
      tolerance("rtol", &RunOptions::rtol, "relative tolerance of --check (default 1e-6 float, 1e-12 double)"),
      tolerance("atol", &RunOptions::atol, "absolute tolerance of --check (default 1e-6 float, 1e-12 double)"),
      option("json", &RunOptions::json, "write the summary as JSON to this file"),
      with_alias(",-q", option("quiet", &RunOptions::quiet, "no progress line and no summary")),
      option("restart", &RunOptions::restart,
             "continue a run from one of its snapshots: step, time and the settings stored in the file "
             "unless given here; the series in the file's directory is continued"),
      option("overwrite", &RunOptions::overwrite, "let a new run replace another run's snapshots in --output"),
      // End time and monitors.
      option("t-end", &RunOptions::t_end,
             "end the run at this time (absolute: a restart's too), the last step shortened to land on it; "
             "instead of --steps"),
      repeatable(comma_list(option("probe", &RunOptions::probe,
             "X,Y,Z: a point whose interpolated value the monitors record, in the grid's coordinates (point "
             "(i,j,k) at (i*hx, j*hy, k*hz)); give it once a point"))),
      option("monitor-every", &RunOptions::monitor_every,
             "write the monitors (probes, min, max, mean, total heat, heat in through each face) every K steps "
             "and at the end to --output's monitors.csv (0: none; --probe alone: about 100 rows a run)"),
  };
  return table;
}

}  // namespace

const std::vector<RunOption>& run_option_table() {
  static const std::vector<RunOption> table = make_table();
  return table;
}

const RunOption* find_run_option(const std::string& name) {
  for (const RunOption& option : run_option_table())
    if (option.name == name) return &option;
  return nullptr;
}

std::string option_value_problem(const RunOption& option, const OptionValue& value) {
  std::string problem;
  if (const double* number = std::get_if<double>(&value); number && !std::isfinite(*number))
    problem = not_a_decimal_number(number_text(*number));
  if (const std::string* text = std::get_if<std::string>(&value)) problem = text_value_problem(*text);
  if (const auto* texts = std::get_if<std::vector<std::string>>(&value))
    for (const std::string& text : *texts)
      if (problem.empty()) problem = text_value_problem(text);
  if (problem.empty() && option.problem) problem = option.problem(value);
  return problem.empty() ? "" : "--" + option.name + ": " + problem;
}

void give_option(RunOptions& options, const RunOption& option, const OptionValue& value) {
  if (const std::string problem = option_value_problem(option, value); !problem.empty()) throw InputError(problem);
  option.set(options, value);
  options.given.insert(option.name);
}

void add_run_options(CLI::App& app, RunOptions& options) {
  for (const RunOption& o : run_option_table()) {
    CLI::Option* added = o.bind(app, "--" + o.name + o.aliases, o.help, options);
    if (o.shows_default) added->capture_default_str();
    if (o.repeatable) added->join(',');
    if (o.type == OptionType::Seed) added->check(uint64_check());
    if (o.type == OptionType::Number && o.problem) added->check(tolerance_check());
    if ((o.type == OptionType::Text || o.type == OptionType::TextList) && o.problem) {
      const auto problem = o.problem;
      added->check(CLI::Validator([problem](std::string& text) { return problem(OptionValue(text)); }, ""));
    }
  }
}

void record_given_options(const CLI::App& app, RunOptions& options) {
  for (const RunOption& o : run_option_table())
    if (app.count("--" + o.name) > 0) options.given.insert(o.name);
}

}  // namespace heat
