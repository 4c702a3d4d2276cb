// --config FILE.toml, strict. The file must be a regular file of at most kMaxConfigBytes that
// the process can open; its text is TOML, read by toml++ (config_toml.hpp). Its keys are the
// long options of the run (run_option_table), each given the TOML type the option takes
// (true/false for a flag, a string for text, an integer for a whole number, an integer or a float
// for a number, an array of three integers for --modes), and each value then passes the checks the
// command line's text passes. Anything else throws InputError (exit 2) naming the file, the line
// and the key.
#pragma once

#include <cstdint>
#include <string>

#include "apps/run_options.hpp"

namespace heat {

// Far above any real config (a few hundred bytes), and small enough that a wrong path (a device
// such as /dev/zero, a log) is refused before it is read instead of read until memory runs out.
constexpr std::uintmax_t kMaxConfigBytes = std::uintmax_t(1) << 20;

// What keeps `path` from being read as a config file (a directory, a device, a FIFO, a file over
// kMaxConfigBytes, one that cannot be opened), found before it is read; "" where nothing does.
std::string config_file_problem(const std::string& path);

// Reads the file options.config into `options`. The options `options` was already given (on the
// command line, or by heatrk4.run's keywords) win over the file's, also where they say the same
// thing another way (--dt for cfl, --n for nx); the file's other keys are given, and the line of
// each is kept in options.config_lines.
void read_config_file(RunOptions& options);

// `message` with "--config FILE line N: key KEY: " in front when it begins with an option
// ("--steps 0 must be at least 1") that options' config file gave: a check made after reading
// names the place to fix, as one made while reading does. Otherwise `message` as it is.
std::string with_config_origin(const RunOptions& options, const std::string& message);

}  // namespace heat
