#include "io/hdf5_chunks.hpp"

#include <omp.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <type_traits>

#include "io/hdf5_support.hpp"
#include "io/zfp_chunks.hpp"
#include "solver/errors.hpp"

namespace heat {

namespace {

using h5::Handle;

constexpr std::size_t target_chunk_bytes = std::size_t(4) << 20;
constexpr hsize_t zfp_block = 4;

hsize_t round_up(hsize_t value, hsize_t multiple) { return (value + multiple - 1) / multiple * multiple; }

std::vector<hsize_t> zfp_chunk_shape(const Grid& g, std::size_t value_bytes) {
  const std::size_t row = std::size_t(g.nx) * value_bytes;
  const std::size_t plane = row * std::size_t(g.ny);
  if (plane * zfp_block <= target_chunk_bytes) {
    const hsize_t planes = std::max<hsize_t>(target_chunk_bytes / plane / zfp_block, 1) * zfp_block;
    return {std::min(planes, hsize_t(g.nz)), hsize_t(g.ny), hsize_t(g.nx)};
  }
  const hsize_t pieces = (plane * zfp_block + target_chunk_bytes - 1) / target_chunk_bytes;
  const hsize_t rows = round_up((hsize_t(g.ny) + pieces - 1) / pieces, zfp_block);
  return {std::min(zfp_block, hsize_t(g.nz)), std::min(rows, hsize_t(g.ny)), hsize_t(g.nx)};
}

// The chunk at `origin` of u's planes [first_plane, first_plane + planes), as a full box. HDF5
// pads an edge chunk with its fill value, zero; for ZFP the edge values are repeated instead,
// which zfp encodes in fewer bits than a jump to zero (readers never see the padding).
template <typename T>
std::vector<T> chunk_box(const Field<T>& u, int first_plane, int planes, const hsize_t (&chunk)[3],
                         const hsize_t (&origin)[3], bool repeat_edges) {
  const std::size_t nx = std::size_t(u.nx()), count = std::size_t(chunk[0] * chunk[1]) * nx;
  std::vector<T> box(count, T(0));
  for (hsize_t dz = 0; dz < chunk[0]; ++dz)
    for (hsize_t dy = 0; dy < chunk[1]; ++dy) {
      hsize_t z = origin[0] + dz, y = origin[1] + dy;
      const bool inside = z < hsize_t(planes) && y < hsize_t(u.ny());
      if (!inside && !repeat_edges) continue;
      z = std::min(z, hsize_t(planes - 1));
      y = std::min(y, hsize_t(u.ny() - 1));
      std::memcpy(&box[std::size_t(dz * chunk[1] + dy) * nx], &u(0, int(y), first_plane + int(z)), nx * sizeof(T));
    }
  return box;
}

// As HDF5's shuffle and deflate filters store a chunk: the values' bytes grouped by significance
// (byte b of value e at b*count + e), then zlib's compress2 at `level`, the call HDF5's deflate
// filter makes. Empty on a zlib failure.
template <typename T>
std::vector<unsigned char> gzip_chunk(const std::vector<T>& box, int level) {
  const std::size_t count = box.size();
  std::vector<unsigned char> shuffled(count * sizeof(T));
  const auto* bytes = reinterpret_cast<const unsigned char*>(box.data());
  for (std::size_t e = 0; e < count; ++e)
    for (std::size_t b = 0; b < sizeof(T); ++b) shuffled[b * count + e] = bytes[e * sizeof(T) + b];
  uLongf size = compressBound(uLong(shuffled.size()));
  std::vector<unsigned char> compressed(size);
  if (compress2(compressed.data(), &size, shuffled.data(), uLong(shuffled.size()), level) != Z_OK) return {};
  compressed.resize(size);
  return compressed;
}

// As H5Z-ZFP and then HDF5's Fletcher-32 filter store a chunk: zfp's stream, its checksum after it
// (little-endian, as HDF5 encodes it). Empty on a zfp failure.
template <typename T>
std::vector<unsigned char> zfp_chunk(const std::vector<T>& box, const hsize_t (&chunk)[3], const Compression& c) {
  std::vector<unsigned char> stream = zfp_compress_chunk(box.data(), {chunk[0], chunk[1], chunk[2]}, c);
  if (stream.empty()) return {};
  const std::uint32_t sum = fletcher32(stream.data(), stream.size());
  for (int b = 0; b < 4; ++b) stream.push_back(static_cast<unsigned char>(sum >> (8 * b)));
  return stream;
}

}  // namespace

std::vector<hsize_t> chunk_shape(const Grid& g, std::size_t value_bytes, const Compression& compression) {
  if (compression.is_zfp()) return zfp_chunk_shape(g, value_bytes);
  const std::size_t row = std::size_t(g.nx) * value_bytes;
  const std::size_t plane = row * std::size_t(g.ny);
  if (plane >= target_chunk_bytes) {
    const hsize_t rows = std::clamp<std::size_t>(target_chunk_bytes / row, 1, std::size_t(g.ny));
    return {1, rows, hsize_t(g.nx)};
  }
  const hsize_t planes = std::clamp<std::size_t>(target_chunk_bytes / plane, 1, std::size_t(g.nz));
  return {planes, hsize_t(g.ny), hsize_t(g.nx)};
}

herr_t add_compression_filters(hid_t layout, const Compression& c, bool is_float, const std::vector<hsize_t>& chunk) {
  if (c.codec == Codec::Gzip) {
    // Byte shuffling groups the exponents of neighbouring values, which roughly doubles what gzip saves on floats.
    if (H5Pset_shuffle(layout) < 0) return -1;
    return H5Pset_deflate(layout, unsigned(c.level));
  }
  if (!c.is_zfp()) return 0;
  const std::vector<unsigned> values = zfp_filter_values(c, is_float, {chunk[0], chunk[1], chunk[2]});
  if (H5Pset_filter(layout, kZfpFilterId, H5Z_FLAG_MANDATORY, values.size(), values.data()) < 0) return -1;
  return H5Pset_fletcher32(layout);
}

// Compresses the chunks on every core (gzip on one core runs at ~40 MB/s, zfp at ~200-500 MB/s,
// far below a disk) and hands them to HDF5 whole, in order, from this thread alone (HDF5 is not
// thread-safe here). A batch of a few chunks per core at a time bounds the memory held.
template <typename T>
void write_compressed_chunks(const std::string& path, hid_t dataset, const Field<T>& u, int first_plane, int planes,
                             const std::vector<hsize_t>& shape, const Compression& compression) {
  const hsize_t chunk[3] = {shape[0], shape[1], shape[2]};
  const hsize_t along_z = (hsize_t(planes) + chunk[0] - 1) / chunk[0];
  const hsize_t along_y = (hsize_t(u.ny()) + chunk[1] - 1) / chunk[1];
  const std::int64_t chunks = std::int64_t(along_z * along_y);
  const std::int64_t batch = 4 * std::int64_t(omp_get_max_threads());
  auto origin_of = [&](std::int64_t c, hsize_t(&origin)[3]) {
    origin[0] = hsize_t(c) / along_y * chunk[0];
    origin[1] = hsize_t(c) % along_y * chunk[1];
    origin[2] = 0;
  };
  std::vector<std::vector<unsigned char>> compressed(std::size_t(std::min(batch, chunks)));
  for (std::int64_t first = 0; first < chunks; first += batch) {
    const std::int64_t count = std::min(batch, chunks - first);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < count; ++c) {
      hsize_t origin[3];
      origin_of(first + c, origin);
      const auto box = chunk_box(u, first_plane, planes, chunk, origin, compression.is_zfp());
      compressed[std::size_t(c)] =
          compression.is_zfp() ? zfp_chunk(box, chunk, compression) : gzip_chunk(box, compression.level);
    }
    for (std::int64_t c = 0; c < count; ++c) {
      const auto& data = compressed[std::size_t(c)];
      if (data.empty())
        throw RunError("writing " + path + ": " + (compression.is_zfp() ? "zfp" : "zlib") +
                       " failed to compress a chunk");
      hsize_t origin[3];
      origin_of(first + c, origin);
      // Filter mask 0: every filter of the dataset has been applied.
      if (H5Dwrite_chunk(dataset, H5P_DEFAULT, 0, origin, data.size(), data.data()) < 0)
        throw RunError("writing " + path + ": dataset u chunk: " + h5::take_error_stack());
    }
  }
}

