#include "io/hdf5_support.hpp"

#include <mutex>

#include "io/zfp/zfp_chunks.hpp"
#include "core/errors.hpp"

namespace heat::h5 {

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    close();
    id_ = other.id_;
    closer_ = other.closer_;
    other.id_ = -1;
  }
  return *this;
}

herr_t Handle::close() {
  if (id_ < 0) return 0;
  const herr_t status = closer_(id_);
  id_ = -1;
  return status;
}

void initialize_library() {
  static std::once_flag once;
  std::call_once(once, [] {
    H5dont_atexit();  // must come first: it only works before the library initializes itself
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    // ZFP datasets (H5Z-ZFP's filter 32013) read without a plugin; HDF5 then loads none for it.
    register_zfp_filter();
  });
}

namespace {
// The sec2 driver's description of a failed system call spans two lines and a dozen fields
// ("file write failed: time = ..., errno = 27, error message = 'File too large', ..."); the
// operation and the system's reason are what a user needs.
std::string shorten(const std::string& description) {
  const auto reason_at = description.find("error message = '");
  if (reason_at == std::string::npos) return description;
  const auto reason_begin = reason_at + 17;
  const auto reason_end = description.find('\'', reason_begin);
  const auto operation_end = description.find(':');
  return description.substr(0, operation_end) + ": " + description.substr(reason_begin, reason_end - reason_begin);
}

herr_t collect_error(unsigned, const H5E_error2_t* error, void* lines) {
  auto& out = *static_cast<std::vector<std::string>*>(lines);
  out.push_back(std::string(error->func_name ? error->func_name : "?") + ": " + shorten(error->desc ? error->desc : ""));
  return 0;
}
}  // namespace

std::string take_error_stack() {
  std::vector<std::string> lines;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_error, &lines);
  H5Eclear2(H5E_DEFAULT);
  if (lines.empty()) return "unknown HDF5 error";
  // The first entry is the API call that failed, the last the root cause (often with errno);
  // the ones between only repeat the path through the library.
  return lines.size() == 1 ? lines.front() : lines.front() + " <- " + lines.back();
}

std::string virtual_mapping_text(hid_t layout, std::size_t n, ssize_t (*get)(hid_t, std::size_t, char*, std::size_t)) {
  const ssize_t length = get(layout, n, nullptr, 0);
  if (length < 0) return {};
  std::string text(std::size_t(length) + 1, '\0');
  get(layout, n, text.data(), text.size());
  text.resize(std::size_t(length));
  return text;
}

std::string shape_text(const std::vector<hsize_t>& dims) {
  std::string out = "(";
  for (std::size_t n = 0; n < dims.size(); ++n) out += (n ? ", " : "") + std::to_string(dims[n]);
  return out + ")";
}

namespace {
herr_t write_array_attribute(hid_t location, const char* name, hid_t file_type, hid_t memory_type, const void* data,
                             hsize_t count, bool scalar) {
  Handle space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), H5Sclose);
  if (!space.valid()) return -1;
  Handle attribute(H5Acreate2(location, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) return -1;
  if (H5Awrite(attribute.get(), memory_type, data) < 0) return -1;
  return attribute.close();
}
}  // namespace

herr_t write_attribute(hid_t location, const char* name, const std::vector<double>& values) {
  return write_array_attribute(location, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), values.size(), false);
}
herr_t write_attribute(hid_t location, const char* name, const std::vector<std::int64_t>& values) {
  return write_array_attribute(location, name, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(), values.size(), false);
}
herr_t write_scalar_attribute(hid_t location, const char* name, double value) {
  return write_array_attribute(location, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, 1, true);
}
herr_t write_scalar_attribute(hid_t location, const char* name, std::int64_t value) {
  return write_array_attribute(location, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value, 1, true);
}
herr_t write_scalar_attribute(hid_t location, const char* name, std::uint64_t value) {
  return write_array_attribute(location, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value, 1, true);
}

herr_t write_string_attribute(hid_t location, const char* name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type.valid()) return -1;
  // A zero-size string type is invalid, so an empty string is stored as one null byte.
  if (H5Tset_size(type.get(), value.empty() ? 1 : value.size()) < 0) return -1;
  if (H5Tset_strpad(type.get(), H5T_STR_NULLPAD) < 0) return -1;
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  return write_array_attribute(location, name, type.get(), type.get(), padded.data(), 1, true);
}

bool has_attribute(hid_t location, const char* name) { return H5Aexists(location, name) > 0; }

namespace {
// H5Aread writes every value the file's attribute holds: it must hold as many as the caller's
// buffer, whatever the file says.
void require_value_count(hid_t attribute, const char* name, std::size_t count) {
  Handle space(check<InputError>(H5Aget_space(attribute), name), H5Sclose);
  const hssize_t stored = H5Sget_simple_extent_npoints(space.get());
  if (stored != hssize_t(count))
    throw InputError(std::string("attribute ") + name + " has " + std::to_string(stored) + " values, expected " +
                     std::to_string(count));
}
}  // namespace

std::vector<double> read_number_attribute(hid_t location, const char* name, std::size_t count) {
  if (!has_attribute(location, name)) throw InputError(std::string("attribute ") + name + " is missing");
  Handle attribute(check<InputError>(H5Aopen(location, name, H5P_DEFAULT), name), H5Aclose);
  require_value_count(attribute.get(), name, count);
  std::vector<double> values(count);
  if (H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, values.data()) < 0)
    throw InputError(std::string("attribute ") + name + " is not numeric: " + take_error_stack());
  return values;
}

std::string read_string_attribute(hid_t location, const char* name) {
  if (!has_attribute(location, name)) throw InputError(std::string("attribute ") + name + " is missing");
  Handle attribute(check<InputError>(H5Aopen(location, name, H5P_DEFAULT), name), H5Aclose);
  Handle type(check<InputError>(H5Aget_type(attribute.get()), name), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING) throw InputError(std::string("attribute ") + name + " is not a string");
  require_value_count(attribute.get(), name, 1);
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    if (H5Aread(attribute.get(), type.get(), &text) < 0 || !text)
      throw InputError(std::string("attribute ") + name + ": " + take_error_stack());
    std::string value = text;
    H5free_memory(text);
    return value;
  }
  std::string buffer(H5Tget_size(type.get()), '\0');
  if (H5Aread(attribute.get(), type.get(), buffer.data()) < 0)
    throw InputError(std::string("attribute ") + name + ": " + take_error_stack());
  const auto end = buffer.find_last_not_of(std::string("\0 ", 2));
  return end == std::string::npos ? std::string() : buffer.substr(0, end + 1);
}

}  // namespace heat::h5
