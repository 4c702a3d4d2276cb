// The chunks of a snapshot's dataset: their shape for each codec, the filters a dataset declares,
// compressing them on every core and writing them whole (reading them: io/chunk_reads.hpp). Compressed chunks are
// exactly what HDF5's filters (shuffle + deflate, or H5Z-ZFP, each followed by Fletcher-32 for ZFP) would have stored,
// so every HDF5 reader reads them as usual.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/compression.hpp"
#include "core/snapshot_source.hpp"
#include "io/zfp/gpu_zfp_encoder.hpp"

namespace heat {

// About 4 MiB a chunk, of whole x rows, the planes or rows split evenly (a 1200 x 1200 float
// plane in two chunks of 600 rows, not 873 and a padded 327). ZFP chunks are 4 planes (zfp's
// blocks are 4 x 4 x 4) of rows in multiples of 4 that split the plane evenly, so few blocks are
// padded.
std::vector<hsize_t> chunk_shape(const Grid& g, std::size_t value_bytes, const Compression& compression);

// Declares the compression's filters on a dataset creation property list already chunked as
// `chunk`: shuffle + deflate for gzip; H5Z-ZFP (32013, mandatory, with its stored cd_values) and
// Fletcher-32 for ZFP, whose stream carries no check of its own. Negative on failure.
herr_t add_compression_filters(hid_t layout, const Compression& compression, bool is_float,
                               const std::vector<hsize_t>& chunk);

// Compresses the chunks of u's planes [first_plane, first_plane + planes) and writes them with
// H5Dwrite_chunk into `dataset` (of `path`), which has those filters: ZFP on `gpu` where there is
// one (from u's device copy where u is on the device), else on every core. Throws RunError.
template <typename T>
void write_compressed_chunks(const std::string& path, hid_t dataset, const SnapshotSource<T>& u, int first_plane,
                             int planes, const std::vector<hsize_t>& chunk, const Compression& compression,
                             GpuZfpEncoder* gpu);

// For ZFP within a bound: throws RunError (before any chunk is written) when the bound is finer than
// twice the resolution of the precision at the largest |value| of u's planes, where zfp, whose
// values come back in that precision, cannot hold it. The message gives the smallest bound that
// holds and the fix. By the maximum principle no later snapshot of a run has larger values.
template <typename T>
void require_bound_within_precision(const std::string& path, const SnapshotSource<T>& u, int first_plane, int planes,
                                    const Compression& compression, GpuZfpEncoder* gpu);

// HDF5's Fletcher-32 of `bytes` as its fletcher32 filter computes it (H5_checksum_fletcher32).
std::uint32_t fletcher32(const unsigned char* bytes, std::size_t size);

}  // namespace heat
