#include "apps/config_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "apps/config_toml.hpp"
#include "apps/option_values.hpp"
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

// --config's own check, made as CLI11 reads the option and before it opens the file: a device,
// a FIFO or a huge file is refused unread, and a file that cannot be read says why.
CLI::Validator config_file_check() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
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
      },
      "");
}

// What a key's option takes.
struct OptionShape {
  bool flag = false;
  NumberKind kind = NumberKind::None;
  int items = 1;  // more than one: an array of exactly that many (--modes: 3)
  bool comma_list = false;
  bool integer_too = false;  // text that may also be a TOML integer
};

std::string wanted(const OptionShape& shape) {
  if (shape.flag) return "true or false";
  if (shape.comma_list) return "a string or an array of strings";
  const char* one = "a string";
  const char* several = "strings";
  if (shape.kind == NumberKind::Integer) one = "a whole number", several = "whole numbers";
  if (shape.kind == NumberKind::Unsigned) one = "a whole number from 0 up", several = "whole numbers from 0 up";
  if (shape.kind == NumberKind::Fraction) one = "a number", several = "numbers";
  return shape.items > 1 ? "an array of " + std::to_string(shape.items) + " " + several : one;
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

// Whether one value (the key's own, or an item of its array) is of a type the option reads.
// Integers are int64 in TOML, so a seed above 2^63-1 may be a string; the option's check reads it.
bool takes(const OptionShape& shape, TomlValue::Type type) {
  switch (type) {
    case TomlValue::Type::String:
      return shape.kind == NumberKind::None || shape.kind == NumberKind::Unsigned;
    case TomlValue::Type::Integer:
      return shape.kind != NumberKind::None || shape.integer_too;
    case TomlValue::Type::Float:
      return shape.kind == NumberKind::Fraction;
    default:
      return false;
  }
}

// The words a command line would give the option for `entry`'s value; else what is wrong, to
// follow "key KEY" (" takes a whole number, not the float 12.5", ": the value is empty...").
std::string option_words(const OptionShape& shape, const TomlKey& entry, std::vector<std::string>& words) {
  const std::string not_that = " takes " + wanted(shape) + ", not ";
  if (shape.flag) {
    if (entry.array || entry.values.front().type != TomlValue::Type::Boolean)
      return not_that + (entry.array ? "an array" : described(entry.values.front()));
    words.push_back(entry.values.front().text);
    return "";
  }
  if (entry.array && shape.items == 1 && !shape.comma_list) return not_that + "an array";
  if (!entry.array && shape.items > 1) return not_that + described(entry.values.front());
  if (entry.array && shape.items > 1 && int(entry.values.size()) != shape.items)
    return not_that + "an array of " + std::to_string(entry.values.size());
  if (entry.array && entry.values.empty())
    return ": the array is empty: give " + wanted(shape) + ", or leave the key out";
  const OptionShape item_shape = shape.comma_list ? OptionShape{} : shape;
  for (std::size_t n = 0; n < entry.values.size(); ++n) {
    const TomlValue& value = entry.values[n];
    const std::string item = "item " + std::to_string(n + 1);
    if (!takes(item_shape, value.type))
      return not_that + (entry.array ? "an array whose " + item + " is " : "") + described(value);
    const std::string which = entry.array ? item + " of the array" : "the value";
    if (value.text.empty()) return ": " + which + " is empty: give one, or leave the key out";
    if (value.text.find('\0') != std::string::npos)
      return ": " + which + " holds a NUL character (\\u0000), which no option value can";
    words.push_back(value.text);
  }
  if (shape.comma_list) {
    std::string joined;
    for (const std::string& word : words) joined += (joined.empty() ? "" : ",") + word;
    words = {joined};
  }
  return "";
}

std::string unknown_key_problem(const std::string& key, const std::function<bool(const std::string&)>& is_key) {
  std::string dashed = key;
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  return "unknown key '" + shown_value(key) + "'" +
         (dashed != key && is_key(dashed) ? " (did you mean '" + dashed + "'?)"
                                          : " (the keys are the long options of heatrk4 --help, without --)");
}

}  // namespace

