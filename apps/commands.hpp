// The subcommands of heatrk4. Each add_*_command registers its CLI11 subcommand (or, for run,
// the top-level options) and, when it is the one chosen, sets `action` to the work to do.
// An action returns the exit code; InputError and RunError escape to main, which maps them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace heat {

using CommandAction = std::function<int()>;

void add_run_command(CLI::App& app, CommandAction& action);  // the default: top-level options
void add_backends_command(CLI::App& app, CommandAction& action);
void add_verify_command(CLI::App& app, CommandAction& action);
void add_compare_command(CLI::App& app, CommandAction& action);
void add_convergence_command(CLI::App& app, CommandAction& action);

// Builds the whole command line (used by main and by the tests of bad command lines).
void build_command_line(CLI::App& app, CommandAction& action);
// Parses and runs argv, returning the exit code of design section 3; messages go to stderr.
int run_command_line(int argc, const char* const* argv);

}  // namespace heat
