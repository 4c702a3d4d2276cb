// The file a fuzz target writes an input to: in HEATRK4_FUZZ_DIR where the runner names one (the
// same path in every run, so that the same inputs take the same paths through the code and give
// libFuzzer the same comparisons to learn from), else in a folder of the process's own (removed
// when the process ends normally).
#pragma once

#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <filesystem>
#include <string>

inline std::string fuzz_input_path(const char* file_name) {
  struct Folder {
    std::string name;
    bool own;
    ~Folder() {
      std::error_code ignored;
      if (own) std::filesystem::remove_all(name, ignored);
    }
  };
  static const Folder folder = [] {
    if (const char* given = std::getenv("HEATRK4_FUZZ_DIR")) {
      std::error_code ignored;
      std::filesystem::create_directories(given, ignored);
      return Folder{given, false};
    }
    char name[] = "/tmp/heatrk4-fuzz-XXXXXX";
    if (!mkdtemp(name)) std::abort();
    return Folder{name, true};
  }();
  return folder.name + "/" + file_name;
}
