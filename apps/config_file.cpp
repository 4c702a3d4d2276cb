#include "apps/config_file.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <sstream>

#include "solver/errors.hpp"

namespace heat {
namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// The line up to a '#' that is outside quotes (TOML's comment).
std::string without_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t n = 0; n < line.size(); ++n) {
    const char c = line[n];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return line.substr(0, n);
    }
  }
  return line;
}

// Depth of the brackets outside quotes at the end of `value` (0: every '[' is closed).
int open_brackets(const std::string& value) {
  int depth = 0;
  char quote = 0;
  for (char c : value) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else {
      depth += (c == '[') - (c == ']');
    }
  }
  return depth;
}

std::string unquote(const std::string& s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) return s.substr(1, s.size() - 2);
  return s;
}

// A line as it may be shown in a message: at most 40 characters.
std::string shown(const std::string& line) { return "'" + (line.size() > 40 ? line.substr(0, 40) + "..." : line) + "'"; }

// The first byte that no TOML text holds (control characters other than tab and line ends):
// an HDF5 file has one in its first eight bytes.
std::size_t first_binary_byte(const std::string& text) {
  for (std::size_t n = 0; n < text.size(); ++n) {
    const unsigned char c = text[n];
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return n;
  }
  return std::string::npos;
}

// A message about line `line` of config file `file`.
std::string placed(const std::string& file, int line, const std::string& what) {
  return "--config " + file + " line " + std::to_string(line) + ": " + what;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::vector<CLI::ConfigItem> StrictTomlConfig::from_config(std::istream& input) const {
  const std::string text{std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>()};
  const std::string file = config_option_.results().empty() ? "(config)" : config_option_.results().back();
  if (config_option_.count() > 1)
    throw InputError("--config is given " + std::to_string(config_option_.count()) + " times: give one file");
  const auto fail = [&file](int line, const std::string& what) { throw InputError(placed(file, line, what)); };
  file_ = file;
  given_lines_.clear();

  const std::size_t binary = first_binary_byte(text);
  if (binary != std::string::npos) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", unsigned(static_cast<unsigned char>(text[binary])));
    const int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(binary), '\n'));
    fail(line, std::string("byte ") + byte + " is not text: the config must be a TOML text file (not, say, an .hdf snapshot)");
  }

  const auto is_key = [this](const std::string& key) {
    const CLI::Option* option = app_.get_option_no_throw("--" + key);
    return option && option->get_configurable() && option != &config_option_;
  };
  const std::vector<std::string> lines = split_lines(text);
  std::map<std::string, int> key_line;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const int line_number = int(n) + 1;
    const std::string line = trim(without_comment(lines[n]));
    if (line.empty()) continue;
    if (line.front() == '[')
      fail(line_number, "section " + shown(line) + ": heatrk4's config has no sections, every key is at the top level");
    const auto equals = line.find('=');
    if (equals == std::string::npos) fail(line_number, shown(line) + " is not a 'key = value' line");
    const std::string key = unquote(trim(line.substr(0, equals)));
    std::string value = trim(line.substr(equals + 1));
    if (key.empty()) fail(line_number, "no key before '='");
    if (!is_key(key)) {
      std::string dashed = key;
      std::replace(dashed.begin(), dashed.end(), '_', '-');
      fail(line_number, "unknown key '" + key + "'" +
                            (dashed != key && is_key(dashed) ? " (did you mean '" + dashed + "'?)"
                                                             : " (the keys are the long options of heatrk4 --help, without --)"));
    }
    if (key_line.count(key))
      fail(line_number, "key " + key + " is given twice (also on line " + std::to_string(key_line[key]) + ")");
    key_line[key] = line_number;
    if (value.empty()) fail(line_number, "key " + key + " has no value after '='");
    if (value.front() == '[') {
      while (open_brackets(value) > 0 && n + 1 < lines.size()) value += " " + trim(without_comment(lines[++n]));
      if (open_brackets(value) != 0 || value.back() != ']')
        fail(line_number, "key " + key + ": the array " + shown(value) + " is not closed by one ']' at its end");
    } else if ((value.front() == '"' || value.front() == '\'') && (value.size() < 2 || value.back() != value.front())) {
      fail(line_number, "key " + key + ": the string " + shown(value) + " is not closed");
    }
  }

  std::istringstream checked(text);
  std::vector<CLI::ConfigItem> items = CLI::ConfigTOML::from_config(checked);
  for (const CLI::ConfigItem& item : items) {
    const auto found = key_line.find(item.name);
    if (found == key_line.end()) continue;  // CLI11's section markers
    // "--json=" would read as --json with its value missing.
    for (const std::string& input : item.inputs)
      if (input.empty()) fail(found->second, "key " + item.name + ": the value is empty: give one, or leave the key out");
    std::vector<std::string> args;
    if (item.inputs.size() == 1) {
      args.push_back("--" + item.name + "=" + item.inputs.front());  // '=' also suits a flag (check = true)
    } else {
      args.push_back("--" + item.name);
      args.insert(args.end(), item.inputs.begin(), item.inputs.end());
    }
    try {
      try_values_(args);
    } catch (const CLI::ParseError& e) {
      fail(found->second, "key " + item.name + ": " + e.what());
    } catch (const InputError& e) {
      fail(found->second, "key " + item.name + ": " + e.what());
    }
  }
  // The command line wins over the file: only keys it left out are the file's to answer for.
  for (const auto& [key, line] : key_line)
    if (app_.count("--" + key) == 0) given_lines_[key] = line;
  return items;
}

std::string StrictTomlConfig::with_origin(const std::string& message) const {
  if (message.rfind("--", 0) != 0) return message;
  const std::string key = message.substr(2, message.find_first_of(" :=,") - 2);
  const auto found = given_lines_.find(key);
  if (found == given_lines_.end()) return message;
  return placed(file_, found->second, "key " + key + ": " + message);
}

std::string with_config_origin(const CLI::App& app, const std::string& message) {
  const auto config = std::dynamic_pointer_cast<const StrictTomlConfig>(app.get_config_formatter());
  return config ? config->with_origin(message) : message;
}

void add_strict_config(CLI::App& app, const std::string& name, const std::string& help, TryOptionValues try_values) {
  // One file, so that a message names the file it read: from_config refuses a second. (CLI11's
  // Throw policy would say so itself, but from 2.4 it also refuses a run without --config.)
  CLI::Option* option = app.set_config(name, "", help);
  option->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_config_extras(false);
  app.config_formatter(std::make_shared<StrictTomlConfig>(app, *option, std::move(try_values)));
}

}  // namespace heat
