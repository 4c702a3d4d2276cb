// libFuzzer target: the --init-file reader and compare's reader (io/input_file.cpp) on arbitrary
// bytes written to a file. Anything but InputError (exit 2) escaping, or a sanitizer report, is a
// finding.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "io/input_file.hpp"
#include "solver/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/heatrk4-fuzz-" + std::to_string(getpid()) + ".hdf";
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    heat::read_initial_field(path, "u");
  } catch (const heat::InputError&) {
  }
  try {
    for (const auto& name : heat::read_image_file_info(path).point_arrays) heat::read_point_array(path, name);
  } catch (const heat::InputError&) {
  }
  return 0;
}
