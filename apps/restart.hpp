// A run that starts from a file: --restart FILE, or --init-file FILE alone. Such a run continues
// the one that wrote the file: its physics and numerics come from the file's /heatrk4 group
// unless an option overrides them (docs/design.md §3, "Restart").
#pragma once

#include <string>
#include <vector>

#include "apps/run_options.hpp"

namespace heat {

// The options with what a restart implies filled in: --restart F means --init file
// --init-file F and, unless --output is given, --output F's directory (continuing its series);
// --init-file F alone means --init file. Throws InputError for options that contradict those.
RunOptions with_restart_implied(const RunOptions& given);

// Takes the order, precision, alpha, dt, --output-every, --format and --compress stored in
// o.init_file for each that the command line (or --config) does not give (a file written before
// the last three were stored leaves them as given). A stored ZFP codec with a --format that writes
// .vti files (which ZFP does not compress) is InputError asking for --compress. Returns one line for each given option whose value differs from
// the stored one, for the run to print, and what starting from the file's values means where its
// snapshot stored them lossily (ZFP within an absolute bound): the run goes on from values within
// the bound of those the first run had, so it is not bitwise the run it continues (empty for a
// lossless file: none, gzip, zfp:reversible).
struct TakenSettings {
  std::vector<std::string> overrides;
  std::string lossy_start;
};
TakenSettings take_stored_settings(RunOptions& o);

}  // namespace heat
