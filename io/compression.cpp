#include "io/compression.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <regex>

#include "core/errors.hpp"

namespace heat {

namespace {
const char* const kForms =
    ": use a gzip level 0..9 (0: none) or gzip:LEVEL, zfp:BOUND with an absolute error bound such as zfp:1e-6, "
    "or zfp:reversible (lossless)";

int gzip_level_of(const std::string& text, const std::string& digits) {
  if (digits.size() > 1 && digits[0] == '0' && digits.find_first_not_of("0123456789") == std::string::npos)
    throw InputError("--compress " + text + ": " + digits + " has a leading zero, which can mean octal: write " +
                     text.substr(0, text.size() - digits.size()) + digits.substr(digits.size() - 1) + kForms);
  if (digits.size() != 1 || digits[0] < '0' || digits[0] > '9')
    throw InputError("--compress " + text + ": " + digits + " is not a gzip level from 0 to 9" + kForms);
  return digits[0] - '0';
}

double bound_of(const std::string& text, const std::string& number) {
  if (number.empty()) throw InputError("--compress " + text + " gives no error bound (zfp:1e-6, say)" + kForms);
  static const std::regex decimal("([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  if (!std::regex_match(number, decimal))
    throw InputError("--compress " + text + ": " + number + " is not a positive decimal error bound" + kForms);
  const double bound = std::strtod(number.c_str(), nullptr);
  if (!(bound > 0) || !std::isfinite(bound))
    throw InputError("--compress " + text + ": the error bound " + number +
                     " must be positive and finite (the largest absolute error of a stored value)" + kForms);
  return bound;
}
}  // namespace

Compression parse_compression(const std::string& text) {
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string value = colon == std::string::npos ? "" : text.substr(colon + 1);
  Compression c;
  if (colon == std::string::npos && !name.empty() && name.find_first_not_of("0123456789") == std::string::npos) {
    if (name.size() > 1 && name[0] != '0')
      throw InputError("--compress " + text + " must be a gzip level from 0 to 9" + std::string(kForms));
    return Compression(gzip_level_of(text, name));
  }
  if (name == "gzip" && colon != std::string::npos) return Compression(gzip_level_of(text, value));
  if (name == "zfp" && value == "reversible") {
    c.codec = Codec::ZfpReversible;
    return c;
  }
  if (name == "zfp" && colon != std::string::npos) {
    c.codec = Codec::ZfpAccuracy;
    c.bound = bound_of(text, value);
    return c;
  }
  throw InputError("--compress " + text + " is not a codec" + std::string(kForms));
}

std::string compression_name(const Compression& c) {
  switch (c.codec) {
    case Codec::None:
      return "none";
    case Codec::Gzip:
      return "gzip:" + std::to_string(c.level);
    case Codec::ZfpReversible:
      return "zfp:reversible";
    case Codec::ZfpAccuracy:
      break;
  }
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, c.bound);
    if (std::strtod(text, nullptr) == c.bound) break;
  }
  return std::string("zfp:") + text;
}

namespace {

// The spacing of T's values at `magnitude` (T's smallest step where it is 0).
template <typename T>
double resolution_at(double magnitude) {
  const T at = T(magnitude);
  return double(std::nextafter(at, std::numeric_limits<T>::infinity()) - at);
}

template <typename T>
double smallest_unheld(double bound) {
  T power = 1;
  while (power > std::numeric_limits<T>::denorm_min() && 2 * resolution_at<T>(double(power)) > bound) power /= 2;
  while (power < std::numeric_limits<T>::max() && 2 * resolution_at<T>(double(power)) <= bound) power *= 2;
  return 2 * resolution_at<T>(double(power)) > bound ? double(power) : std::numeric_limits<double>::infinity();
}

}  // namespace

double smallest_magnitude_unheld(const Compression& c, bool is_float) {
  if (c.codec != Codec::ZfpAccuracy) return std::numeric_limits<double>::infinity();
  return is_float ? smallest_unheld<float>(c.bound) : smallest_unheld<double>(c.bound);
}

std::string unheld_bound_reason(const Compression& c, bool is_float, double magnitude) {
  const double resolution = is_float ? resolution_at<float>(magnitude) : resolution_at<double>(magnitude);
  char text[320];
  std::snprintf(text, sizeof text,
                "--compress %s cannot be held: %s values as large as %.3g are stored only to %.3g, so use a bound "
                "of at least %.2g, or --precision double",
                compression_name(c).c_str(), is_float ? "float" : "double", magnitude, resolution, 2 * resolution);
  return text;
}

std::string compression_unavailable_reason(const Compression& c, bool writes_vtk) {
  if (!c.is_zfp()) return {};
  if (!built_with_zfp())
    return "this build has no libzfp, so it cannot write ZFP-compressed snapshots: install libzfp-dev "
           "(Debian: apt-get install libzfp-dev) and reconfigure, or use a gzip level such as --compress 1";
  if (writes_vtk) return "ZFP is for .hdf snapshots; .vti files take VTK's zlib at a gzip level 0..9: use --format hdf5";
  return {};
}

}  // namespace heat
