// Thin helpers over the HDF5 C API shared by the snapshot writer, the input reader and compare:
// an owning handle, the error stack as text, and typed attributes.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace heat::h5 {

// Owns one HDF5 identifier and closes it with the matching H5?close function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept;
  ~Handle() { close(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Returns the close status: closing a file flushes it, so a full disk can show up only here.
  herr_t close();

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Called before any other HDF5 call. HDF5 prints its error stack to stderr by default; we turn
// that off and report the stack ourselves, inside the message of the exception the failure
// becomes. It also keeps HDF5 from closing open files at exit: a file whose flush failed (a full
// disk) stays open inside HDF5 1.10, and closing it again at exit crashes in H5F__close_cb, which
// would turn the clean exit 3 into a segmentation fault. Every file we write is closed explicitly.
// It registers heatrk4's ZFP codec as HDF5 filter 32013 (io/zfp/zfp_chunks.hpp) where the build has libzfp.
void initialize_library();
// The current error stack as one line ("H5Dwrite: file write failed: ... File too large"), cleared.
std::string take_error_stack();

// Throws Error(what + ": " + the error stack) when id is negative; returns id otherwise.
template <typename Error>
hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw Error(what + ": " + take_error_stack());
  return id;
}

// One text of a virtual dataset's mapping `n` (H5Pget_virtual_filename or H5Pget_virtual_dsetname); empty on failure.
std::string virtual_mapping_text(hid_t layout, std::size_t n, ssize_t (*get)(hid_t, std::size_t, char*, std::size_t));

// A dataset's extent as text: "(4, 9, 8)".
std::string shape_text(const std::vector<hsize_t>& dims);

// Attributes written by the snapshot writer. Numbers are 1-D arrays (or scalars) of float64 or
// int64; strings are fixed-length, null-padded ASCII, as h5py writes them and VTKHDF expects.
// They return a negative status on failure, for the caller to check.
herr_t write_attribute(hid_t location, const char* name, const std::vector<double>& values);
herr_t write_attribute(hid_t location, const char* name, const std::vector<std::int64_t>& values);
herr_t write_scalar_attribute(hid_t location, const char* name, double value);
herr_t write_scalar_attribute(hid_t location, const char* name, std::int64_t value);
herr_t write_scalar_attribute(hid_t location, const char* name, std::uint64_t value);
herr_t write_string_attribute(hid_t location, const char* name, const std::string& value);

// Attribute readers for files from anywhere: numbers convert to double whatever their stored
// type. They throw InputError naming the attribute when it is missing or has the wrong size.
bool has_attribute(hid_t location, const char* name);
std::vector<double> read_number_attribute(hid_t location, const char* name, std::size_t count);
std::string read_string_attribute(hid_t location, const char* name);

}  // namespace heat::h5
