#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/launch_sketch.hpp"
#include "apps/run_options.hpp"
#include "apps/option_values.hpp"
#include "parallel/ranks.hpp"
#include "parallel/ranks_common.hpp"
#include "backends/registry.hpp"
#include "core/errors.hpp"

namespace heat {
namespace {

// Design section 3's exit codes and the ways to continue a run, at the end of --help.
constexpr const char* kHelpFooter =
    "Restart: --restart F.hdf continues a snapshot's run (its step, time, settings and series);\n"
    "--overwrite lets a new run replace another run's snapshots in --output.\n"
    "Exit codes: 0 success; 1 a --check, verify or compare found a mismatch; 2 invalid input (option,\n"
    "value, file, config key, output path, unstable cfl, too little memory), found before any work starts;\n"
    "3 a failure while running (CUDA, I/O, a non-finite value);\n"
    "130/143 stopped by SIGINT/SIGTERM after a chunk of steps, the snapshots taken finished.";

// Whether `word` names an option (of the command or of a subcommand) that takes a value.
bool takes_a_value(const CLI::App& app, const std::string& word) {
  if (word.rfind("--", 0) != 0 || word.find('=') != std::string::npos) return false;
  const CLI::Option* option = app.get_option_no_throw(word);
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (option) break;
    option = sub->get_option_no_throw(word);
  }
  return option && option->get_type_size() != 0;
}

// -h as --help. CLI11 2.4 refuses a -h flag beside the --h option, so the short form is
// translated before parsing, except where it is the value of the option before it
// (--json -h writes the file "-h", as the user typed).
std::vector<std::string> arguments_with_long_help(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int n = argc - 1; n >= 1; --n) {
    const bool help = std::string(argv[n]) == "-h" && !(n > 1 && takes_a_value(app, argv[n - 1]));
    args.push_back(help ? "--help" : argv[n]);
  }
  return args;  // reversed, as CLI11's parse(std::vector<std::string>&) takes them
}

// The run's options live at the top, so CLI11 takes them before any subcommand and the
// subcommand never sees them: `heatrk4 --rtol 1 compare A B` would compare at compare's own
// tolerance. Refused, naming the option and where it belongs.
void refuse_run_options_before_a_subcommand(const CLI::App& app) {
  const auto chosen = app.get_subcommands();
  if (chosen.empty() || chosen.front()->get_name() == "run") return;
  for (const CLI::Option* option : app.get_options())
    if (option->count() > 0)
      throw InputError(option->get_name() + " is an option of a run, given before `" + chosen.front()->get_name() +
                       "`, which does not read it: give " + chosen.front()->get_name() +
                       "'s own options after it (heatrk4 " + chosen.front()->get_name() + " --help)");
}

// The help of the command asked for; "run --help" shows the run options, which live at the top.
int print_help(const CLI::App& app, const CLI::Error& e) {
  const auto chosen = app.get_subcommands();
  if (chosen.empty() || chosen.front()->get_name() != "run") return app.exit(e);
  std::printf("%s", app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal).c_str());
  return exit_code::ok;
}

}  // namespace

std::shared_ptr<const RunOptions> build_command_line(CLI::App& app, CommandAction& action) {
  app.name("heatrk4");
  app.description("heatrk4: the 3D heat equation, RK4 in time, cpu and CUDA backends");
  // --help only: CLI11 2.4 would refuse --h (the grid spacing) beside a -h help flag.
  app.set_help_flag("--help", "print this help and exit (also -h)");
  app.footer(kHelpFooter);
  app.set_version_flag("--version", std::string("heatrk4 ") + HEATRK4_VERSION, "print heatrk4's version and exit");
  app.require_subcommand(0, 1);
  std::shared_ptr<const RunOptions> run_options = add_run_command(app, action);
  add_backends_command(app, action);
  add_verify_command(app, action);
  add_compare_command(app, action);
  add_convergence_command(app, action);
  add_plot_command(app, action);
  require_plain_values(app);
  return run_options;
}