std::vector<CLI::ConfigItem> StrictTomlConfig::from_config(std::istream& input) const {
  const std::string file = config_option_.results().empty() ? "(config)" : config_option_.results().back();
  if (config_option_.count() > 1)
    throw InputError("--config is given " + std::to_string(config_option_.count()) + " times: give one file");
  file_ = file;
  given_lines_.clear();

  // The size was checked before the file was opened; a file that grew since is not read on.
  std::string text(kMaxConfigBytes + 1, '\0');
  input.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(input.gcount()));
  if (input.bad()) throw InputError("--config " + shown_path(file) + ": cannot read it");
  if (text.size() > kMaxConfigBytes)
    throw InputError("--config " + shown_path(file) + " holds more than " + std::to_string(kMaxConfigBytes) +
                     " bytes (1 MiB), the most a config file may hold");

  const auto option_of = [this](const std::string& key) -> const CLI::Option* {
    const CLI::Option* option = app_.get_option_no_throw("--" + key);
    return option && option->get_configurable() && option != &config_option_ ? option : nullptr;
  };
  std::vector<CLI::ConfigItem> items;
  for (const TomlKey& entry : read_toml_keys(text, file)) {
    const std::string& key = entry.key;
    const auto fail = [&](const std::string& what) { throw InputError(placed_in_config(file, entry.line, what)); };
    if (entry.table)
      fail("'" + shown_value(key) + "' is a table ([" + shown_value(key) + "], " + shown_value(key) +
           ".x = ... or { ... }): heatrk4's config has no sections, every key is at the top level");
    const CLI::Option* option = option_of(key);
    if (!option) fail(unknown_key_problem(key, [&option_of](const std::string& k) { return option_of(k) != nullptr; }));
    OptionShape shape;
    shape.flag = option->get_expected_max() == 0;
    shape.kind = number_kind(*option);
    shape.items = option->get_items_expected_max();
    shape.comma_list = comma_lists_.count(key) > 0;
    // --compress takes a gzip level (compress = 6) or a codec (compress = "zfp:1e-6").
    shape.integer_too = key == "compress";
    std::vector<std::string> words;
    const std::string problem = option_words(shape, entry, words);
    if (!problem.empty()) fail("key " + key + problem);

    // The option's own parsing and checks, as on the command line. '=' suits a flag (check=true).
    std::vector<std::string> args = {"--" + key};
    if (words.size() == 1)
      args.front() += "=" + words.front();
    else
      args.insert(args.end(), words.begin(), words.end());
    try {
      try_values_(args);
    } catch (const CLI::ParseError& e) {
      fail("key " + key + ": " + e.what());
    } catch (const InputError& e) {
      fail("key " + key + ": " + e.what());
    }
    // The command line wins over the file, also where it gave another way to say the same thing.
    if (replaced_on_the_command_line(key)) continue;
    CLI::ConfigItem item;
    item.name = key;
    item.inputs = std::move(words);
    items.push_back(std::move(item));
    // The command line wins over the file: only keys it left out are the file's to answer for.
    if (app_.count("--" + key) == 0) given_lines_[key] = entry.line;
  }
  return items;
}

bool StrictTomlConfig::replaced_on_the_command_line(const std::string& key) const {
  // A key and the options that say the same thing another way: --dt for --cfl and back (one of
  // the two sets the time step), --n for each extent and --h for each spacing.
  static const std::map<std::string, std::vector<std::string>> alternatives = {
      {"cfl", {"dt"}}, {"dt", {"cfl"}}, {"nx", {"n"}}, {"ny", {"n"}}, {"nz", {"n"}},
      {"hx", {"h"}},   {"hy", {"h"}},   {"hz", {"h"}}};
  const auto found = alternatives.find(key);
  if (found == alternatives.end()) return false;
  for (const auto& other : found->second)
    if (app_.count("--" + other) > 0) return true;
  return false;
}

std::string StrictTomlConfig::with_origin(const std::string& message) const {
  if (message.rfind("--", 0) != 0) return message;
  const std::string key = message.substr(2, message.find_first_of(" :=,") - 2);
  const auto found = given_lines_.find(key);
  if (found == given_lines_.end()) return message;
  return placed_in_config(file_, found->second, "key " + key + ": " + message);
}

std::string with_config_origin(const CLI::App& app, const std::string& message) {
  const auto config = std::dynamic_pointer_cast<const StrictTomlConfig>(app.get_config_formatter());
  return config ? config->with_origin(message) : message;
}

void add_strict_config(CLI::App& app, const std::string& name, const std::string& help, TryOptionValues try_values,
                       std::set<std::string> comma_lists) {
  // One file, so that a message names the file it read: from_config refuses a second. (CLI11's
  // Throw policy would say so itself, but from 2.4 it also refuses a run without --config.)
  CLI::Option* option = app.set_config(name, "", help);
  option->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)->check(config_file_check());
  app.allow_config_extras(false);
  app.config_formatter(std::make_shared<StrictTomlConfig>(app, *option, std::move(try_values), std::move(comma_lists)));
}

}  // namespace heat
