// Helpers shared by the test programs.
#pragma once

#include <string>
#include <vector>

#include "solver/gpu_info.hpp"

namespace heat::test {

// Runs the heatrk4 executable with the given arguments; returns its exit code and its
// stdout+stderr. `prefix` is prepended to the shell command (for example "ulimit -f 1;").
struct CommandResult {
  int exit_code = -1;
  std::string output;
};
CommandResult run_heatrk4(const std::vector<std::string>& args, const std::string& prefix = "");

// A fresh empty directory under the system temp dir, removed at process exit.
std::string temp_directory(const std::string& tag);

}  // namespace heat::test

// Skips (reported as skipped by CTest) when the machine has no usable CUDA device.
#define HEAT_REQUIRE_GPU()                                                               \
  do {                                                                                   \
    if (::heat::gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU on this machine";        \
  } while (0)
