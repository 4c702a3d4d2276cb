// The slab files of a distributed run's snapshot: heat_<step>.hdf holds /VTKHDF/PointData/u as an
// HDF5 virtual dataset over one slab file per rank. HDF5 reads a source it cannot use (missing,
// cut short, not HDF5, without the dataset, smaller than mapped) as the dataset's fill value
// without an error, and reads another run's slab file as if it belonged. So each slab file records
// its run, step and first plane (SlabIdentity), and every reader checks every source first.
#pragma once

#include <hdf5.h>

#include <optional>
#include <string>

#include "io/hdf5_snapshot.hpp"

namespace heat {

// Writes `identity` into the open slab file as its /heatrk4 group. Throws RunError naming `path`.
void write_slab_identity(hid_t slab_file, const std::string& path, const SlabIdentity& identity);

// The identity an open file records, or none (a file that is not a slab file, or one written
// before slab files recorded theirs). Throws InputError for a /heatrk4 group that does not read.
std::optional<SlabIdentity> read_slab_identity(hid_t file);

// Checks `dataset` of the open file at `path` (`where` names it in messages) before its data is
// read; does nothing unless it is a virtual dataset. Throws InputError (exit 2) naming the slab
// file and the fault when a source is missing, not a readable HDF5 file, lacks the mapped
// dataset, has another extent or value type than the planes it is mapped to, or was written by
// another run, for another step or for other planes than the file's /heatrk4 run_id and step say;
// or when the sources do not cover the dataset once each. Every reader of a snapshot calls it.
void require_sound_virtual_sources(hid_t file, hid_t dataset, const std::string& path, const std::string& where);

}  // namespace heat
