// One HDF5 snapshot in the VTKHDF 1.0 ImageData layout of docs/design.md §4, which ParaView 5.11
// and later open directly (it picks the VTKHDF reader by the .hdf extension).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "io/compression.hpp"
#include "io/snapshots.hpp"
#include "core/snapshot_source.hpp"
#include "io/zfp/gpu_zfp_encoder.hpp"

namespace heat {

// True when this build links HDF5 (HEAT_HAVE_HDF5); no_hdf5.cpp stands in otherwise.
bool built_with_hdf5();

// Writes the file at `path` exactly (safe naming is the caller's business). The field is stored
// in its own precision under /VTKHDF/PointData/u, chunked, compressed as `compress` says (its name
// and bound recorded in /heatrk4); ZFP is encoded on `gpu` where given. Throws RunError with HDF5's
// reason when anything fails.
template <typename T>
void write_vtkhdf_file(const std::string& path, const SnapshotSource<T>& u, const RunDescription& run, int step,
                       double time, const Compression& compress, GpuZfpEncoder* gpu = nullptr);

// What a slab file records about itself, in its /heatrk4 group, so that a reader can tell it
// belongs to the snapshot that maps it (io/slab_files.hpp): the run (whose snapshot file records
// the same run_id), the step, and the grid's indices of its first point (x, y, z).
struct SlabIdentity {
  std::string run_id;
  int step = 0;
  std::array<int, 3> first_point{};
};

// One rank's piece of a distributed snapshot: a file whose dataset /u holds the planes
// [first_plane, first_plane + planes) of `box`, shaped (planes, ny, nx) (a box of the grid cut from
// the rank's own where the rank grid splits x or y), and whose /heatrk4 group holds `identity`.
// Throws RunError.
template <typename T>
void write_slab_file(const std::string& path, const SnapshotSource<T>& box, int first_plane, int planes,
                     const Compression& compress, const SlabIdentity& identity, GpuZfpEncoder* gpu = nullptr);

// After a distributed snapshot of `step` failed: removes the slab files in `directory` (of a run
// on `ranks` ranks) that the run `run_id` wrote, so that no complete slab file is left without the
// file that maps it. Another run's slab files of that step are left as they are. Never throws.
void remove_slab_files_of_run(const std::string& directory, int step, int ranks, const std::string& run_id);

// Where one slab file's points lie in the whole grid; `name` is relative to the snapshot's directory.
struct SlabFile {
  std::string name;
  GridBlock block;
};

// The snapshot of a distributed run: the file write_vtkhdf_file writes for the whole grid
// (run.problem.grid), except that /VTKHDF/PointData/u is an HDF5 virtual dataset over the slab
// files, whose blocks must tile the grid; `compression` is the slab files' (recorded in /heatrk4). Throws RunError.
void write_vtkhdf_virtual_file(const std::string& path, const std::vector<SlabFile>& slabs, bool is_float,
                               const RunDescription& run, int step, double time, const Compression& compression);

// The material fields of `run` (run.problem.materials, the whole grid's) as a VTKHDF ImageData file
// on its grid, ParaView's to open beside the series: point arrays `conductivity` and
// `heat_capacity` in double, as the run steps them (a face's ghosts hold the body's mirrored
// values), and a /heatrk4 group holding the run's material options, materials_checksum and
// run_id; no step or time, so nothing takes it for a snapshot. Throws RunError.
void write_materials_file(const std::string& path, const RunDescription& run);

// `values` on `grid` (its points and spacing) as the one point array `name`, in double, of a VTKHDF
// ImageData file at `path`, written in place: a file that --material-labels, --conductivity-file or
// --source file: reads (heatrk4.write). No step or time, so nothing takes it for a snapshot. Throws
// RunError.
void write_point_array_file(const std::string& path, const Grid& grid, const std::string& name,
                            const Field<double>& values);

// Why gzip cannot be used in this HDF5 build, or empty when it can.
std::string hdf5_gzip_unavailable_reason();

}  // namespace heat
