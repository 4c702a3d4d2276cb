// Typed errors that the application maps to exit codes (docs/design.md §3).
#pragma once

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

namespace exit_code {
constexpr int ok = 0;
constexpr int mismatch = 1;
constexpr int bad_input = 2;
constexpr int run_failure = 3;
}  // namespace exit_code

}  // namespace heat
