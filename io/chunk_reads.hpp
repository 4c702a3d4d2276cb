// Reading the chunks of a snapshot's dataset: a ZFP dataset decoded on every core, and, when a
// read fails, the chunk (and the file: a slab file of a distributed snapshot) that could not be read.
#pragma once

#include <hdf5.h>

#include <string>

namespace heat {

// Reads a ZFP dataset as HDF5 would (every chunk stored, filters H5Z-ZFP then Fletcher-32) into
// `values` (the dataset's extent, x fastest, widened to double), its chunks decoded on every core
// (HDF5's pipeline decodes on one); a distributed snapshot's virtual dataset slab file by slab
// file. False for any other dataset (another filter, chunks not all there), which the caller then
// reads with H5Dread whole. Throws InputError naming the file and the chunk that cannot be read.
bool read_zfp_dataset(hid_t dataset, const std::string& path, double* values);

// After reading `dataset` of the file `path` failed: the first chunk that cannot be read, with its
// file (a virtual dataset's slab file), its position and HDF5's reason; empty if every chunk reads.
std::string describe_unreadable_chunk(hid_t dataset, const std::string& path);
// The same as a note for a reader's message: "; <that>", or empty.
std::string unreadable_chunk_note(hid_t dataset, const std::string& path);

}  // namespace heat
