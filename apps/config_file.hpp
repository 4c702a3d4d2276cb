// --config FILE.toml, strict. The file must be a regular file of at most kMaxConfigBytes that
// the process can open; its text is TOML, read by toml++ (config_toml.hpp). Its keys are the
// long options of the run, each given the TOML type the option takes (true/false for a flag, a
// string for text, an integer for a whole number, an integer or a float for a number, an array
// for an option of several values), and each value then passes the same CLI11 parsing and checks
// as on the command line. Anything else throws InputError (exit 2) naming the file, the line
// and the key. CLI11 then gives the options the values that the command line left to the file.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace heat {

// Far above any real config (a few hundred bytes), and small enough that a wrong path (a device
// such as /dev/zero, a log) is refused before it is read instead of read until memory runs out.
constexpr std::uintmax_t kMaxConfigBytes = std::uintmax_t(1) << 20;

// Parses one option's values as if given on a command line ({"--steps=abc"}, {"--modes", "1",
// "2", "1"}); throws CLI::ParseError or InputError when the option refuses them.
using TryOptionValues = std::function<void(const std::vector<std::string>& args)>;

class StrictTomlConfig : public CLI::ConfigTOML {
 public:
  // `app`'s configurable long options are the known keys; `config_option` names the file. The
  // options of `comma_lists` take a comma list of words ("hdf5,vtk"), which a file may also give
  // as an array of strings (["hdf5", "vtk"]).
  StrictTomlConfig(const CLI::App& app, const CLI::Option& config_option, TryOptionValues try_values,
                   std::set<std::string> comma_lists)
      : app_(app),
        config_option_(config_option),
        try_values_(std::move(try_values)),
        comma_lists_(std::move(comma_lists)) {}
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

  // `message` with "--config FILE line N: key KEY: " in front when it begins with an option
  // ("--steps 0 must be at least 1") whose value this file gave: a check made after parsing then
  // names the place to fix, as one made while reading the file does. Otherwise `message` as it is.
  std::string with_origin(const std::string& message) const;

 private:
  // Whether the command line gave an option that says what file's `key` says another way (--dt
  // for cfl, --n for nx): the file's key then gives way, as it does to the same option.
  bool replaced_on_the_command_line(const std::string& key) const;
  const CLI::App& app_;
  const CLI::Option& config_option_;
  TryOptionValues try_values_;
  std::set<std::string> comma_lists_;
  // What the file read last gave: its name and the line of each key the command line left to it.
  mutable std::string file_;
  mutable std::map<std::string, int> given_lines_;
};

// Adds the config option `name` (one file) to `app`, read by a StrictTomlConfig.
void add_strict_config(CLI::App& app, const std::string& name, const std::string& help, TryOptionValues try_values,
                       std::set<std::string> comma_lists);

// StrictTomlConfig::with_origin of `app`'s config reader; `message` as it is where `app` has none.
std::string with_config_origin(const CLI::App& app, const std::string& message);

}  // namespace heat
