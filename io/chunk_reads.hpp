// Reading a snapshot's dataset with every chunk checked before any library decodes it
// (io/chunk_filters.hpp): a filtered dataset's chunks are read stored (H5Dread_chunk), checked
// against their index entry and decoded on every core; an uncompressed dataset's index entries are
// checked and HDF5 then reads the planes asked for; a distributed snapshot's virtual dataset slab
// file by slab file, each read the same way. When a read fails: the chunk (and the file) that
// could not be read.
#pragma once

#include <hdf5.h>

#include <string>

namespace heat {

// The planes [z_begin, z_begin + planes) of the 3D dataset `dataset` of the file `path` into
// `values` (x fastest), widened to double. Throws InputError naming the file and, for a chunk that
// cannot be read (its index entry damaged, its bytes damaged or cut short), the chunk; `where`
// names the dataset in other messages.
void read_dataset_planes(hid_t dataset, const std::string& path, const std::string& where, int z_begin, int planes,
                         double* values);

// After reading `dataset` of the file `path` failed: the first chunk that cannot be read, with its
// file (a virtual dataset's slab file), its position and HDF5's reason; empty if every chunk reads.
std::string describe_unreadable_chunk(hid_t dataset, const std::string& path);
// The same as a note for a reader's message: "; <that>", or empty.
std::string unreadable_chunk_note(hid_t dataset, const std::string& path);

}  // namespace heat
