// Reading a snapshot's dataset with every chunk checked before any library decodes it
// (io/chunk_filters.hpp): a filtered dataset's chunks are read stored (H5Dread_chunk), checked
// against their index entry and decoded on every core; an uncompressed dataset's index entries are
// checked and HDF5 then reads the planes asked for; a distributed snapshot's virtual dataset slab
// file by slab file, each read the same way. When a read fails: the chunk (and the file) that
// could not be read.
#pragma once

#include <hdf5.h>

#include <array>
#include <string>

namespace heat {

// A block of a 3D dataset, in HDF5's order (z, y, x): `count` points from `start` on each axis.
struct DatasetBlock {
  std::array<hsize_t, 3> start{}, count{};
  hsize_t points() const { return count[0] * count[1] * count[2]; }
};

// Where a block's values land: an array shaped `shape` (z, y, x; x fastest), from `offset` on.
struct BlockTarget {
  double* values = nullptr;
  std::array<hsize_t, 3> shape{}, offset{};
};

// The block of the 3D dataset `dataset` of the file `path` into `target`, widened to double: a
// hyperslab of the dataset, of a distributed snapshot's virtual dataset only the parts of the slab
// files the block overlaps, each read as a file of its own. Throws InputError naming the file and,
// for a chunk that cannot be read (its index entry damaged, its bytes damaged or cut short), the
// chunk; `where` names the dataset in other messages. Returns the values taken from storage: the
// block's points, but every value of a compressed chunk it overlaps (decoded whole).
hsize_t read_dataset_block(hid_t dataset, const std::string& path, const std::string& where, const DatasetBlock& block,
                           const BlockTarget& target);

// After reading `dataset` of the file `path` failed: the first chunk that cannot be read, with its
// file (a virtual dataset's slab file), its position and HDF5's reason; empty if every chunk reads.
std::string describe_unreadable_chunk(hid_t dataset, const std::string& path);
// The same as a note for a reader's message: "; <that>", or empty.
std::string unreadable_chunk_note(hid_t dataset, const std::string& path);

}  // namespace heat