template <typename T>
void require_bound_within_precision(const std::string& path, const Field<T>& u, int first_plane, int planes,
                                    const Compression& c) {
  if (c.codec != Codec::ZfpAccuracy) return;
  const T* begin = u.data() + u.index(0, 0, first_plane);
  const std::size_t count = std::size_t(planes) * std::size_t(u.ny()) * std::size_t(u.nx());
  T largest = 0;
#pragma omp parallel for reduction(max : largest)
  for (std::size_t n = 0; n < count; ++n) largest = std::max(largest, std::abs(begin[n]));
  // The spacing of T's values at `largest`: zfp's values come back rounded to it.
  const double resolution = double(std::nextafter(largest, std::numeric_limits<T>::infinity()) - largest);
  if (c.bound >= 2 * resolution) return;
  char text[240];
  std::snprintf(text, sizeof text,
                "--compress %s cannot be held: %s values as large as %.3g are stored only to %.3g, so use a bound "
                "of at least %.2g, or --precision double",
                compression_name(c).c_str(), std::is_same_v<T, float> ? "float" : "double", double(largest), resolution,
                2 * resolution);
  throw RunError("writing " + path + ": " + text);
}

std::uint32_t fletcher32(const unsigned char* bytes, std::size_t size) {
  // Sums of big-endian 16-bit words, folded before they can overflow (360 words at a time).
  std::uint32_t sum1 = 0, sum2 = 0;
  for (std::size_t words = size / 2; words > 0;) {
    std::size_t run = std::min<std::size_t>(words, 360);
    words -= run;
    for (; run > 0; --run, bytes += 2) {
      sum1 += (std::uint32_t(bytes[0]) << 8) | bytes[1];
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  if (size % 2) {
    sum1 += std::uint32_t(*bytes) << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  return (sum2 << 16) | sum1;
}

template void require_bound_within_precision<float>(const std::string&, const Field<float>&, int, int,
                                                    const Compression&);
template void require_bound_within_precision<double>(const std::string&, const Field<double>&, int, int,
                                                     const Compression&);
template void write_compressed_chunks<float>(const std::string&, hid_t, const Field<float>&, int, int,
                                             const std::vector<hsize_t>&, const Compression&);
template void write_compressed_chunks<double>(const std::string&, hid_t, const Field<double>&, int, int,
                                              const std::vector<hsize_t>&, const Compression&);

}  // namespace heat
