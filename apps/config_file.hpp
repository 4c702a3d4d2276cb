// --config FILE.toml, strict. CLI11's TOML reader takes what it can and drops the rest: an unknown
// key, a plain text or binary file all read as "no options", and a bad value is reported without
// the file or the line. This reader checks every line first (text, "key = value", a known key, a
// closed string or array, a value the option accepts) and throws InputError (exit 2) naming the
// file, the line and the key; then CLI11's own reader turns the text into options as before.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace heat {

// Parses one option's values as if given on a command line ({"--steps=abc"}, {"--modes", "1",
// "2", "1"}); throws CLI::ParseError or InputError when the option refuses them.
using TryOptionValues = std::function<void(const std::vector<std::string>& args)>;

class StrictTomlConfig : public CLI::ConfigTOML {
 public:
  // `app`'s configurable long options are the known keys; `config_option` names the file.
  StrictTomlConfig(const CLI::App& app, const CLI::Option& config_option, TryOptionValues try_values)
      : app_(app), config_option_(config_option), try_values_(std::move(try_values)) {}
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

  // `message` with "--config FILE line N: key KEY: " in front when it begins with an option
  // ("--steps 0 must be at least 1") whose value this file gave: a check made after parsing then
  // names the place to fix, as one made while reading the file does. Otherwise `message` as it is.
  std::string with_origin(const std::string& message) const;

 private:
  const CLI::App& app_;
  const CLI::Option& config_option_;
  TryOptionValues try_values_;
  // What the file read last gave: its name and the line of each key the command line left to it.
  mutable std::string file_;
  mutable std::map<std::string, int> given_lines_;
};

// Adds the config option `name` (one file) to `app`, read by a StrictTomlConfig.
void add_strict_config(CLI::App& app, const std::string& name, const std::string& help, TryOptionValues try_values);

// StrictTomlConfig::with_origin of `app`'s config reader; `message` as it is where `app` has none.
std::string with_config_origin(const CLI::App& app, const std::string& message);

}  // namespace heat
