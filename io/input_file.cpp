#include "io/input_file.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "io/chunk_reads.hpp"
#include "io/hdf5_support.hpp"
#include "io/slab_files.hpp"
#include "core/errors.hpp"
#include "core/grid_limits.hpp"
#include "core/number_text.hpp"

namespace heat {

namespace {

using h5::Handle;
using h5::shape_text;

// The points along one axis of WholeExtent [first, last]; refuses what is not a count of at most
// INT_MAX (the stored values may be doubles: 1e12, 2.7, NaN).
int axis_points(double first, double last) {
  const double points = last - first + 1;
  if (!(points >= 1 && points <= INT_MAX) || first != std::floor(first) || last != std::floor(last))
    throw InputError("WholeExtent [" + number_text(first) + ", " + number_text(last) +
                     "] is not a whole number of points from 1 to " + std::to_string(INT_MAX) + " on an axis");
  return int(points);
}

// An open VTKHDF ImageData file: the file, its /VTKHDF group and the grid it describes.
struct ImageFile {
  std::string path;
  Handle file, vtkhdf;
  Grid grid;

  explicit ImageFile(const std::string& file_path) : path(file_path) {
    h5::initialize_library();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError(path + ": no such file");
    if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path + ": not a regular file");
    if (H5Fis_hdf5(path.c_str()) <= 0) {
      h5::take_error_stack();
      throw InputError(path + ": not an HDF5 file (a VTKHDF ImageData .hdf file is needed)");
    }
    file = Handle(h5::check<InputError>(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), path), H5Fclose);
    if (H5Lexists(file.get(), "VTKHDF", H5P_DEFAULT) <= 0)
      throw InputError(path + ": no /VTKHDF group: this HDF5 file is not in the VTKHDF layout");
    vtkhdf = Handle(h5::check<InputError>(H5Gopen2(file.get(), "VTKHDF", H5P_DEFAULT), path + ": /VTKHDF"), H5Gclose);
    try {
      const std::string type = h5::read_string_attribute(vtkhdf.get(), "Type");
      if (type != "ImageData") throw InputError("Type is " + type + ", not ImageData");
      const auto extent = h5::read_number_attribute(vtkhdf.get(), "WholeExtent", 6);
      const auto spacing = h5::read_number_attribute(vtkhdf.get(), "Spacing", 3);
      int* sizes[3] = {&grid.nx, &grid.ny, &grid.nz};
      for (int axis = 0; axis < 3; ++axis) *sizes[axis] = axis_points(extent[2 * axis], extent[2 * axis + 1]);
      require_grid_points_fit(grid.nx, grid.ny, grid.nz, "WholeExtent");
      grid.hx = spacing[0];
      grid.hy = spacing[1];
      grid.hz = spacing[2];
    } catch (const InputError& e) {
      throw InputError(path + ": /VTKHDF: " + e.what());
    }
    if (grid.nx < 2 || grid.ny < 2 || grid.nz < 2)
      throw InputError(path + ": the image is " + std::to_string(grid.nx) + " x " + std::to_string(grid.ny) + " x " +
                       std::to_string(grid.nz) + " points: a 3D grid (at least 2 points on each axis) is needed");
    for (double h : {grid.hx, grid.hy, grid.hz})
      if (!(h > 0) || !std::isfinite(h)) throw InputError(path + ": Spacing must be positive and finite");
  }

