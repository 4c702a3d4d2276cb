// Compiled instead of zfp_chunks.cpp when the build has no libzfp. The run refuses --compress zfp
// before any work (compression_unavailable_reason), so the writers here are never reached from the
// command line; they throw rather than write an uncompressed file silently. Reading a ZFP file
// is left to HDF5, which finds the H5Z-ZFP plugin through HDF5_PLUGIN_PATH if there is one.
#include "io/zfp/zfp_chunks.hpp"
#include "core/errors.hpp"

namespace heat {

bool built_with_zfp() { return false; }

namespace {
[[noreturn]] void refuse() {
  throw InputError(
      "this build has no libzfp, so it cannot write ZFP-compressed snapshots: install libzfp-dev and "
      "reconfigure");
}
}  // namespace

std::vector<unsigned> zfp_filter_values(const Compression&, bool, const ChunkShape&) { refuse(); }

std::size_t zfp_chunk_capacity(const Compression&, bool, const ChunkShape&) { refuse(); }

template <typename T>
std::size_t zfp_compress_chunk(const T*, const ChunkStrides&, const ChunkShape&, const Compression&, unsigned char*,
                               std::size_t) {
  refuse();
}
template std::size_t zfp_compress_chunk<float>(const float*, const ChunkStrides&, const ChunkShape&, const Compression&,
                                               unsigned char*, std::size_t);
template std::size_t zfp_compress_chunk<double>(const double*, const ChunkStrides&, const ChunkShape&,
                                                const Compression&, unsigned char*, std::size_t);

std::string zfp_decode_chunk(const std::vector<unsigned>&, const unsigned char*, std::size_t, double*, std::size_t) {
  return "this build has no libzfp";
}

zfp_block::Mode zfp_mode_for(const Compression&) { refuse(); }
unsigned zfp_stream_word_bits() { refuse(); }

void register_zfp_filter() {}

}  // namespace heat
