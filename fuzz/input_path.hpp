// The file a fuzz target writes an input to, in a folder of the process's own (removed when the
// process ends normally). The path's length does not depend on the process id, so the same inputs
// take the same paths through the code (and give the same coverage) in every run.
#pragma once

#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <filesystem>
#include <string>

inline std::string fuzz_input_path(const char* file_name) {
  struct Folder {
    std::string name;
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(name, ignored);
    }
  };
  static const Folder folder{[] {
    char name[] = "/tmp/heatrk4-fuzz-XXXXXX";
    if (!mkdtemp(name)) std::abort();
    return std::string(name);
  }()};
  return folder.name + "/" + file_name;
}
