// The settings a heatrk4 snapshot records in its /heatrk4 group that a restart continues with:
// the physics and numerics of the run and how often and in what formats it wrote snapshots (the
// grid and spacing come from /VTKHDF, step and time from read_initial_field).
#pragma once

#include <array>
#include <cstddef>
#include <vector>
#include <optional>
#include <string>

#include "core/boundary_conditions.hpp"
#include "io/snapshots.hpp"

namespace heat {

struct StoredRunSettings {
  bool recorded = false;  // the file has a /heatrk4 group: a heatrk4 snapshot
  // Where the run was; every snapshot records both (a restart refuses a record without them).
  std::optional<int> step;
  std::optional<double> time;
  std::optional<int> order;
  std::optional<std::string> precision;  // "float" or "double"
  // The backend the run stepped on, as --backend names it; none where empty (a file that names
  // none). Not checked here: a restart takes it only where this build and machine can run it.
  std::optional<std::string> backend;
  std::optional<double> alpha, dt, cfl;
  std::optional<double> conductivity, heat_capacity;
  // Each face's condition as --bc-FACE takes it; none in files written before they were recorded
  // (whose runs had layer on every face).
  std::array<std::optional<std::string>, kFaces> boundaries;
  // The run's sources (source_count and source_N); none in files written before they were recorded.
  std::optional<std::vector<SourceRecord>> sources;
  // The options that gave the run material fields and their checksum; empty without fields.
  MaterialRecord materials;
  // Where the snapshots go on: none in files written before they were recorded.
  std::optional<int> output_every;
  std::optional<std::string> format;  // as --format takes it ("hdf5,vtk")
  // The codec of the snapshots as --compress takes it ("0", "gzip:6", "zfp:1e-06", "zfp:reversible");
  // none in files written before it was recorded.
  std::optional<std::string> compress;
  std::string command_line;  // the command line of the run that wrote the file ("" if unknown)
  // End time and monitors: none where the run had none (or in files written before they were
  // recorded). probes as --probe's comma list.
  std::optional<double> t_end;
  // With t_end: the step the run reaches it at and the dt of that last step (0: a whole one).
  std::optional<int> end_step;
  double last_step_dt = 0;
  std::optional<std::string> probes;
  std::optional<int> monitor_every;
};

// Each setting the file's /heatrk4 group holds; none for a file without that group (a VTKHDF
// file from elsewhere) or an attribute it lacks (written before it was recorded). Each is checked
// as its option is: InputError naming the file, the attribute and the value for one no run could
// have written (an order other than 2/4/6/8, an alpha, dt or cfl that is not positive, a negative
// or non-finite time, an empty string, ...).
StoredRunSettings read_stored_run_settings(const std::string& path);

// The /heatrk4 attribute that records face `face`'s condition: "bc_x_low" ... "bc_z_high".
std::string stored_boundary_name(int face);
// The /heatrk4 attribute that records the material option `option` (kMaterialOptions).
std::string stored_material_name(const std::string& option);
// The /heatrk4 attribute that records the run's source number `n` (from 0): "source_1", ...
std::string stored_source_name(std::size_t n);

}  // namespace heat
