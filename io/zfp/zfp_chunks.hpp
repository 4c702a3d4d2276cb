// ZFP-compressed chunks exactly as the H5Z-ZFP filter (HDF5 filter 32013, LLNL's plugin, 1.1.0)
// stores them: the dataset's cd_values hold a version word and zfp's full header for one chunk
// (its shape, value type and mode); each chunk holds zfp's stream of its values and nothing else.
// heatrk4 compresses chunks itself on every core and writes them with H5Dwrite_chunk; it reads
// them through the same codec, registered in-process, so no plugin needs to be installed.
// Compiled with libzfp (zfp_chunks.cpp) or without it (no_zfp.cpp, which refuses ZFP).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "io/compression.hpp"
#include "io/zfp/zfp_block_coder.hpp"

namespace heat {

constexpr unsigned kZfpFilterId = 32013;  // H5Z-ZFP's registered HDF5 filter id

// A chunk's extent as HDF5 gives it: (z, y, x), x fastest in memory.
using ChunkShape = std::array<std::size_t, 3>;

// The cd_values that H5Z-ZFP's set_local stores in a dataset of float (or double) values chunked
// as `chunk`, for ZFP accuracy `compression.bound` or reversible mode.
std::vector<unsigned> zfp_filter_values(const Compression& compression, bool is_float, const ChunkShape& chunk);

// Where a chunk's values lie in memory: x rows of contiguous values, `row` values from one row's
// start to the next and `plane` values from one plane's start to the next. A chunk inside a field
// is compressed where it lies, without a copy.
struct ChunkStrides {
  std::ptrdiff_t row, plane;
};

// The strides of a chunk's own box (a copy of it, x fastest).
inline ChunkStrides box_strides(const ChunkShape& chunk) {
  return {std::ptrdiff_t(chunk[2]), std::ptrdiff_t(chunk[1] * chunk[2])};
}

// The most bytes zfp_compress_chunk writes for a chunk of this shape, value type and mode.
std::size_t zfp_chunk_capacity(const Compression& compression, bool is_float, const ChunkShape& chunk);

// One chunk's values as H5Z-ZFP compresses the chunk's whole box, written to `out`, which holds
// `capacity` bytes (zfp_chunk_capacity or more). Returns the stream's size in bytes; 0 when zfp fails.
template <typename T>
std::size_t zfp_compress_chunk(const T* values, const ChunkStrides& strides, const ChunkShape& chunk,
                               const Compression& compression, unsigned char* out, std::size_t capacity);

// Decodes one chunk's zfp stream (without the Fletcher-32 after it) of a dataset whose stored
// cd_values are `cd_values`, into `values`: the chunk's `count` values, widened to double. Empty
// when it succeeds, else why not. Safe to call from several threads at once.
std::string zfp_decode_chunk(const std::vector<unsigned>& cd_values, const unsigned char* bytes, std::size_t size,
                             double* values, std::size_t count);

// What libzfp's stream holds for a ZFP codec (reversible, or the lowest bit plane kept and the
// most planes for a bound), and the word its bit streams end on: what an encoder other than libzfp
// needs to write libzfp's streams.
zfp_block::Mode zfp_mode_for(const Compression& compression);
unsigned zfp_stream_word_bits();

// Registers the decoder (and encoder) of filter 32013 with HDF5 in this process, so that every
// reader of heatrk4 reads ZFP datasets without a plugin. Called once, by h5::initialize_library.
void register_zfp_filter();

}  // namespace heat
