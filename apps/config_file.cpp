#include "apps/config_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>

#include "apps/config_toml.hpp"
#include "apps/option_values.hpp"
#include "apps/run_option_table.hpp"
#include "core/errors.hpp"

namespace heat {
namespace {

std::string shown_path(const std::string& path) { return shown_value(path, PATH_MAX); }

std::string file_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string config_file_problem(const std::string& path) {
  struct stat status;
  if (::stat(path.c_str(), &status) != 0) return "cannot read " + shown_path(path) + ": " + std::strerror(errno);
  if (S_ISDIR(status.st_mode)) return shown_path(path) + " is a directory: give a TOML text file";
  if (!S_ISREG(status.st_mode))
    return shown_path(path) + " is " + file_kind(status.st_mode) + ", not a regular file: give a TOML text file";
  if (std::uintmax_t(status.st_size) > kMaxConfigBytes)
    return shown_path(path) + " is " + std::to_string(status.st_size) + " bytes, more than the " +
           std::to_string(kMaxConfigBytes) + " (1 MiB) a config file may hold";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "cannot open " + shown_path(path) + ": " + std::strerror(errno);
  ::close(fd);
  return "";
}

namespace {

std::string wanted(const RunOption& option) {
  if (option.comma_list || option.type == OptionType::TextList) return "a string or an array of strings";
  switch (option.type) {
    case OptionType::Flag: return "true or false";
    case OptionType::Integer: return "a whole number";
    case OptionType::Seed: return "a whole number from 0 up";
    case OptionType::Number: return "a number";
    case OptionType::ThreeIntegers: return "an array of 3 whole numbers";
    case OptionType::Text:
    case OptionType::TextList: break;
  }
  return "a string";
}

std::string described(const TomlValue& value) {
  switch (value.type) {
    case TomlValue::Type::String:
      return "the string \"" + shown_value(value.text) + "\"";
    case TomlValue::Type::Integer:
      return "the integer " + value.text;
    case TomlValue::Type::Float:
      return "the float " + value.text;
    case TomlValue::Type::Boolean:
      return "the boolean " + value.text;
    case TomlValue::Type::Other:
      break;
  }
  return value.text;
}

// A TOML value, or what is wrong with it, to follow "key KEY" (" takes a whole number, not the
// float 12.5", ": --n: 3000000000 is out of range ...").
struct Converted {
  std::optional<OptionValue> value;
  std::string problem;
};

// One value of `type` (an item of --modes: Integer); an empty problem with no value: not its type.
Converted one_value(OptionType type, bool integer_too, const TomlValue& v, const std::string& option) {
  using T = TomlValue::Type;
  switch (type) {
    case OptionType::Flag:
      if (v.type == T::Boolean) return {v.boolean, ""};
      break;
    case OptionType::Integer:
      if (v.type != T::Integer) break;
      if (v.integer > INT_MAX || v.integer < INT_MIN)
        return {std::nullopt, ": " + option + ": " + v.text + " is out of range: the " +
                                  (v.integer > 0 ? "largest value is " + std::to_string(INT_MAX)
                                                 : "smallest value is " + std::to_string(INT_MIN))};
      return {int(v.integer), ""};
    case OptionType::Seed: {
      // Integers stop at 2^63-1 in TOML, so a larger seed is a string of digits: the command line's check reads it.
      if (v.type != T::Integer && v.type != T::String) break;
      std::string text = v.text;
      if (const std::string why = uint64_check()(text); !why.empty()) return {std::nullopt, ": " + option + ": " + why};
      return {std::strtoull(text.c_str(), nullptr, 10), ""};
    }
    case OptionType::Number:
      if (v.type == T::Integer) return {double(v.integer), ""};
      if (v.type == T::Float) return {v.number, ""};
      break;
    case OptionType::Text:
    case OptionType::TextList:
      if (v.type == T::String) return {v.text, ""};
      if (v.type == T::Integer && integer_too) return {v.text, ""};
      break;
    case OptionType::ThreeIntegers:
      break;
  }
  return {};
}

Converted option_value(const RunOption& option, const TomlKey& entry) {
  const std::string not_that = " takes " + wanted(option) + ", not ";
  const std::string name = "--" + option.name;
  const bool several = option.type == OptionType::ThreeIntegers || option.comma_list || option.type == OptionType::TextList;
  if (entry.array && !several) return {std::nullopt, not_that + "an array"};
  if (!entry.array && option.type == OptionType::ThreeIntegers) return {std::nullopt, not_that + described(entry.values.front())};
  if (entry.array && option.type == OptionType::ThreeIntegers && entry.values.size() != 3)
    return {std::nullopt, not_that + "an array of " + std::to_string(entry.values.size())};
  if (entry.array && entry.values.empty())
    return {std::nullopt, ": the array is empty: give " + wanted(option) + ", or leave the key out"};
  const OptionType item_type = option.type == OptionType::ThreeIntegers ? OptionType::Integer : option.type;
  std::vector<OptionValue> items;
  for (std::size_t n = 0; n < entry.values.size(); ++n) {
    const TomlValue& value = entry.values[n];
    const std::string item = "item " + std::to_string(n + 1);
    Converted one = one_value(item_type, option.integer_too, value, name);
    if (!one.problem.empty()) return one;
    if (!one.value) return {std::nullopt, not_that + (entry.array ? "an array whose " + item + " is " : "") + described(value)};
    const std::string which = entry.array ? item + " of the array" : "the value";
    if (value.type == TomlValue::Type::String && value.text.empty())
      return {std::nullopt, ": " + which + " is empty: give one, or leave the key out"};
    if (value.text.find('\0') != std::string::npos)
      return {std::nullopt, ": " + which + " holds a NUL character (\\u0000), which no option value can"};
    items.push_back(*one.value);
  }
  if (option.type == OptionType::ThreeIntegers)
    return {std::array<int, 3>{std::get<int>(items[0]), std::get<int>(items[1]), std::get<int>(items[2])}, ""};
  if (option.type == OptionType::TextList) {
    std::vector<std::string> texts;
    for (const OptionValue& item : items) texts.push_back(std::get<std::string>(item));
    return {texts, ""};
  }
  if (option.comma_list) {
    std::string joined;
    for (const OptionValue& item : items) joined += (joined.empty() ? "" : ",") + std::get<std::string>(item);
    return {joined, ""};
  }
  return {items.front(), ""};
}

std::string unknown_key_problem(const std::string& key, const std::function<bool(const std::string&)>& is_key) {
  std::string dashed = key;
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  return "unknown key '" + shown_value(key) + "'" +
         (dashed != key && is_key(dashed) ? " (did you mean '" + dashed + "'?)"
                                          : " (the keys are the long options of heatrk4 --help, without --)");
}

}  // namespace

void read_config_file(RunOptions& options) {
  const std::string& file = options.config;
  std::ifstream input(file, std::ios::binary);
  if (!input) throw InputError("--config " + shown_path(file) + ": cannot open it");
  // The size was checked before the file was opened; a file that grew since is not read on.
  std::string text(kMaxConfigBytes + 1, '\0');
  input.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(input.gcount()));
  if (input.bad()) throw InputError("--config " + shown_path(file) + ": cannot read it");
  if (text.size() > kMaxConfigBytes)
    throw InputError("--config " + shown_path(file) + " holds more than " + std::to_string(kMaxConfigBytes) +
                     " bytes (1 MiB), the most a config file may hold");

