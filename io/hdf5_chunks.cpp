#include "io/hdf5_chunks.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <type_traits>

#include "io/chunk_pipeline.hpp"
#include "io/hdf5_support.hpp"
#include "io/zfp/zfp_chunks.hpp"
#include "core/errors.hpp"
#include "io/zfp/gpu_zfp_encoder.hpp"

namespace heat {

namespace {

using h5::Handle;

constexpr std::size_t target_chunk_bytes = std::size_t(4) << 20;
constexpr hsize_t zfp_block = kZfpBlockEdge;

hsize_t round_up(hsize_t value, hsize_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// The length of `count` items split into as few near-equal runs of at most `most` as there can
// be: the last chunk along an axis is then as full as the others, not padded by up to a chunk.
hsize_t even_runs(hsize_t count, hsize_t most) {
  const hsize_t runs = (count + most - 1) / most;
  return (count + runs - 1) / runs;
}

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

// Where a chunk lies among u's planes [first_plane, first_plane + planes).
struct ChunkPlace {
  hsize_t origin[3];
  bool whole;  // inside u's planes on every axis: no padding
};

// Chunk c of the chunks tiling `planes` planes of `ny` rows, in order of z, then y.
ChunkPlace place_of_chunk(std::int64_t c, const hsize_t (&chunk)[3], int planes, int ny) {
  const hsize_t along_y = (hsize_t(ny) + chunk[1] - 1) / chunk[1];
  ChunkPlace place{{hsize_t(c) / along_y * chunk[0], hsize_t(c) % along_y * chunk[1], 0}, false};
  place.whole = place.origin[0] + chunk[0] <= hsize_t(planes) && place.origin[1] + chunk[1] <= hsize_t(ny);
  return place;
}

// The chunk at `place` as a full box, into `box`. HDF5 pads an edge chunk with its fill value,
// zero; for ZFP the edge values are repeated instead, which zfp encodes in fewer bits than a jump
// to zero (readers never see the padding).
template <typename T>
void gather_chunk(const Field<T>& u, int first_plane, int planes, const hsize_t (&chunk)[3], const ChunkPlace& place,
                  bool repeat_edges, T* box) {
  const std::size_t nx = std::size_t(u.nx());
  for (hsize_t dz = 0; dz < chunk[0]; ++dz)
    for (hsize_t dy = 0; dy < chunk[1]; ++dy) {
      T* row = box + std::size_t(dz * chunk[1] + dy) * nx;
      hsize_t z = place.origin[0] + dz, y = place.origin[1] + dy;
      const bool inside = z < hsize_t(planes) && y < hsize_t(u.ny());
      if (!inside && !repeat_edges) {
        std::fill(row, row + nx, T(0));
        continue;
      }
      z = std::min(z, hsize_t(planes - 1));
      y = std::min(y, hsize_t(u.ny() - 1));
      std::memcpy(row, &u(0, int(y), first_plane + int(z)), nx * sizeof(T));
    }
}

// A thread's own space for a chunk's box and its shuffled bytes, reused from chunk to chunk.
template <typename T>
struct ChunkScratch {
  std::vector<T> box;
  std::vector<unsigned char> shuffled;
};

// A chunk's compressed bytes, as HDF5 stores them, in a buffer reused from chunk to chunk and never
// zeroed (the codecs write every byte of `size`): a buffer per chunk would be faulted in page by
// page and unmapped again, each fault under the process's one address-space lock, which stops the
// threads scaling.
struct CompressedChunk {
  std::unique_ptr<unsigned char[]> bytes;
  std::size_t size = 0;
};

// As HDF5's shuffle and deflate filters store a chunk: the values' bytes grouped by significance
// (byte b of value e at b*count + e), then zlib's compress2 at `level`, the call HDF5's deflate
// filter makes. The compressed size; 0 on a zlib failure.
template <typename T>
std::size_t gzip_chunk(const T* box, std::size_t count, int level, std::vector<unsigned char>& shuffled,
                       unsigned char* out, std::size_t capacity) {
  shuffled.resize(count * sizeof(T));
  const auto* bytes = reinterpret_cast<const unsigned char*>(box);
  for (std::size_t e = 0; e < count; ++e)
    for (std::size_t b = 0; b < sizeof(T); ++b) shuffled[b * count + e] = bytes[e * sizeof(T) + b];
  uLongf size = uLongf(capacity);
  if (compress2(out, &size, shuffled.data(), uLong(shuffled.size()), level) != Z_OK) return 0;
  return size;
}

// HDF5's Fletcher-32 filter's checksum of a chunk's `size` bytes, written after them (little-endian,
// as HDF5 encodes it); the stored size.
std::size_t append_fletcher32(unsigned char* bytes, std::size_t size) {
  const std::uint32_t sum = fletcher32(bytes, size);
  for (int b = 0; b < 4; ++b) bytes[size + b] = static_cast<unsigned char>(sum >> (8 * b));
  return size + 4;
}

// Hands a finished chunk at `origin` to HDF5; filter mask 0: every filter of the dataset has been applied.
void write_chunk(const std::string& path, hid_t dataset, const hsize_t (&origin)[3], std::size_t size,
                 const unsigned char* bytes) {
  if (H5Dwrite_chunk(dataset, H5P_DEFAULT, 0, origin, size, bytes) < 0)
    throw RunError("writing " + path + ": dataset u chunk: " + h5::take_error_stack());
}

// As H5Z-ZFP and then HDF5's Fletcher-32 filter store a chunk: zfp's stream, its checksum after it
// (little-endian, as HDF5 encodes it). `out` holds the stream's capacity and 4 bytes more. The
// stored size; 0 on a zfp failure.
template <typename T>
std::size_t zfp_chunk(const T* values, const ChunkStrides& strides, const hsize_t (&chunk)[3], const Compression& c,
                      unsigned char* out, std::size_t capacity) {
  const std::size_t size = zfp_compress_chunk(values, strides, {chunk[0], chunk[1], chunk[2]}, c, out, capacity - 4);
  return size == 0 ? 0 : append_fletcher32(out, size);
}

// The most bytes a chunk of T values takes compressed (a ZFP chunk with its checksum).
template <typename T>
std::size_t compressed_capacity(const hsize_t (&chunk)[3], const Compression& c) {
  const std::size_t chunk_values = std::size_t(chunk[0] * chunk[1] * chunk[2]);
  if (c.is_zfp()) return zfp_chunk_capacity(c, std::is_same_v<T, float>, {chunk[0], chunk[1], chunk[2]}) + 4;
  return compressBound(uLong(chunk_values * sizeof(T)));
}

// A ZFP dataset's chunks encoded on the run's GPU, where the writer has an encoder (io/zfp/gpu_zfp_encoder.hpp),
// and written in order. False, with nothing written, where the host's cores are left to do it: a
// chunk flat along an axis (H5Z-ZFP stores it in fewer dimensions), a GPU without the memory.
template <typename T>
bool write_gpu_encoded_chunks(const std::string& path, hid_t dataset, const SnapshotSource<T>& u, int first_plane,
                              int planes, const hsize_t (&chunk)[3], const Compression& compression, GpuZfpEncoder* gpu) {
  if (!gpu || !compression.is_zfp() || chunk[0] < 2 || chunk[1] < 2 || chunk[2] < 2) return false;
  const zfp_block::Mode mode = zfp_mode_for(compression);
  // The snapshot's own copy on the GPU where the run keeps it there, else u's planes uploaded.
  const T* on_device = u.on_device();
  const T* values = on_device ? on_device + u.index(0, 0, first_plane) : &u.host()(0, 0, first_plane);
  const ChunkedPlanes<T> source{values, u.nx(), u.ny(), planes, {chunk[0], chunk[1], chunk[2]}, on_device != nullptr};
  std::vector<std::size_t> stored;
  return gpu->encode(source, mode, zfp_stream_word_bits(), [&](const EncodedChunks& batch) {
    // The checksums on every core (a reversible snapshot's streams are a third of the field), the
    // writes in order.
    stored.resize(std::size_t(batch.count));
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < batch.count; ++i)
      stored[std::size_t(i)] = append_fletcher32(batch.bytes + batch.offsets[i], batch.sizes[i]);
    for (int i = 0; i < batch.count; ++i)
      write_chunk(path, dataset, place_of_chunk(batch.first + i, chunk, planes, u.ny()).origin,
                  stored[std::size_t(i)], batch.bytes + batch.offsets[i]);
  });
}

}  // namespace

std::vector<hsize_t> chunk_shape(const Grid& g, std::size_t value_bytes, const Compression& compression) {
  if (compression.is_zfp()) return zfp_chunk_shape(g, value_bytes);
  const std::size_t row = std::size_t(g.nx) * value_bytes;
  const std::size_t plane = row * std::size_t(g.ny);
  if (plane >= target_chunk_bytes) {
    const hsize_t rows = std::clamp<std::size_t>(target_chunk_bytes / row, 1, std::size_t(g.ny));
    return {1, even_runs(hsize_t(g.ny), rows), hsize_t(g.nx)};
  }
  const hsize_t planes = std::clamp<std::size_t>(target_chunk_bytes / plane, 1, std::size_t(g.nz));
  return {even_runs(hsize_t(g.nz), planes), hsize_t(g.ny), hsize_t(g.nx)};
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

// Compresses the chunks on every core (gzip on one core runs at ~40 MB/s, zfp at ~250-550 MB/s,
// far below a disk) and hands them to HDF5 whole, in order, one call at a time (HDF5 serialises
// its calls anyway), while the next chunks are compressed. A whole ZFP chunk is compressed where
// it lies in u; only edge chunks and gzip's are copied out first.
template <typename T>
void write_compressed_chunks(const std::string& path, hid_t dataset, const SnapshotSource<T>& source, int first_plane,
                             int planes, const std::vector<hsize_t>& shape, const Compression& compression,
                             GpuZfpEncoder* gpu) {
  const hsize_t chunk[3] = {shape[0], shape[1], shape[2]};
  if (write_gpu_encoded_chunks(path, dataset, source, first_plane, planes, chunk, compression, gpu)) return;
  const Field<T>& u = source.host();
  const hsize_t along_z = (hsize_t(planes) + chunk[0] - 1) / chunk[0];
  const hsize_t along_y = (hsize_t(u.ny()) + chunk[1] - 1) / chunk[1];
  const std::int64_t chunks = std::int64_t(along_z * along_y);
  const auto place_of = [&](std::int64_t c) { return place_of_chunk(c, chunk, planes, u.ny()); };
  const std::size_t chunk_values = std::size_t(chunk[0] * chunk[1] * chunk[2]);
  const std::size_t capacity = compressed_capacity<T>(chunk, compression);
  const ChunkStrides in_field{std::ptrdiff_t(u.nx()), std::ptrdiff_t(u.nx()) * u.ny()};
  const ChunkStrides in_box = box_strides({chunk[0], chunk[1], chunk[2]});
  // A few chunks a thread in flight: enough that a slow chunk holds no thread up, and a bound on
  // the memory held.
  const std::size_t workers = std::size_t(pipeline_workers());
  std::vector<CompressedChunk> slots(std::min(4 * workers, std::size_t(chunks)));
  std::vector<ChunkScratch<T>> scratch(workers);
  const auto compress = [&](std::int64_t c, std::size_t slot, int worker) {
    CompressedChunk& out = slots[slot];
    if (!out.bytes) out.bytes.reset(new unsigned char[capacity]);
    const ChunkPlace place = place_of(c);
    const T* values = &u(0, int(place.origin[1]), first_plane + int(place.origin[0]));
    if (!(compression.is_zfp() && place.whole)) {
      std::vector<T>& box = scratch[std::size_t(worker)].box;
      box.resize(chunk_values);
      gather_chunk(u, first_plane, planes, chunk, place, compression.is_zfp(), box.data());
      values = box.data();
    }
    out.size = compression.is_zfp()
                   ? zfp_chunk(values, place.whole ? in_field : in_box, chunk, compression, out.bytes.get(), capacity)
                   : gzip_chunk(values, chunk_values, compression.level, scratch[std::size_t(worker)].shuffled,
                                out.bytes.get(), capacity);
    if (out.size == 0)
      throw RunError("writing " + path + ": " + (compression.is_zfp() ? "zfp" : "zlib") +
                     " failed to compress a chunk");
  };
  const auto write = [&](std::int64_t c, std::size_t slot) {
    write_chunk(path, dataset, place_of(c).origin, slots[slot].size, slots[slot].bytes.get());
  };
  run_chunk_pipeline(chunks, slots.size(), compress, write);
}

template <typename T>
void require_bound_within_precision(const std::string& path, const SnapshotSource<T>& u, int first_plane, int planes,
                                    const Compression& c, GpuZfpEncoder* gpu) {
  if (c.codec != Codec::ZfpAccuracy) return;
  const std::size_t first = u.index(0, 0, first_plane);
  const std::size_t count = std::size_t(planes) * std::size_t(u.ny()) * std::size_t(u.nx());
  T largest = 0;
  if (const T* on_device = u.on_device(); gpu && on_device) {
    largest = T(gpu->largest_magnitude(on_device + first, count));
  } else {
    const T* begin = u.host().data() + first;
#pragma omp parallel for reduction(max : largest)
    for (std::size_t n = 0; n < count; ++n) largest = std::max(largest, std::abs(begin[n]));
  }
  constexpr bool is_float = std::is_same_v<T, float>;
  if (double(largest) < smallest_magnitude_unheld(c, is_float)) return;
  throw RunError("writing " + path + ": " + unheld_bound_reason(c, is_float, double(largest)));
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

template void require_bound_within_precision<float>(const std::string&, const SnapshotSource<float>&, int, int,
                                                    const Compression&, GpuZfpEncoder*);
template void require_bound_within_precision<double>(const std::string&, const SnapshotSource<double>&, int, int,
                                                    const Compression&, GpuZfpEncoder*);
template void write_compressed_chunks<float>(const std::string&, hid_t, const SnapshotSource<float>&, int, int,
                                             const std::vector<hsize_t>&, const Compression&, GpuZfpEncoder*);
template void write_compressed_chunks<double>(const std::string&, hid_t, const SnapshotSource<double>&, int, int,
                                             const std::vector<hsize_t>&, const Compression&, GpuZfpEncoder*);

}  // namespace heat
