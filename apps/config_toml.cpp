#include "apps/config_toml.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <string_view>

// Header-only, so that a machine without the package's library (the GPU machine is given the
// headers alone, scripts/stage_device_deps.sh) builds the same program.
#define TOML_HEADER_ONLY 1
#include <toml++/toml.h>

#include "solver/errors.hpp"

namespace heat {
namespace {

// The shortest decimal text that reads back as `value`: what a file wrote as 0.1 stays "0.1";
// a whole float keeps a ".0" ("12.0", not "12", which would read as an integer in a message).
std::string float_text(double value) {
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  const std::string shortest = error == std::errc() ? std::string(text, end) : std::to_string(value);
  return shortest.find_first_not_of("-0123456789") == std::string::npos ? shortest + ".0" : shortest;
}

TomlValue typed_value(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return {TomlValue::Type::String, node.as_string()->get()};
    case toml::node_type::integer:
      return {TomlValue::Type::Integer, std::to_string(node.as_integer()->get())};
    case toml::node_type::floating_point:
      return {TomlValue::Type::Float, float_text(node.as_floating_point()->get())};
    case toml::node_type::boolean:
      return {TomlValue::Type::Boolean, node.as_boolean()->get() ? "true" : "false"};
    case toml::node_type::array:
      return {TomlValue::Type::Other, "an array"};
    case toml::node_type::table:
      return {TomlValue::Type::Other, "a table"};
    case toml::node_type::date:
      return {TomlValue::Type::Other, "a date"};
    case toml::node_type::time:
      return {TomlValue::Type::Other, "a time"};
    case toml::node_type::date_time:
      return {TomlValue::Type::Other, "a date and time"};
    default:
      return {TomlValue::Type::Other, "a value of no type"};
  }
}

int line_of(const toml::source_region& where) { return static_cast<int>(where.begin.line); }

}  // namespace

std::string placed_in_config(const std::string& file, int line, const std::string& what) {
  return "--config " + shown_value(file, PATH_MAX) + " line " + std::to_string(line) + ": " + what;
}

std::vector<TomlKey> read_toml_keys(const std::string& text, const std::string& file) {
  toml::table table;
  try {
    table = toml::parse(std::string_view(text), std::string_view(file));
  } catch (const toml::parse_error& e) {
    // toml++'s description names the key or the text it stopped at; a key may be long.
    const std::string why = shown_value(std::string(e.description()), 200);
    const std::string column = std::to_string(e.source().begin.column);
    throw InputError(placed_in_config(file, line_of(e.source()), "not TOML at column " + column + ": " + why));
  }
  std::vector<TomlKey> keys;
  for (const auto& [key, node] : table) {
    TomlKey entry;
    entry.key = std::string(key.str());
    entry.line = line_of(key.source());
    if (const toml::array* items = node.as_array()) {
      entry.array = true;
      for (const toml::node& item : *items) entry.values.push_back(typed_value(item));
    } else if (node.is_table()) {
      entry.table = true;
    } else {
      entry.values.push_back(typed_value(node));
    }
    keys.push_back(std::move(entry));
  }
  // A table is ordered by key; a message about the first problem should be about the first line.
  std::stable_sort(keys.begin(), keys.end(), [](const TomlKey& a, const TomlKey& b) { return a.line < b.line; });
  return keys;
}

}  // namespace heat
