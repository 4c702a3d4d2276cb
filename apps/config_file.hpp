// --config FILE.toml, strict. CLI11's TOML reader takes what it can and drops the rest: an unknown
// key, a plain text or binary file all read as "no options", and a bad value is reported without
// the file or the line. This reader checks every line first (text, "key = value", a known key, a
// closed string or array, a value the option accepts) and throws InputError (exit 2) naming the
// file, the line and the key; then CLI11's own reader turns the text into options as before.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
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

 private:
  const CLI::App& app_;
  const CLI::Option& config_option_;
  TryOptionValues try_values_;
};

// Adds the config option `name` (one file) to `app`, read by a StrictTomlConfig.
void add_strict_config(CLI::App& app, const std::string& name, const std::string& help, TryOptionValues try_values);

}  // namespace heat