namespace {

// Bad input is found alike on every rank (the command line is the same, and the run validates
// collectively), so rank 0 alone says what it is and every rank exits 2 on its own. A failure
// while running may be one rank's alone: that rank says so and ends the others, which might
// otherwise wait on it forever.
int refuse(const Ranks& ranks, const char* what) {
  if (ranks.is_root()) std::fprintf(stderr, "heatrk4: error: %s\n", what);
  return exit_code::bad_input;
}

int fail(const Ranks& ranks, const char* what) {
  if (ranks.size() > 1) std::fprintf(stderr, "heatrk4: rank %d: run failed: %s\n", ranks.rank(), what);
  else std::fprintf(stderr, "heatrk4: run failed: %s\n", what);
  return ranks.end_every_rank(exit_code::run_failure);
}

// Every rank parses its own command line, so ranks started with other options (mpirun's `:`,
// a wrapper script) would each plan another run and hang, crash or mix two fields in one
// snapshot: refused on every rank before parsing, naming the first word that differs.
void require_one_command_line(const Ranks& ranks, int argc, const char* const* argv) {
  if (ranks.size() == 1) return;
  std::vector<std::string> words(argv + 1, argv + argc);
  std::string mine;
  for (const auto& word : words) mine += word + '\0';
  ranks.validate_everywhere([&] {
    const std::string root = ranks.same_on_every_rank(mine);
    if (root == mine) return;
    std::vector<std::string> root_words;
    for (std::size_t at = 0; at < root.size();) {
      const std::size_t end = root.find('\0', at);
      root_words.push_back(root.substr(at, end - at));
      at = end + 1;
    }
    std::size_t k = 0;
    while (k < words.size() && k < root_words.size() && words[k] == root_words[k]) ++k;
    const auto shown = [](const std::vector<std::string>& w, std::size_t k) {
      return k < w.size() ? "'" + shown_value(w[k], 60) + "'" : std::string("nothing");
    };
    throw InputError("rank " + std::to_string(ranks.rank()) + " was started with another command line than rank 0's: word " +
                     std::to_string(k + 1) + " is " + shown(words, k) + " there and " + shown(root_words, k) +
                     " on rank 0; every rank must be given the same options");
  });
}

}  // namespace

std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  const Ranks& ranks = process_ranks();
  try {
    require_one_command_line(ranks, argc, argv);
    std::vector<std::string> args = arguments_with_long_help(app, argc, argv);
    app.parse(args);
    refuse_run_options_before_a_subcommand(app);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return ranks.is_root() ? print_help(app, e) : exit_code::ok;
  } catch (const CLI::CallForAllHelp& e) {
    return ranks.is_root() ? app.exit(e) : exit_code::ok;
  } catch (const CLI::CallForVersion& e) {
    return ranks.is_root() ? app.exit(e) : exit_code::ok;
  } catch (const CLI::ParseError& e) {
    if (ranks.is_root()) app.exit(e);  // prints CLI11's message naming the option
    return exit_code::bad_input;
  } catch (const InputError& e) {
    return refuse(ranks, e.what());
  }
}

LaunchSketch sketch_command_line(int argc, const char* const* argv) {
  LaunchSketch sketch;
  CLI::App app;
  CommandAction action;  // built, never called
  const std::shared_ptr<const RunOptions> run_options = build_command_line(app, action);
  try {
    std::vector<std::string> args = arguments_with_long_help(app, argc, argv);
    app.parse(args);
  } catch (...) {
    return sketch;  // help, version or an error: the real parse answers it
  }
  const auto chosen = app.get_subcommands();
  sketch.command = chosen.empty() ? "run" : chosen.front()->get_name();
  if (sketch.command == "run") {  // given on the line or in --config, else the default
    sketch.backend = run_options->backend;
    sketch.device = run_options->device;
    sketch.parsed = true;
    return sketch;
  }
  // A value given, else the option's default.
  const CLI::App& owner = *chosen.front();
  const auto value_of = [&owner](const char* name) -> std::optional<std::string> {
    const CLI::Option* option = owner.get_option_no_throw(name);
    if (!option) return std::nullopt;
    return option->count() > 0 ? option->results().back() : option->get_default_str();
  };
  sketch.backend = value_of("--backend").value_or("");
  // A device option without a default shown is device 0, as every command's is.
  if (const std::optional<std::string> device = value_of("--device"); device && !device->empty()) {
    try {
      sketch.device = std::stoi(*device);
    } catch (const std::exception&) {
      return sketch;
    }
  }
  sketch.parsed = true;
  return sketch;
}

bool LaunchSketch::may_take_a_gpu() const {
  if (!parsed) return true;
  return command != "compare" && backend != "cpu" && backend != kCpuReferenceName;
}

bool LaunchSketch::runs_on_device_zero() const { return parsed && command == "run" && device == 0; }

bool plain_run_on_the_default_gpu(const LaunchSketch& sketch) {
  return !std::getenv("CUDA_VISIBLE_DEVICES") && !started_by_mpi_launcher() && sketch.runs_on_device_zero() &&
         sketch.may_take_a_gpu();
}

int run_command_line(int argc, const char* const* argv) {
  CLI::App app;
  CommandAction action;
  build_command_line(app, action);
  if (const std::optional<int> exit = parse_command_line(app, argc, argv)) return *exit;
  const Ranks& ranks = process_ranks();
  try {
    return action ? action() : exit_code::ok;
  } catch (const InputError& e) {
    return refuse(ranks, e.what());
  } catch (const RunError& e) {
    return fail(ranks, e.what());
  } catch (const std::exception& e) {
    return fail(ranks, e.what());
  }
}

}  // namespace heat
