#include "io/run_settings.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "io/compression.hpp"
#include "io/hdf5_support.hpp"
#include "io/snapshots.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {

namespace {

using h5::Handle;

// A positive, finite, normal number (as every run's alpha, dt and cfl are), none for 0 (not
// recorded: what a writer that was given no value stores), or InputError.
std::optional<double> read_positive(hid_t group, const char* name) {
  if (!h5::has_attribute(group, name)) return std::nullopt;
  const double value = h5::read_number_attribute(group, name, 1)[0];
  if (value == 0) return std::nullopt;
  if (!std::isnormal(value) || value < 0)
    throw InputError(std::string(name) + " = " + number_text(value) + " is not a positive number");
  return value;
}

}  // namespace

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
    if (h5::has_attribute(g, "time")) settings.time = h5::read_number_attribute(g, "time", 1)[0];
    if (h5::has_attribute(g, "order")) {
      const double order = h5::read_number_attribute(g, "order", 1)[0];
      if (order != 2 && order != 4 && order != 6 && order != 8)
        throw InputError("order = " + number_text(order) + " is not 2, 4, 6 or 8");
      settings.order = int(order);
    }
    const std::string precision = h5::has_attribute(g, "precision") ? h5::read_string_attribute(g, "precision") : "";
    if (!precision.empty() && precision != "float" && precision != "double")
      throw InputError("precision = '" + precision + "' is not float or double");
    if (!precision.empty()) settings.precision = precision;
    settings.alpha = read_positive(g, "alpha");
    settings.dt = read_positive(g, "dt");
    settings.cfl = read_positive(g, "cfl");
    if (h5::has_attribute(g, "output_every")) {
      const double every = h5::read_number_attribute(g, "output_every", 1)[0];
      if (!(every >= 0 && every <= std::numeric_limits<int>::max()) || every != std::floor(every))
        throw InputError("output_every = " + number_text(every) + " is not a whole number from 0 to " +
                         std::to_string(std::numeric_limits<int>::max()));
      settings.output_every = int(every);
    }
    // "" where a writer recorded none; parse_output_formats names a value no run writes.
    if (h5::has_attribute(g, "format")) {
      const std::string format = h5::read_string_attribute(g, "format");
      if (!format.empty()) settings.format = output_formats_name(parse_output_formats(format));
    }
    // compression_name's "none" is --compress 0; parse_compression names a value no run writes.
    if (h5::has_attribute(g, "compression")) {
      const std::string codec = h5::read_string_attribute(g, "compression");
      if (codec == "none") settings.compress = "0";
      else if (!codec.empty()) settings.compress = compression_name(parse_compression(codec));
    }
    if (h5::has_attribute(g, "command_line")) settings.command_line = h5::read_string_attribute(g, "command_line");
  } catch (const InputError& e) {
    throw InputError(path + ": /heatrk4: " + e.what() + ": this file cannot be restarted from");
  }
  return settings;
}

}  // namespace heat
