// Reading VTKHDF ImageData files: the initial field of a run (--init file --init-file F.hdf,
// which is also how a run restarts from a snapshot) and the arrays that `heatrk4 compare` reads.
// Any VTKHDF 1.0 ImageData file works, not only heatrk4's own.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "core/initial_conditions.hpp"  // Planes
#include "core/problem.hpp"

namespace heat {

struct LoadedField {
  Field<double> values;  // float data widens exactly, so a float restart is bitwise
  Grid grid;             // shape and spacing from the file: the whole grid
  bool has_run_state = false;  // the file carries /heatrk4 time and step
  int step = 0;
  double time = 0;
  bool stored_as_float = false;
  // What reading the file took from it, its metadata included, as Linux counts this thread's
  // reads (rchar); -1 where /proc does not say.
  long long bytes_read = 0;
  // The values taken from the file's storage: the points of the hyperslabs read, but every value
  // of a compressed chunk they overlap (decoded whole).
  long long points_read = 0;
};

// The points of a file's grid a box holds: along x, y and z, runs of consecutive points (Planes:
// first and count, along any axis) in box order; the box is their product. One run an axis but
// where the box wraps a periodic axis, whose points beyond the grid's interior are the ones a
// period away.
using BoxRuns = std::array<std::vector<Planes>, 3>;
inline BoxRuns whole_grid_runs(const Grid& g) { return {{{{0, g.nx}}, {{0, g.ny}}, {{0, g.nz}}}}; }

// The whole field. Throws InputError (exit 2) for a missing file, a file that is not HDF5, a
// missing array, a shape that is not 3D, or non-finite values; and for a distributed run's
// snapshot, for a slab file that is missing, damaged, of another shape or type, or another run's
// or step's (require_sound_virtual_sources, io/slab_files.hpp). The caller checks the order's
// minimum size.
LoadedField read_initial_field(const std::string& path, const std::string& array_name = "u");

// The same in two parts, for a rank that holds a box of the grid: first the file's grid and run
// state without its values (InputError as above), then, once the rank knows its box, the box
// alone (`runs`): each block of one run an axis read as a hyperslab of the dataset (of a
// distributed snapshot's virtual one, only the parts of the slab files the block overlaps) into
// its place, refused as above where a value is not finite (named by the grid's indices).
LoadedField open_initial_field(const std::string& path);
void read_initial_box(LoadedField& loaded, const std::string& path, const std::string& array_name, const BoxRuns& runs);

// A file's grid, the names of its point arrays and, for heatrk4's snapshots, the step and time,
// without reading the arrays.
struct ImageFileInfo {
  Grid grid;
  std::vector<std::string> point_arrays;
  bool has_run_state = false;
  int step = 0;
  double time = 0;
};
ImageFileInfo read_image_file_info(const std::string& path);

// One point array, widened to double (exact for float data), with its stored precision.
// Non-finite values are returned as they are. Throws InputError like read_initial_field.
struct PointArray {
  Field<double> values;
  bool stored_as_float = false;
};
PointArray read_point_array(const std::string& path, const std::string& array_name);

}  // namespace heat
