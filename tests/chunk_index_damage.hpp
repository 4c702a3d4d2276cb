// Damage to a chunked dataset's index rather than to its chunks: one bit of a chunk's filter mask
// flipped, or its stored size made smaller, in the version-1 B-tree that indexes the chunks of a
// dataset heatrk4 writes (HDF5's default format). The chunk's bytes, and its checksum, stay intact,
// so only a reader that checks each chunk's index entry before decoding notices.
#pragma once

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/hdf5_support.hpp"

namespace heat::test {

// What the index says of chunk `n` of `dataset_name` in the file at `path`.
struct ChunkEntry {
  hsize_t origin[3] = {0, 0, 0};
  unsigned filter_mask = 0;
  haddr_t address = 0;
  hsize_t size = 0;
};

inline ChunkEntry chunk_entry(const std::string& path, const std::string& dataset_name, hsize_t n) {
  h5::initialize_library();
  ChunkEntry entry;
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  h5::Handle dataset(H5Dopen2(file.get(), dataset_name.c_str(), H5P_DEFAULT), H5Dclose);
  h5::Handle space(H5Dget_space(dataset.get()), H5Sclose);
  EXPECT_GE(H5Dget_chunk_info(dataset.get(), space.get(), n, entry.origin, &entry.filter_mask, &entry.address,
                              &entry.size),
            0)
      << path;
  return entry;
}

// The file offset of the B-tree key of `entry`: its stored size (4 bytes), filter mask (4 bytes),
// origin and a zero (8 bytes each), then the chunk's address (8 bytes), all little-endian. -1
// where the pattern is not found exactly once (another index format).
inline std::ptrdiff_t chunk_key_offset(const std::string& bytes, const ChunkEntry& entry) {
  std::string pattern(48, '\0');
  const auto put = [&](std::size_t at, std::uint64_t value, int width) {
    for (int b = 0; b < width; ++b) pattern[at + std::size_t(b)] = char((value >> (8 * b)) & 0xff);
  };
  put(0, entry.size, 4);
  put(4, entry.filter_mask, 4);
  for (int d = 0; d < 3; ++d) put(8 + 8 * std::size_t(d), entry.origin[d], 8);
  put(40, entry.address, 8);
  std::string::size_type found = bytes.find(pattern.substr(0, 32));
  std::ptrdiff_t offset = -1;
  int matches = 0;
  for (; found != std::string::npos; found = bytes.find(pattern.substr(0, 32), found + 1))
    if (bytes.compare(found, 48, pattern) == 0) offset = std::ptrdiff_t(found), ++matches;
  return matches == 1 ? offset : -1;
}

// Rewrites chunk `n`'s index entry with `edit` (on its 4-byte size and 4-byte filter mask).
template <typename Edit>
void edit_chunk_key(const std::string& path, const std::string& dataset_name, hsize_t n, Edit edit) {
  const ChunkEntry entry = chunk_entry(path, dataset_name, n);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::ptrdiff_t key = chunk_key_offset(bytes, entry);
  ASSERT_GE(key, 0) << path << ": chunk " << n << "'s B-tree key not found once";
  std::uint32_t size = 0, mask = 0;
  std::memcpy(&size, &bytes[std::size_t(key)], 4);
  std::memcpy(&mask, &bytes[std::size_t(key) + 4], 4);
  edit(size, mask);
  std::memcpy(&bytes[std::size_t(key)], &size, 4);
  std::memcpy(&bytes[std::size_t(key) + 4], &mask, 4);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// One bit of chunk `n`'s filter mask flipped: HDF5 then skips that filter when it decodes it.
inline void flip_filter_mask_bit(const std::string& path, const std::string& dataset_name, hsize_t n, int bit) {
  edit_chunk_key(path, dataset_name, n, [&](std::uint32_t&, std::uint32_t& mask) { mask ^= 1u << bit; });
}

// Chunk `n`'s stored size made `bytes` smaller, its address and bytes left as they are.
inline void shorten_chunk(const std::string& path, const std::string& dataset_name, hsize_t n, std::uint32_t bytes) {
  edit_chunk_key(path, dataset_name, n, [&](std::uint32_t& size, std::uint32_t&) { size -= bytes; });
}

}  // namespace heat::test
