#include "io/chunk_filters.hpp"

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/errors.hpp"
#include "io/hdf5_chunks.hpp"
#include "io/zfp/zfp_chunks.hpp"

namespace heat {

namespace {

std::string filter_name(H5Z_filter_t filter) {
  switch (filter) {
    case H5Z_FILTER_SHUFFLE: return "byte shuffle";
    case H5Z_FILTER_DEFLATE: return "deflate";
    case H5Z_FILTER_FLETCHER32: return "Fletcher-32";
    default: return filter == H5Z_filter_t(kZfpFilterId) ? "H5Z-ZFP" : "filter " + std::to_string(filter);
  }
}

// Deflate's input when the chunk was written, `expected` bytes, from its zlib stream.
std::string inflate_exactly(const std::vector<unsigned char>& in, std::size_t size, std::size_t expected,
                            std::vector<unsigned char>& out) {
  out.resize(expected + 1);  // a byte more, so a stream that decodes to more than expected shows
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return "zlib cannot start";
  stream.next_in = const_cast<unsigned char*>(in.data());
  stream.avail_in = uInt(size);
  stream.next_out = out.data();
  stream.avail_out = uInt(out.size());
  const int status = inflate(&stream, Z_FINISH);
  const std::size_t produced = stream.total_out;
  const std::string message = stream.msg ? stream.msg : "";
  inflateEnd(&stream);
  if (status != Z_STREAM_END)
    return "its deflate stream is damaged or cut short (zlib: " + (message.empty() ? "incomplete" : message) + ")";
  if (produced != expected)
    return "its deflate stream decodes to " + std::to_string(produced) + " bytes, not the chunk's " +
           std::to_string(expected) + " (the file is damaged)";
  out.resize(expected);
  return {};
}

// HDF5's shuffle filter stores byte b of value e at b*count + e.
void unshuffle(const std::vector<unsigned char>& in, std::size_t value_bytes, std::vector<unsigned char>& out) {
  const std::size_t count = in.size() / value_bytes;
  out.resize(in.size());
  for (std::size_t e = 0; e < count; ++e)
    for (std::size_t b = 0; b < value_bytes; ++b) out[e * value_bytes + b] = in[b * count + e];
}

}  // namespace

ChunkFilters read_chunk_filters(hid_t layout, hid_t type, std::size_t chunk_values, const std::string& where) {
  ChunkFilters f;
  f.chunk_values = chunk_values;
  f.value_bytes = H5Tget_size(type);
  f.is_float = H5Tequal(type, H5T_NATIVE_FLOAT) > 0;
  f.is_double = H5Tequal(type, H5T_NATIVE_DOUBLE) > 0;
  const std::size_t value_bytes = chunk_values * f.value_bytes;
  if (f.value_bytes == 0 || value_bytes / f.value_bytes != chunk_values || value_bytes > (std::size_t(4) << 30))
    throw InputError(where + " is chunked in chunks of " + std::to_string(chunk_values) + " values of " +
                     std::to_string(f.value_bytes) + " bytes, past HDF5's 4 GiB a chunk (the file is damaged)");
  const int count = H5Pget_nfilters(layout);
  // The size of a chunk's bytes as each filter took them, while it is known (0 after a compressor).
  std::size_t size = value_bytes;
  for (int i = 0; i < count; ++i) {
    unsigned flags = 0, config = 0, values[16];
    std::size_t value_count = 16;
    const H5Z_filter_t filter = H5Pget_filter2(layout, unsigned(i), &flags, &value_count, values, 0, nullptr, &config);
    const bool known = filter == H5Z_FILTER_SHUFFLE || filter == H5Z_FILTER_DEFLATE ||
                       filter == H5Z_FILTER_FLETCHER32 || filter == H5Z_filter_t(kZfpFilterId);
    if (!known)
      throw InputError(where + " is stored through HDF5 " + filter_name(filter) +
                       ", which heatrk4 does not decode: it reads datasets stored uncompressed or through byte "
                       "shuffle, deflate (gzip), Fletcher-32 and H5Z-ZFP");
    const bool after_a_compressor = size == 0;
    if ((filter == H5Z_filter_t(kZfpFilterId) && i != 0) ||
        (after_a_compressor && filter != H5Z_FILTER_FLETCHER32) || value_count > 16)
      throw InputError(where + " applies " + filter_name(filter) + " where heatrk4 cannot decode it (filter " +
                       std::to_string(i + 1) + " of " + std::to_string(count) + ")");
    f.filters.push_back(filter);
    if (filter == H5Z_filter_t(kZfpFilterId)) f.zfp_values.assign(values, values + value_count);
    if (filter == H5Z_FILTER_DEFLATE || filter == H5Z_filter_t(kZfpFilterId)) size = 0;
    if (filter == H5Z_FILTER_FLETCHER32 && size != 0) size += 4;
  }
  f.exact_stored_bytes = size;
  // A compressor's worst case (zlib's compressBound, zfp's largest stream) is a little over the
  // values' size; twice that bounds what a damaged index entry can make a reader allocate.
  f.most_stored_bytes = size ? size : 2 * value_bytes + 4096;
  return f;
}

std::string index_entry_fault(const ChunkFilters& f, unsigned filter_mask, hsize_t stored_bytes) {
  if (filter_mask != 0) {
    std::string skipped;
    for (unsigned bit = 0; bit < 32; ++bit)
      if (filter_mask & (1u << bit))
        skipped += (skipped.empty() ? "" : ", ") +
                   (bit < f.filters.size() ? filter_name(f.filters[bit]) : "filter " + std::to_string(bit + 1));
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%x", filter_mask);
    return "its index entry marks " + skipped + " skipped (filter mask " + mask +
           "): heatrk4 reads a chunk only through every filter of its dataset (the file is damaged)";
  }
  if (stored_bytes == 0) return "its index entry gives it no bytes (the file is damaged)";
  if (f.exact_stored_bytes && stored_bytes != f.exact_stored_bytes)
    return "its index entry gives it " + std::to_string(stored_bytes) + " bytes, but every chunk of this dataset takes " +
           std::to_string(f.exact_stored_bytes) + " (the file is damaged)";
  if (stored_bytes > f.most_stored_bytes)
    return "its index entry gives it " + std::to_string(stored_bytes) + " bytes, more than a chunk of " +
           std::to_string(f.chunk_values * f.value_bytes) + " bytes of values takes compressed (the file is damaged)";
  return {};
}

std::string decode_chunk(const ChunkFilters& f, std::vector<unsigned char>& stored, double* values) {
  const std::size_t value_bytes = f.chunk_values * f.value_bytes;
  std::vector<unsigned char> decoded;
  std::size_t size = stored.size();
  for (std::size_t i = f.filters.size(); i-- > 0;) {
    const H5Z_filter_t filter = f.filters[i];
    if (filter == H5Z_FILTER_FLETCHER32) {
      if (size < 4) return "it is shorter than its Fletcher-32 checksum (the file is damaged)";
      size -= 4;
      std::uint32_t sum = 0;
      for (int b = 0; b < 4; ++b) sum |= std::uint32_t(stored[size + std::size_t(b)]) << (8 * b);
      if (sum != fletcher32(stored.data(), size))
        return "its Fletcher-32 checksum does not match (the chunk is damaged)";
    } else if (filter == H5Z_FILTER_DEFLATE) {
      // Every filter before deflate keeps the values' size (read_chunk_filters refuses others).
      if (std::string fault = inflate_exactly(stored, size, value_bytes, decoded); !fault.empty()) return fault;
      stored.swap(decoded);
      size = stored.size();
    } else if (filter == H5Z_FILTER_SHUFFLE) {
      if (size != value_bytes)
        return "it holds " + std::to_string(size) + " bytes where its " + std::to_string(value_bytes) +
               " bytes of values belong (the file is damaged)";
      stored.resize(size);
      unshuffle(stored, f.value_bytes, decoded);
      stored.swap(decoded);
    } else {  // H5Z-ZFP, always the first filter: its values come back as doubles
      return zfp_decode_chunk(f.zfp_values, stored.data(), size, values, f.chunk_values);
    }
  }
  if (size != value_bytes)
    return "it holds " + std::to_string(size) + " bytes where its " + std::to_string(value_bytes) +
           " bytes of values belong (the file is damaged)";
  stored.resize(size);
  if (f.is_float) {
    const auto* floats = reinterpret_cast<const float*>(stored.data());
    for (std::size_t n = 0; n < f.chunk_values; ++n) values[n] = double(floats[n]);
  } else if (f.is_double) {
    std::memcpy(values, stored.data(), value_bytes);
  }
  return {};
}

}  // namespace heat
