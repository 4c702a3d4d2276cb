// The run options, each declared once (docs/design.md §3): its long name, the type of its value,
// its help, its own check, and the RunOptions member it fills. Three routes fill RunOptions from
// this one table, each reading a value of the option's type in its own way: the command line
// (CLI11, add_run_options), a --config file (TOML's typed values, config_file.hpp) and
// heatrk4.run's keywords (Python objects, python/run_keywords.hpp), as PETSc's options database is
// filled alike from argv, files and code.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "apps/run_options.hpp"

namespace heat {

// A value of one option, of its RunOptions member's type; OptionType names the alternatives.
// TextList: an option given any number of times, each value one text (--source).
using OptionValue =
    std::variant<bool, int, unsigned long long, double, std::string, std::array<int, 3>, std::vector<std::string>>;
enum class OptionType { Flag, Integer, Seed, Number, Text, ThreeIntegers, TextList };

struct RunOption {
  std::string name;     // without "--": the TOML key; the keyword, with '_' for '-'
  std::string aliases;  // more command-line names (",-q")
  std::string help;
  OptionType type = OptionType::Text;
  bool shows_default = false;  // --help shows the default value
  bool comma_list = false;     // text that a file may also give as an array of strings (format)
  bool integer_too = false;    // text that a file may also give as a whole number (compress = 6)
  bool repeatable = false;     // text given more than once on the command line: one comma list (probe)
  bool in_files = true;        // a --config file may give it (not --config itself)
  // Options that set what this one sets another way (dt for cfl, n for nx): where the command
  // line gave one of them, a file's value of this one gives way.
  std::vector<std::string> said_another_way;
  // The option's own check of a value of its type, beyond the type's: "" or what is wrong.
  std::function<std::string(const OptionValue&)> problem;
  // Puts a value of the option's type in its member.
  std::function<void(RunOptions&, const OptionValue&)> set;
  // Registers it with CLI11, bound to its member of `options`.
  std::function<CLI::Option*(CLI::App&, const std::string& names, const std::string& help, RunOptions& options)> bind;
};

// Every run option, in --help's order.
const std::vector<RunOption>& run_option_table();
// The option named `name` (without "--"), or nullptr.
const RunOption* find_run_option(const std::string& name);

// What is wrong with `value` for `option` ("--h: nan is not a decimal number ..."), "" where it is
// right: its type's rules (a finite number; text neither empty, nor longer than a path, nor holding
// a NUL) and the option's own check, as the command line checks the text it gives.
std::string option_value_problem(const RunOption& option, const OptionValue& value);
// Gives `option` its `value` in `options` and records it as given; InputError where
// option_value_problem finds something wrong.
void give_option(RunOptions& options, const RunOption& option, const OptionValue& value);

// Registers the run options on `app` (the top level, since run is the default command).
void add_run_options(CLI::App& app, RunOptions& options);
// After `app` has parsed: records in options.given each run option its command line gave.
void record_given_options(const CLI::App& app, RunOptions& options);

}  // namespace heat
