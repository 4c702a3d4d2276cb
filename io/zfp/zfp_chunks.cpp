#include "io/zfp/zfp_chunks.hpp"

#include <hdf5.h>
#include <zfp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <type_traits>

#ifndef ZFP_VERSION_TWEAK
#error "heatrk4's ZFP chunks need zfp 1.0 or later (Debian 12: libzfp-dev)"
#endif

namespace heat {

bool built_with_zfp() { return true; }

namespace {

// H5Z-ZFP's first cd_value: zfp's version as four hex digits, zfp's codec, the filter's version
// (1.1.0, the one Debian 12 ships). Readers check the codec against their own zfp.
constexpr unsigned kH5zZfpVersion = 0x110;
constexpr unsigned kZfpVersionDigits =
    (ZFP_VERSION_MAJOR << 12) | (ZFP_VERSION_MINOR << 8) | (ZFP_VERSION_PATCH << 4) | ZFP_VERSION_TWEAK;
constexpr unsigned kVersionWord = (kZfpVersionDigits << 16) | (ZFP_CODEC << 12) | kH5zZfpVersion;
// The version word and zfp's full header (at most ZFP_HEADER_MAX_BITS) in 32-bit words.
constexpr std::size_t kMaxFilterValues = 1 + (ZFP_HEADER_MAX_BITS + 31) / 32;

using Stream = std::unique_ptr<zfp_stream, decltype(&zfp_stream_close)>;
using Field = std::unique_ptr<zfp_field, decltype(&zfp_field_free)>;
using Bits = std::unique_ptr<bitstream, decltype(&stream_close)>;

// The chunk as zfp sees it: H5Z-ZFP drops the extents of 1, so a (1, ny, nx) chunk is 2-D. Its
// values lie `strides` apart in memory (zfp reads the same values in the same order either way,
// so a chunk inside a field gives the same stream as a copy of it).
Field chunk_field(void* values, zfp_type type, const ChunkShape& chunk, const ChunkStrides& strides) {
  const std::ptrdiff_t steps[3] = {strides.plane, strides.row, 1};
  std::size_t used[3], count = 0;
  std::ptrdiff_t step[3];
  for (int axis = 0; axis < 3; ++axis)
    if (chunk[axis] > 1) {
      used[count] = chunk[axis];
      step[count++] = steps[axis];
    }
  zfp_field* field = nullptr;
  switch (count) {
    case 1:
      field = zfp_field_1d(values, type, used[0]);
      if (field) zfp_field_set_stride_1d(field, step[0]);
      break;
    case 2:
      field = zfp_field_2d(values, type, used[1], used[0]);
      if (field) zfp_field_set_stride_2d(field, step[1], step[0]);
      break;
    case 3:
      field = zfp_field_3d(values, type, used[2], used[1], used[0]);
      if (field) zfp_field_set_stride_3d(field, step[2], step[1], step[0]);
      break;
    default:
      throw std::logic_error("a ZFP chunk needs 1 to 3 extents above 1");
  }
  return Field(field, zfp_field_free);
}

void set_mode(zfp_stream* stream, const Compression& c) {
  if (c.codec == Codec::ZfpReversible)
    zfp_stream_set_reversible(stream);
  else
    zfp_stream_set_accuracy(stream, c.bound);
}

// Compresses `field` in the mode `stream` holds into `out` (capacity bytes, at least
// zfp_stream_maximum_size); the stream's size, 0 when zfp fails.
std::size_t compress_into(zfp_stream* stream, zfp_field* field, void* out, std::size_t capacity) {
  Bits bits(stream_open(out, capacity), stream_close);
  if (!bits) return 0;
  zfp_stream_set_bit_stream(stream, bits.get());
  zfp_stream_rewind(stream);
  const std::size_t size = zfp_compress(stream, field);
  zfp_stream_set_bit_stream(stream, nullptr);
  return size;
}

// HDF5 calls filters from C: failures are pushed on its error stack and returned as 0.
size_t fail(const char* why) {
  H5Epush2(H5E_DEFAULT, __FILE__, "zfp_filter", __LINE__, H5E_ERR_CLS, H5E_PLINE, H5E_CANTFILTER, "%s", why);
  return 0;
}

// The largest chunk decoded: HDF5's own limit on a chunk's size.
constexpr std::size_t kMaxChunkBytes = std::size_t(4) << 30;

// What a dataset's cd_values say of each chunk: zfp's mode (in `stream`), the chunk's shape and
// value type (in `field`), its values and their size.
struct StoredHeader {
  Stream stream{nullptr, zfp_stream_close};
  Field field{nullptr, zfp_field_free};
  std::size_t count = 0, value_bytes = 0;
};

// Reads H5Z-ZFP's cd_values into `header`; nullptr, or why they cannot be read.
const char* read_stored_header(std::size_t cd_count, const unsigned cd_values[], StoredHeader& header) {
  if (cd_count < 2 || cd_count > kMaxFilterValues) return "ZFP: the dataset's filter values are not H5Z-ZFP's";
  if (((cd_values[0] >> 12) & 0xF) > ZFP_CODEC) return "ZFP: the data needs a newer zfp codec than this one";
  // The header is read from a copy: zfp's bit stream reads whole words.
  unsigned words[kMaxFilterValues] = {};
  std::copy(cd_values + 1, cd_values + cd_count, words);
  Bits bits(stream_open(words, sizeof words), stream_close);
  header.stream.reset(zfp_stream_open(bits.get()));
  header.field.reset(zfp_field_alloc());
  if (!bits || !header.stream || !header.field) return "ZFP: out of memory";
  if (!zfp_read_header(header.stream.get(), header.field.get(), ZFP_HEADER_FULL))
    return "ZFP: the stored header is damaged";
  zfp_stream_set_bit_stream(header.stream.get(), nullptr);
  header.value_bytes = zfp_type_size(zfp_field_type(header.field.get()));
  header.count = zfp_field_size(header.field.get(), nullptr);
  if (header.value_bytes == 0 || header.count == 0 || header.count > kMaxChunkBytes / header.value_bytes)
    return "ZFP: the stored header describes no chunk heatrk4 can hold";
  return nullptr;
}

// Decodes one chunk's stream into `values` (header.count values of the stored type); nullptr,
// or why not. zfp reads past a damaged or cut stream without checking, so it reads from a copy as
// long as the longest stream of this chunk could be; a stream that ran past the stored bytes is damaged.
const char* decode(StoredHeader& header, const unsigned char* bytes, std::size_t size, void* values) {
  std::vector<unsigned char> input(std::max(size, zfp_stream_maximum_size(header.stream.get(), header.field.get())), 0);
  std::memcpy(input.data(), bytes, size);
  Bits bits(stream_open(input.data(), input.size()), stream_close);
  if (!bits) return "ZFP: out of memory";
  zfp_field_set_pointer(header.field.get(), values);
  zfp_stream_set_bit_stream(header.stream.get(), bits.get());
  zfp_stream_rewind(header.stream.get());
  const std::size_t read = zfp_decompress(header.stream.get(), header.field.get());
  zfp_stream_set_bit_stream(header.stream.get(), nullptr);
  if (read == 0 || read > size) return "ZFP: the chunk's stream is damaged (it ends before its values do)";
  return nullptr;
}

size_t filter(unsigned flags, size_t cd_count, const unsigned cd_values[], size_t nbytes, size_t* buf_size,
              void** buf) try {
  StoredHeader header;
  if (const char* why = read_stored_header(cd_count, cd_values, header)) return fail(why);
  const std::size_t bytes = header.count * header.value_bytes;
  if (flags & H5Z_FLAG_REVERSE) {
    void* values = H5allocate_memory(bytes, false);
    if (!values) return fail("ZFP: out of memory");
    if (const char* why = decode(header, static_cast<const unsigned char*>(*buf), nbytes, values)) {
      H5free_memory(values);
      return fail(why);
    }
    H5free_memory(*buf);
    *buf = values;
    *buf_size = bytes;
    return bytes;
  }
  if (nbytes != bytes) return fail("ZFP: the chunk is not the size the stored header gives");
  zfp_field_set_pointer(header.field.get(), *buf);
  const std::size_t capacity = zfp_stream_maximum_size(header.stream.get(), header.field.get());
  void* out = H5allocate_memory(capacity, false);
  if (!out) return fail("ZFP: out of memory");
  const std::size_t size = compress_into(header.stream.get(), header.field.get(), out, capacity);
  if (size == 0) {
    H5free_memory(out);
    return fail("ZFP: zfp failed to compress a chunk");
  }
  H5free_memory(*buf);
  *buf = out;
  *buf_size = capacity;
  return size;
} catch (const std::exception& e) {
  return fail(e.what());
}

const H5Z_class2_t kZfpFilter = {
    H5Z_CLASS_T_VERS, H5Z_filter_t(kZfpFilterId), 1, 1, "H5Z-ZFP-1.1.0 (ZFP-1.0.0)", nullptr, nullptr, filter};

}  // namespace

std::vector<unsigned> zfp_filter_values(const Compression& c, bool is_float, const ChunkShape& chunk) {
  unsigned values[kMaxFilterValues] = {kVersionWord};
  Field field = chunk_field(nullptr, is_float ? zfp_type_float : zfp_type_double, chunk, box_strides(chunk));
  Bits bits(stream_open(values + 1, sizeof values - sizeof values[0]), stream_close);
  Stream stream(zfp_stream_open(bits.get()), zfp_stream_close);
  if (!bits || !stream) throw std::bad_alloc();
  set_mode(stream.get(), c);
  const std::size_t header_bits = zfp_write_header(stream.get(), field.get(), ZFP_HEADER_FULL);
  if (header_bits == 0) throw std::logic_error("zfp_write_header failed");
  zfp_stream_flush(stream.get());
  return std::vector<unsigned>(values, values + 1 + (header_bits + 31) / 32);
}

std::size_t zfp_chunk_capacity(const Compression& c, bool is_float, const ChunkShape& chunk) {
  Field field = chunk_field(nullptr, is_float ? zfp_type_float : zfp_type_double, chunk, box_strides(chunk));
  Stream stream(zfp_stream_open(nullptr), zfp_stream_close);
  if (!field || !stream) throw std::bad_alloc();
  set_mode(stream.get(), c);
  return zfp_stream_maximum_size(stream.get(), field.get());
}

template <typename T>
std::size_t zfp_compress_chunk(const T* values, const ChunkStrides& strides, const ChunkShape& chunk,
                               const Compression& c, unsigned char* out, std::size_t capacity) {
  constexpr zfp_type type = std::is_same_v<T, float> ? zfp_type_float : zfp_type_double;
  Field field = chunk_field(const_cast<T*>(values), type, chunk, strides);
  Stream stream(zfp_stream_open(nullptr), zfp_stream_close);
  if (!field || !stream) return 0;
  set_mode(stream.get(), c);
  return compress_into(stream.get(), field.get(), out, capacity);
}

template std::size_t zfp_compress_chunk<float>(const float*, const ChunkStrides&, const ChunkShape&, const Compression&,
                                               unsigned char*, std::size_t);
template std::size_t zfp_compress_chunk<double>(const double*, const ChunkStrides&, const ChunkShape&,
                                                const Compression&, unsigned char*, std::size_t);

std::string zfp_decode_chunk(const std::vector<unsigned>& cd_values, const unsigned char* bytes, std::size_t size,
                             double* values, std::size_t count) {
  StoredHeader header;
  if (const char* why = read_stored_header(cd_values.size(), cd_values.data(), header)) return why;
  if (header.count != count) return "ZFP: the stored header's chunk is not the dataset's";
  if (header.value_bytes == sizeof(double)) {
    const char* why = decode(header, bytes, size, values);
    return why ? why : "";
  }
  std::vector<float> stored(count);
  if (const char* why = decode(header, bytes, size, stored.data())) return why;
  std::copy(stored.begin(), stored.end(), values);
  return {};
}

zfp_block::Mode zfp_mode_for(const Compression& c) {
  Stream stream(zfp_stream_open(nullptr), zfp_stream_close);
  if (!stream) throw std::bad_alloc();
  set_mode(stream.get(), c);
  return {c.codec == Codec::ZfpReversible, stream->minexp, int(stream->maxprec)};
}

unsigned zfp_stream_word_bits() { return unsigned(stream_word_bits); }

void register_zfp_filter() {
  if (H5Zregister(&kZfpFilter) < 0) throw std::runtime_error("cannot register the ZFP filter with HDF5");
}

}  // namespace heat
