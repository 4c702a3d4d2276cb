// The subcommands of heatrk4. Each add_*_command registers its CLI11 subcommand (or, for run,
// the top-level options) and, when it is the one chosen, sets `action` to the work to do.
// An action returns the exit code; InputError and RunError escape to main, which maps them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace heat {

using CommandAction = std::function<int()>;
struct RunReport;
struct RunOptions;

// The default: top-level options, which fill the RunOptions returned (a --config file's read once
// the command line is parsed). A run that ends (stopped, checked or not) leaves its report in
// `report_out` where given.
std::shared_ptr<const RunOptions> add_run_command(CLI::App& app, CommandAction& action, RunReport* report_out = nullptr);
// Runs `options` (given by the command line or by heatrk4.run's keywords), returning the exit code
// of docs/design.md §3 for a run that ends: 0, 1 (a --check mismatch) or a stopping signal's code.
// A run's report is left in `report_out` where given. Bad input is InputError, named where a
// --config file gave it; a failure while running is RunError.
int run_options(const RunOptions& options, RunReport* report_out = nullptr);
void add_backends_command(CLI::App& app, CommandAction& action);
void add_verify_command(CLI::App& app, CommandAction& action);
void add_compare_command(CLI::App& app, CommandAction& action);
void add_convergence_command(CLI::App& app, CommandAction& action);
void add_plot_command(CLI::App& app, CommandAction& action);

// Builds the whole command line (used by main and by the tests of bad command lines); returns the
// run's options, filled once `app` has parsed a run.
std::shared_ptr<const RunOptions> build_command_line(CLI::App& app, CommandAction& action);
// Parses argv into `app` (made by build_command_line) without doing any work: nothing when the
// chosen command should run, else the exit code to end with (help printed: 0; a bad command
// line or config file, its message printed: 2). The fuzz target calls it too.
std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv);
// Parses and runs argv, returning the exit code of docs/design.md §3; messages go to stderr.
int run_command_line(int argc, const char* const* argv);

}  // namespace heat
