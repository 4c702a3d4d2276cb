// A file of its own in the system's temporary directory, for a plotting script to write into
// before the plot reaches its target by io/output_target.hpp's rules.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/errors.hpp"

namespace heat {

// Made with a unique name ending in `suffix`; removed with the object.
struct ScratchFile {
  std::string path;
  explicit ScratchFile(const std::string& suffix) {
    std::string name = (std::filesystem::temp_directory_path() / "heatrk4-scratch-XXXXXX").string() + suffix;
    const int fd = ::mkstemps(name.data(), int(suffix.size()));
    if (fd < 0) throw RunError("cannot create a scratch file " + name + ": " + std::strerror(errno));
    ::close(fd);
    path = name;
  }
  ~ScratchFile() { ::unlink(path.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
};

// The bytes a plotting script wrote to `path`; RunError where it wrote none.
inline std::string drawn_plot(const std::string& path) {
  std::ifstream drawn(path, std::ios::binary);
  std::string png((std::istreambuf_iterator<char>(drawn)), std::istreambuf_iterator<char>());
  if (png.empty()) throw RunError("the plotting script wrote no plot to " + path);
  return png;
}

}  // namespace heat
