// libFuzzer target: the --init-file reader and compare's reader (io/input_file.cpp) on arbitrary
// bytes written to a file. Anything but InputError (exit 2) escaping, or a sanitizer report, is a
// finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "fuzz/input_path.hpp"
#include "io/input_file.hpp"
#include "core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Each input is a new file (written beside, then renamed over the last), not the last one
  // rewritten: HDF5 knows an open file by its inode, so should a corrupt input leave the file open
  // inside the library, its cached metadata must not meet the next input's bytes.
  const std::string path = fuzz_input_path("input.hdf");
  std::ofstream(path + ".new", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  if (std::rename((path + ".new").c_str(), path.c_str()) != 0) std::abort();
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
