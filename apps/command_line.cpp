#include <cstdio>
#include <exception>

#include "apps/commands.hpp"
#include "solver/errors.hpp"

namespace heat {

void build_command_line(CLI::App& app, CommandAction& action) {
  app.description("heatrk4: the 3D heat equation, RK4 in time, cpu and CUDA backends");
  // --help only: CLI11 2.4 would refuse --h (the grid spacing) beside a -h help flag.
  app.set_help_flag("--help", "print this help and exit");
  app.require_subcommand(0, 1);
  add_run_command(app, action);
  add_backends_command(app, action);
  add_verify_command(app, action);
  add_compare_command(app, action);
  add_convergence_command(app, action);
}

int run_command_line(int argc, const char* const* argv) {
  CLI::App app;
  CommandAction action;
  try {
    build_command_line(app, action);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints CLI11's message naming the option
    return exit_code::bad_input;
  } catch (const InputError& e) {
    std::fprintf(stderr, "heatrk4: error: %s\n", e.what());
    return exit_code::bad_input;
  }
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
