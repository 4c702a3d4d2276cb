// Typed errors that the application maps to exit codes (docs/design.md §3).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace heat {

// Bad input: an option, a value, a file or a configuration. Exit code 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failure while running: CUDA, I/O, a non-finite value. Exit code 3.
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A value the user gave, as a message shows it: whole up to `most` bytes, else its first `most`
// (not splitting a UTF-8 character), "..." and its length, so that a megabyte of text given as a
// value (in a config file, from Python) is never echoed whole.
inline std::string shown_value(const std::string& value, std::size_t most = 60) {
  if (value.size() <= most) return value;
  std::size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
  return value.substr(0, cut) + "... (" + std::to_string(value.size()) + " bytes)";
}

namespace exit_code {
constexpr int ok = 0;
constexpr int mismatch = 1;
constexpr int bad_input = 2;
constexpr int run_failure = 3;
}  // namespace exit_code

}  // namespace heat