  const auto option_of = [](const std::string& key) -> const RunOption* {
    const RunOption* option = find_run_option(key);
    return option && option->in_files ? option : nullptr;
  };
  const std::set<std::string> given_before = options.given;
  const auto given_already = [&given_before](const RunOption& option) {
    if (given_before.count(option.name)) return true;
    for (const std::string& other : option.said_another_way)
      if (given_before.count(other)) return true;
    return false;
  };
  for (const TomlKey& entry : read_toml_keys(text, file)) {
    const std::string& key = entry.key;
    const auto fail = [&](const std::string& what) { throw InputError(placed_in_config(file, entry.line, what)); };
    if (entry.table)
      fail("'" + shown_value(key) + "' is a table ([" + shown_value(key) + "], " + shown_value(key) +
           ".x = ... or { ... }): heatrk4's config has no sections, every key is at the top level");
    const RunOption* option = option_of(key);
    if (!option) fail(unknown_key_problem(key, [&option_of](const std::string& k) { return option_of(k) != nullptr; }));
    const Converted converted = option_value(*option, entry);
    if (!converted.value) fail("key " + key + converted.problem);
    // The file's value is checked even where the command line's wins: the file is wrong either way.
    if (const std::string problem = option_value_problem(*option, *converted.value); !problem.empty())
      fail("key " + key + ": " + problem);
    if (given_already(*option)) continue;
    give_option(options, *option, *converted.value);
    options.config_lines[key] = entry.line;
  }
}

std::string with_config_origin(const RunOptions& options, const std::string& message) {
  if (message.rfind("--", 0) != 0) return message;
  const std::string key = message.substr(2, message.find_first_of(" :=,") - 2);
  const auto found = options.config_lines.find(key);
  if (found == options.config_lines.end()) return message;
  return placed_in_config(options.config, found->second, "key " + key + ": " + message);
}

}  // namespace heat
