#include "apps/material_table.hpp"

#include <climits>
#include <cmath>
#include <fstream>

#include "apps/config_file.hpp"
#include "apps/config_toml.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {
namespace {

const char* const kOption = "--materials";

std::string read_text(const std::string& path) {
  if (const std::string problem = config_file_problem(path); !problem.empty())
    throw InputError(std::string(kOption) + ": " + problem);
  std::ifstream input(path, std::ios::binary);
  std::string text(kMaxConfigBytes + 1, '\0');
  input.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(input.gcount()));
  if (!input.eof() || text.size() > kMaxConfigBytes)
    throw InputError(std::string(kOption) + " " + shown_value(path, PATH_MAX) + ": cannot read it whole (at most " +
                     std::to_string(kMaxConfigBytes) + " bytes)");
  return text;
}

// A material's conductivity or heat capacity: a positive finite number, integer or float.
double positive_number(const TomlKey& key, const std::string& path) {
  const TomlValue* v = key.values.size() == 1 ? &key.values[0] : nullptr;
  const bool number = v && (v->type == TomlValue::Type::Integer || v->type == TomlValue::Type::Float);
  const double value = !number ? NAN : v->type == TomlValue::Type::Integer ? double(v->integer) : v->number;
  if (!(value > 0) || !std::isfinite(value))
    throw InputError(placed_in_config(path, key.line,
                                      key.key + " = " + (v ? v->text : std::string("an array")) +
                                          ": must be a positive number",
                                      kOption));
  return value;
}

MaterialEntry read_entry(const TomlKey& table, const std::string& path) {
  MaterialEntry entry;
  entry.name = table.key;
  if (!table.table)
    throw InputError(placed_in_config(path, table.line,
                                      "materials." + table.key + " must be a table ([materials." + table.key + "])",
                                      kOption));
  bool k = false, c = false, label = false;
  for (const TomlKey& key : table.members) {
    if (key.key == "conductivity") {
      entry.conductivity = positive_number(key, path);
      k = true;
    } else if (key.key == "heat_capacity") {
      entry.heat_capacity = positive_number(key, path);
      c = true;
    } else if (key.key == "label") {
      if (key.values.size() != 1 || key.values[0].type != TomlValue::Type::Integer)
        throw InputError(placed_in_config(path, key.line, "label must be an integer", kOption));
      entry.label = key.values[0].integer;
      label = true;
    } else {
      throw InputError(placed_in_config(
          path, key.line,
          "unknown key '" + shown_value(key.key) + "' in [materials." + table.key +
              "] (a material has conductivity, heat_capacity and label)",
          kOption));
    }
  }
  for (const auto& [have, name] : {std::pair{k, "conductivity"}, {c, "heat_capacity"}, {label, "label"}})
    if (!have)
      throw InputError(placed_in_config(path, table.line, "[materials." + table.key + "] has no " + name, kOption));
  return entry;
}

}  // namespace

std::vector<MaterialEntry> read_material_table(const std::string& path) {
  std::vector<MaterialEntry> entries;
  for (const TomlKey& top : read_toml_keys(read_text(path), path, kOption)) {
    if (top.key != "materials" || !top.table)
      throw InputError(placed_in_config(path, top.line,
                                        "unknown key '" + shown_value(top.key) +
                                            "': the file holds [materials.NAME] tables alone",
                                        kOption));
    for (const TomlKey& table : top.members) {
      MaterialEntry entry = read_entry(table, path);
      for (const MaterialEntry& before : entries)
        if (before.label == entry.label)
          throw InputError(placed_in_config(path, table.line,
                                            "[materials." + entry.name + "] has label " +
                                                std::to_string(entry.label) + ", as [materials." + before.name +
                                                "] has: each material needs its own label",
                                            kOption));
      entries.push_back(std::move(entry));
    }
  }
  if (entries.empty())
    throw InputError(std::string(kOption) + " " + shown_value(path, PATH_MAX) + " holds no [materials.NAME] table");
  return entries;
}

}  // namespace heat
