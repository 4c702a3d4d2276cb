#include "io/run_settings.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "io/compression.hpp"
#include "io/hdf5_support.hpp"
#include "io/snapshots.hpp"
#include "core/errors.hpp"
#include "core/heat_source.hpp"
#include "core/monitors.hpp"
#include "core/number_text.hpp"

namespace heat {

namespace {

using h5::Handle;

// A positive, finite, normal number, as the option of the same name takes it and every run's
// alpha, dt and cfl are (0 included: a run never has it), none where the attribute is absent, or
// InputError.
std::optional<double> read_positive(hid_t group, const char* name) {
  if (!h5::has_attribute(group, name)) return std::nullopt;
  const double value = h5::read_number_attribute(group, name, 1)[0];
  if (!std::isnormal(value) || value < 0)
    throw InputError(std::string(name) + " = " + number_text(value) + " is not a positive number (as --" + name +
                     " must be)");
  return value;
}

// A string attribute that must not be empty where it is present (an option never takes "").
std::optional<std::string> read_text(hid_t group, const char* name) {
  if (!h5::has_attribute(group, name)) return std::nullopt;
  std::string value = h5::read_string_attribute(group, name);
  if (value.empty()) throw InputError(std::string(name) + " is empty (--" + name + " never is)");
  return value;
}

// t_end (finite), probes (parse_probes' comma list) and monitor_every (a whole number, 0 or more).
void read_end_time_and_monitors(hid_t g, StoredRunSettings& settings) {
  if (h5::has_attribute(g, "t_end")) {
    settings.t_end = h5::read_number_attribute(g, "t_end", 1)[0];
    if (!std::isfinite(*settings.t_end)) throw InputError("t_end = " + number_text(*settings.t_end) + " is not finite");
    // Files written before the end step was recorded have none: a restart then plans its own.
    if (h5::has_attribute(g, "t_end_step") && h5::has_attribute(g, "t_end_last_dt")) {
      const double step = h5::read_number_attribute(g, "t_end_step", 1)[0];
      const double last = h5::read_number_attribute(g, "t_end_last_dt", 1)[0];
      if (!(step >= 1 && step <= std::numeric_limits<int>::max()) || step != std::floor(step))
        throw InputError("t_end_step = " + number_text(step) + " is not a step number from 1 to " +
                         std::to_string(std::numeric_limits<int>::max()));
      if (!(last >= 0 && std::isfinite(last)))
        throw InputError("t_end_last_dt = " + number_text(last) + " is not a finite time step, 0 or more");
      settings.end_step = int(step);
      settings.last_step_dt = last;
    }
  }
  settings.probes = read_text(g, "probes");
  if (settings.probes) parse_probes(*settings.probes);
  if (h5::has_attribute(g, "monitor_every")) {
    const double every = h5::read_number_attribute(g, "monitor_every", 1)[0];
    if (!(every >= 0 && every <= std::numeric_limits<int>::max()) || every != std::floor(every))
      throw InputError("monitor_every = " + number_text(every) + " is not a whole number from 0 to " +
                       std::to_string(std::numeric_limits<int>::max()));
    settings.monitor_every = int(every);
  }
}

}  // namespace

std::string stored_boundary_name(int face) {
  std::string name = std::string("bc_") + face_name(face);
  name[name.find('-')] = '_';
  return name;
}

std::string stored_source_name(std::size_t n) { return "source_" + std::to_string(n + 1); }

std::string stored_material_name(const std::string& option) { return "material_" + option; }

StoredRunSettings read_stored_run_settings(const std::string& path) {
  h5::initialize_library();
  StoredRunSettings settings;
  Handle file(h5::check<InputError>(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), path), H5Fclose);
  if (H5Lexists(file.get(), "heatrk4", H5P_DEFAULT) <= 0) return settings;
  Handle run(h5::check<InputError>(H5Gopen2(file.get(), "heatrk4", H5P_DEFAULT), path + ": /heatrk4"), H5Gclose);
  const hid_t g = run.get();
  settings.recorded = true;
  try {
    if (h5::has_attribute(g, "step")) {
      const double step = h5::read_number_attribute(g, "step", 1)[0];
      if (!(step >= 0 && step <= std::numeric_limits<int>::max()) || step != std::floor(step))
        throw InputError("step = " + number_text(step) + " is not a whole number from 0 to " +
                         std::to_string(std::numeric_limits<int>::max()));
      settings.step = int(step);
    }
    if (h5::has_attribute(g, "time")) {
      settings.time = h5::read_number_attribute(g, "time", 1)[0];
      if (!std::isfinite(*settings.time) || *settings.time < 0)
        throw InputError("time = " + number_text(*settings.time) + " is not a finite number of 0 or more");
    }
    if (h5::has_attribute(g, "order")) {
      const double order = h5::read_number_attribute(g, "order", 1)[0];
      if (order != 2 && order != 4 && order != 6 && order != 8)
        throw InputError("order = " + number_text(order) + " is not 2, 4, 6 or 8");
      settings.order = int(order);
    }
    settings.precision = read_text(g, "precision");
    if (settings.precision && settings.precision != "float" && settings.precision != "double")
      throw InputError("precision = '" + *settings.precision + "' is not float or double");
    if (h5::has_attribute(g, "backend"))
      if (std::string backend = h5::read_string_attribute(g, "backend"); !backend.empty()) settings.backend = backend;
    settings.alpha = read_positive(g, "alpha");
    settings.conductivity = read_positive(g, "conductivity");
    settings.heat_capacity = read_positive(g, "heat_capacity");
    for (int face = 0; face < kFaces; ++face) {
      const std::string name = stored_boundary_name(face);
      settings.boundaries[face] = read_text(g, name.c_str());
      if (settings.boundaries[face]) parse_boundary_condition(*settings.boundaries[face], name + " =");
    }
    if (h5::has_attribute(g, "source_count")) {
      const double count = h5::read_number_attribute(g, "source_count", 1)[0];
      if (!(count >= 0 && count <= 1000) || count != std::floor(count))
        throw InputError("source_count = " + number_text(count) + " is not a whole number from 0 to 1000");
      settings.sources.emplace();
      for (std::size_t n = 0; n < std::size_t(count); ++n) {
        const std::string name = stored_source_name(n);
        const std::optional<std::string> text = read_text(g, name.c_str());
        if (!text) throw InputError("source_count is " + number_text(count) + " but there is no " + name);
        parse_source_spec(*text, name + " =");
        settings.sources->push_back({*text, read_text(g, (name + "_checksum").c_str()).value_or("")});
      }
    }
    for (const char* option : kMaterialOptions)
      if (const std::optional<std::string> value = read_text(g, stored_material_name(option).c_str()))
        settings.materials.options.push_back({option, *value});
    if (!settings.materials.empty()) {
      const std::optional<std::string> checksum = read_text(g, "materials_checksum");
      if (!checksum) throw InputError("the material options are recorded but materials_checksum is not");
      settings.materials.checksum = *checksum;
    }
    settings.dt = read_positive(g, "dt");
    settings.cfl = read_positive(g, "cfl");
    if (h5::has_attribute(g, "output_every")) {
      const double every = h5::read_number_attribute(g, "output_every", 1)[0];
      if (!(every >= 0 && every <= std::numeric_limits<int>::max()) || every != std::floor(every))
        throw InputError("output_every = " + number_text(every) + " is not a whole number from 0 to " +
                         std::to_string(std::numeric_limits<int>::max()));
      settings.output_every = int(every);
    }
    // parse_output_formats and parse_compression name a value no run writes.
    if (const auto format = read_text(g, "format")) settings.format = output_formats_name(parse_output_formats(*format));
    // compression_name's "none" is --compress 0.
    if (const auto codec = read_text(g, "compression"))
      settings.compress = *codec == "none" ? "0" : compression_name(parse_compression(*codec));
    if (h5::has_attribute(g, "command_line")) settings.command_line = h5::read_string_attribute(g, "command_line");
    read_end_time_and_monitors(g, settings);
  } catch (const InputError& e) {
    throw InputError(path + ": /heatrk4: " + e.what() + ": this file cannot be restarted from");
  }
  return settings;
}

}  // namespace heat