  std::vector<std::string> point_array_names() const {
    std::vector<std::string> names;
    if (H5Lexists(vtkhdf.get(), "PointData", H5P_DEFAULT) <= 0) return names;
    Handle group(h5::check<InputError>(H5Gopen2(vtkhdf.get(), "PointData", H5P_DEFAULT), path + ": PointData"),
                 H5Gclose);
    const auto add_name = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
      static_cast<std::vector<std::string>*>(out)->push_back(name);
      return 0;
    };
    H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, add_name, &names);
    return names;
  }

  // The box of point array `name` that `runs` give, each block of one run an axis read as a
  // hyperslab into its place: HDF5 reads those points alone, of a virtual dataset only from the slab
  // files that hold them. Adds the values taken from storage to `points_read`.
  PointArray read(const std::string& name, const BoxRuns& runs, long long& points_read) const {
    const auto names = point_array_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string have;
      for (const auto& n : names) have += (have.empty() ? "" : ", ") + n;
      throw InputError(path + ": no point array '" + name + "' (the file has: " + (have.empty() ? "none" : have) +
                       "); choose one with --init-array");
    }
    const std::string where = path + ": /VTKHDF/PointData/" + name;
    // No chunk cache: HDF5 then reads the selected points of an uncompressed chunk straight from the
    // file instead of the whole chunk into its cache (a compressed chunk it must read whole). The
    // sources of a virtual dataset are opened with the same access properties.
    Handle access(h5::check<InputError>(H5Pcreate(H5P_DATASET_ACCESS), where), H5Pclose);
    if (H5Pset_chunk_cache(access.get(), 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT) < 0)
      throw InputError(where + ": " + h5::take_error_stack());
    Handle dataset(h5::check<InputError>(H5Dopen2(vtkhdf.get(), ("PointData/" + name).c_str(), access.get()), where),
                   H5Dclose);
    Handle space(h5::check<InputError>(H5Dget_space(dataset.get()), where), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(rank > 0 ? rank : 0);
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    const std::vector<hsize_t> expected = {hsize_t(grid.nz), hsize_t(grid.ny), hsize_t(grid.nx)};
    if (dims != expected)
      throw InputError(where + " is shaped " + shape_text(dims) + ", but WholeExtent needs a scalar array shaped " +
                       "(nz, ny, nx) = " + shape_text(expected));
    require_sound_virtual_sources(file.get(), dataset.get(), path, where);
    Handle type(h5::check<InputError>(H5Dget_type(dataset.get()), where), H5Tclose);
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (type_class != H5T_FLOAT && type_class != H5T_INTEGER) throw InputError(where + " is not a numeric array");
    // (z, y, x), as HDF5 orders the axes.
    std::array<hsize_t, 3> shape{0, 0, 0};
    for (int axis = 0; axis < 3; ++axis)
      for (const Planes& run : runs[std::size_t(axis)]) {
        if (run.first < 0 || run.count < 1 || hsize_t(run.first + run.count) > expected[std::size_t(2 - axis)])
          throw std::logic_error("points outside the file's grid asked of " + where);
        shape[std::size_t(2 - axis)] += hsize_t(run.count);
      }
    PointArray out;
    out.stored_as_float = type_class == H5T_FLOAT && H5Tget_size(type.get()) == sizeof(float);
    out.values = Field<double>::uninitialized(int(shape[2]), int(shape[1]), int(shape[0]));
    hsize_t z_at = 0;
    for (const Planes& z : runs[2]) {
      hsize_t y_at = 0;
      for (const Planes& y : runs[1]) {
        hsize_t x_at = 0;
        for (const Planes& x : runs[0]) {
          const DatasetBlock block{{hsize_t(z.first), hsize_t(y.first), hsize_t(x.first)},
                                   {hsize_t(z.count), hsize_t(y.count), hsize_t(x.count)}};
          points_read += (long long)read_dataset_block(dataset.get(), path, where, block,
                                                       BlockTarget{out.values.data(), shape, {z_at, y_at, x_at}});
          x_at += hsize_t(x.count);
        }
        y_at += hsize_t(y.count);
      }
      z_at += hsize_t(z.count);
    }
    return out;
  }
};

// The grid's index along an axis of index `i` of a box along it, whose points are `runs`.
int grid_index(const std::vector<Planes>& runs, int i) {
  for (const Planes& run : runs) {
    if (i < run.count) return run.first + i;
    i -= run.count;
  }
  return -1;
}

// `u` holds the box of the file's grid that `runs` give.
void refuse_non_finite(const std::string& path, const std::string& name, const Field<double>& u, const BoxRuns& runs,
                       bool whole) {
  std::size_t count = 0;
  int first[3] = {0, 0, 0};
  for (int k = 0; k < u.nz(); ++k)
    for (int j = 0; j < u.ny(); ++j)
      for (int i = 0; i < u.nx(); ++i)
        if (!std::isfinite(u(i, j, k)) && count++ == 0)
          first[0] = grid_index(runs[0], i), first[1] = grid_index(runs[1], j), first[2] = grid_index(runs[2], k);
  if (count)
    throw InputError(path + ": array " + name + " has " + std::to_string(count) + " non-finite values" +
                     (whole ? "" : " in the box that this rank reads") + ", the first at (" + std::to_string(first[0]) +
                     "," + std::to_string(first[1]) + "," + std::to_string(first[2]) +
                     "): an initial field must be finite");
}

