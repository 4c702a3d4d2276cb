#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "solver/errors.hpp"

namespace heat {
namespace {

// Design section 3's exit codes and the ways to continue a run, at the end of --help.
constexpr const char* kHelpFooter =
    "Restart: --init-file F.hdf (with --init file) continues from a snapshot's step and time.\n"
    "Exit codes: 0 success; 1 a --check or compare found a mismatch; 2 invalid input (option, value,\n"
    "file, config key, output path, unstable cfl, too little memory), found before any work starts;\n"
    "3 a failure while running (CUDA, I/O, a non-finite value).";

// -h as --help. CLI11 2.4 refuses a -h flag beside the --h option, so the short form is
// translated before parsing; a "-h" that is an option's value would need "--opt=-h".
std::vector<std::string> arguments_with_long_help(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int n = argc - 1; n >= 1; --n) args.push_back(std::string(argv[n]) == "-h" ? "--help" : argv[n]);
  return args;  // reversed, as CLI11's parse(std::vector<std::string>&) takes them
}

// The help of the command asked for; "run --help" shows the run options, which live at the top.
int print_help(const CLI::App& app, const CLI::Error& e) {
  const auto chosen = app.get_subcommands();
  if (chosen.empty() || chosen.front()->get_name() != "run") return app.exit(e);
  std::printf("%s", app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal).c_str());
  return exit_code::ok;
}

}  // namespace

void build_command_line(CLI::App& app, CommandAction& action) {
  app.name("heatrk4");
  app.description("heatrk4: the 3D heat equation, RK4 in time, cpu and CUDA backends");
  // --help only: CLI11 2.4 would refuse --h (the grid spacing) beside a -h help flag.
  app.set_help_flag("--help", "print this help and exit (also -h)");
  app.footer(kHelpFooter);
  app.require_subcommand(0, 1);
  add_run_command(app, action);
  add_backends_command(app, action);
  add_verify_command(app, action);
  add_compare_command(app, action);
  add_convergence_command(app, action);
}

std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  try {
    std::vector<std::string> args = arguments_with_long_help(argc, argv);
    app.parse(args);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return print_help(app, e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints CLI11's message naming the option
    return exit_code::bad_input;
  } catch (const InputError& e) {
    std::fprintf(stderr, "heatrk4: error: %s\n", e.what());
    return exit_code::bad_input;
  }
}

int run_command_line(int argc, const char* const* argv) {
  CLI::App app;
  CommandAction action;
  build_command_line(app, action);
  if (const std::optional<int> exit = parse_command_line(app, argc, argv)) return *exit;
  try {
    return action ? action() : exit_code::ok;
  } catch (const InputError& e) {
    std::fprintf(stderr, "heatrk4: error: %s\n", e.what());
    return exit_code::bad_input;
  } catch (const RunError& e) {
    std::fprintf(stderr, "heatrk4: run failed: %s\n", e.what());
    return exit_code::run_failure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "heatrk4: run failed: %s\n", e.what());
    return exit_code::run_failure;
  }
}

}  // namespace heat
