// The subcommands of heatrk4. Each add_*_command registers its CLI11 subcommand (or, for run,
// the top-level options) and, when it is the one chosen, sets `action` to the work to do.
// An action returns the exit code; InputError and RunError escape to main, which maps them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace heat {

using CommandAction = std::function<int()>;
struct RunReport;

// The default: top-level options. A run that ends (stopped, checked or not) leaves its report in
// `report_out` where given (heatrk4.run's result).
void add_run_command(CLI::App& app, CommandAction& action, RunReport* report_out = nullptr);
void add_backends_command(CLI::App& app, CommandAction& action);
void add_verify_command(CLI::App& app, CommandAction& action);
void add_compare_command(CLI::App& app, CommandAction& action);
void add_convergence_command(CLI::App& app, CommandAction& action);

// Builds the whole command line (used by main and by the tests of bad command lines).
void build_command_line(CLI::App& app, CommandAction& action, RunReport* run_report = nullptr);
// Parses argv into `app` (made by build_command_line) without doing any work: nothing when the
// chosen command should run, else the exit code to end with (help printed: 0; a bad command
// line or config file, its message printed: 2). The fuzz target calls it too.
std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv);
// Parses and runs argv, returning the exit code of docs/design.md §3; messages go to stderr.
int run_command_line(int argc, const char* const* argv);
// The same for the Python module (heatrk4.run): `args` without the program's name; what
// run_command_line prints and maps to exit 2 or 3 is thrown instead, as InputError (a bad command
// line or config file included) or RunError. Returns 0, 1 (a --check mismatch) or a stopping
// signal's code; a run's report is left in `run_report` where given.
int run_command_line_or_throw(const std::vector<std::string>& args, RunReport* run_report = nullptr);

}  // namespace heat