// What this thread has read through read(2) and its kind so far (Linux's rchar), or -1 where
// /proc does not say: HDF5 reads on the calling thread, so the difference over a read of a file
// is the bytes that read took from it, its metadata included.
long long bytes_read_by_this_thread() {
  std::ifstream io("/proc/thread-self/io");
  std::string key;
  long long value = -1;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  return -1;
}

struct RunState {
  bool present = false;
  int step = 0;
  double time = 0;
};

// Snapshots of heatrk4 carry where the run was; files from elsewhere start at step 0, time 0.
// The step counts in an int and names the snapshots, so it must be a whole number in int's range.
RunState read_run_state(const ImageFile& file) {
  RunState state;
  if (H5Lexists(file.file.get(), "heatrk4", H5P_DEFAULT) <= 0) return state;
  Handle run(h5::check<InputError>(H5Gopen2(file.file.get(), "heatrk4", H5P_DEFAULT), file.path + ": /heatrk4"), H5Gclose);
  if (!h5::has_attribute(run.get(), "step") || !h5::has_attribute(run.get(), "time")) return state;
  const double step = h5::read_number_attribute(run.get(), "step", 1)[0];
  const double time = h5::read_number_attribute(run.get(), "time", 1)[0];
  if (!(step >= 0 && step <= INT_MAX) || step != std::floor(step))
    throw InputError(file.path + ": /heatrk4 step " + number_text(step) + " is not a whole number from 0 to " +
                     std::to_string(INT_MAX));
  if (!std::isfinite(time)) throw InputError(file.path + ": /heatrk4 time " + number_text(time) + " is not finite");
  state.present = true;
  state.step = int(step);
  state.time = time;
  return state;
}

}  // namespace

ImageFileInfo read_image_file_info(const std::string& path) {
  const ImageFile file(path);
  const RunState state = read_run_state(file);
  return {file.grid, file.point_array_names(), state.present, state.step, state.time};
}

PointArray read_point_array(const std::string& path, const std::string& array_name) {
  const ImageFile file(path);
  long long points_read = 0;
  return file.read(array_name, whole_grid_runs(file.grid), points_read);
}

LoadedField open_initial_field(const std::string& path) {
  const long long bytes_before = bytes_read_by_this_thread();
  const ImageFile file(path);
  LoadedField loaded;
  loaded.grid = file.grid;
  const RunState state = read_run_state(file);
  loaded.has_run_state = state.present;
  loaded.step = state.step;
  loaded.time = state.time;
  loaded.bytes_read = bytes_before < 0 ? -1 : bytes_read_by_this_thread() - bytes_before;
  return loaded;
}

void read_initial_box(LoadedField& loaded, const std::string& path, const std::string& array_name, const BoxRuns& runs) {
  const long long bytes_before = bytes_read_by_this_thread();
  const ImageFile file(path);
  if (file.grid.nx != loaded.grid.nx || file.grid.ny != loaded.grid.ny || file.grid.nz != loaded.grid.nz)
    throw InputError(path + ": its grid changed while the run started");
  PointArray array = file.read(array_name, runs, loaded.points_read);
  refuse_non_finite(path, array_name, array.values, runs, array.values.size() == file.grid.points());
  loaded.values = std::move(array.values);
  loaded.stored_as_float = array.stored_as_float;
  if (bytes_before < 0 || loaded.bytes_read < 0)
    loaded.bytes_read = -1;
  else
    loaded.bytes_read += bytes_read_by_this_thread() - bytes_before;
}

LoadedField read_initial_field(const std::string& path, const std::string& array_name) {
  LoadedField loaded = open_initial_field(path);
  read_initial_box(loaded, path, array_name, whole_grid_runs(loaded.grid));
  return loaded;
}

}  // namespace heat
