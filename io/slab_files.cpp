#include "io/slab_files.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <vector>

#include "io/hdf5_support.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {

namespace {

using h5::Handle;

// Where a snapshot records its run: /heatrk4 run_id and step (and, in a slab file, the grid's
// indices of its first point: first_column, first_row, first_plane; a slab file of whole planes
// written before grids split x and y records the plane alone).
struct RunRecord {
  std::string run_id;
  double step = 0;
  std::array<double, 3> first_point{};
};

constexpr const char* kFirstPointNames[3] = {"first_column", "first_row", "first_plane"};

// None when the file has no /heatrk4 run_id: a slab file or snapshot written before they recorded
// their run, or a file that is not heatrk4's. Throws InputError when the group does not read.
std::optional<RunRecord> read_run_record(hid_t file, bool with_first_plane) {
  if (H5Lexists(file, "heatrk4", H5P_DEFAULT) <= 0) return std::nullopt;
  Handle group(h5::check<InputError>(H5Gopen2(file, "heatrk4", H5P_DEFAULT), "/heatrk4"), H5Gclose);
  if (!h5::has_attribute(group.get(), "run_id")) return std::nullopt;
  RunRecord record;
  record.run_id = h5::read_string_attribute(group.get(), "run_id");
  record.step = h5::read_number_attribute(group.get(), "step", 1)[0];
  if (with_first_plane)
    for (int axis = 0; axis < 3; ++axis)
      if (axis == 2 || h5::has_attribute(group.get(), kFirstPointNames[axis]))
        record.first_point[std::size_t(axis)] = h5::read_number_attribute(group.get(), kFirstPointNames[axis], 1)[0];
  return record;
}

// One mapping of a virtual dataset: a source file's dataset onto a box of the whole.
struct Mapping {
  std::string file_name, dataset_name;
  // Where the whole source dataset is mapped (HDF5 then stores no extent for it), its extent must
  // be the box's shape; where a part is, it must reach at least source_end on each axis.
  bool whole_source = true;
  std::vector<hsize_t> source_end;
  std::vector<hsize_t> begin, end;  // the box it fills in the whole, end inclusive
  hssize_t points = 0;
};

std::vector<Mapping> read_mappings(hid_t layout, const std::string& where) {
  std::size_t count = 0;
  if (H5Pget_virtual_count(layout, &count) < 0) throw InputError(where + ": " + h5::take_error_stack());
  std::vector<Mapping> mappings(count);
  for (std::size_t n = 0; n < count; ++n) {
    Mapping& m = mappings[n];
    m.file_name = h5::virtual_mapping_text(layout, n, H5Pget_virtual_filename);
    m.dataset_name = h5::virtual_mapping_text(layout, n, H5Pget_virtual_dsetname);
    Handle source(h5::check<InputError>(H5Pget_virtual_srcspace(layout, n), where), H5Sclose);
    Handle box(h5::check<InputError>(H5Pget_virtual_vspace(layout, n), where), H5Sclose);
    const int rank = std::max(0, H5Sget_simple_extent_ndims(box.get()));
    m.begin.resize(std::size_t(rank));
    m.end.resize(std::size_t(rank));
    m.points = H5Sget_select_npoints(box.get());
    bool read = !m.file_name.empty() && !m.dataset_name.empty() && m.points >= 0 &&
                H5Sget_select_bounds(box.get(), m.begin.data(), m.end.data()) >= 0;
    m.whole_source = H5Sget_select_type(source.get()) == H5S_SEL_ALL;
    if (!m.whole_source) {
      std::vector<hsize_t> source_begin(std::size_t(std::max(0, H5Sget_simple_extent_ndims(source.get()))));
      m.source_end.resize(source_begin.size());
      read = read && H5Sget_select_bounds(source.get(), source_begin.data(), m.source_end.data()) >= 0;
    }
    if (!read) throw InputError(where + ": mapping " + std::to_string(n) + " does not read: " + h5::take_error_stack());
  }
  return mappings;
}

// "4-byte float", "8-byte integer".
std::string value_type_text(hid_t type) {
  const H5T_class_t kind = H5Tget_class(type);
  return std::to_string(H5Tget_size(type)) + "-byte " +
         (kind == H5T_FLOAT ? "float" : kind == H5T_INTEGER ? "integer" : "non-numeric");
}

// Why the open source file's dataset cannot stand for the box `m` maps it onto, or empty.
std::string dataset_fault(hid_t file, const Mapping& m, hid_t snapshot_type) {
  const std::string name = m.dataset_name == "." ? "/" : m.dataset_name;
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) {
    h5::take_error_stack();
    return "has no dataset " + m.dataset_name;
  }
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  Handle space(dataset.valid() ? H5Dget_space(dataset.get()) : -1, H5Sclose);
  Handle type(dataset.valid() ? H5Dget_type(dataset.get()) : -1, H5Tclose);
  if (!space.valid() || !type.valid()) return "has a dataset " + m.dataset_name + " that does not open: " + h5::take_error_stack();
  std::vector<hsize_t> extent(std::size_t(std::max(0, H5Sget_simple_extent_ndims(space.get()))));
  H5Sget_simple_extent_dims(space.get(), extent.data(), nullptr);
  if (m.whole_source) {
    std::vector<hsize_t> box_shape(m.begin.size());
    for (std::size_t axis = 0; axis < box_shape.size(); ++axis) box_shape[axis] = m.end[axis] - m.begin[axis] + 1;
    if (extent != box_shape)
      return "holds " + m.dataset_name + " shaped " + h5::shape_text(extent) + ", but the snapshot maps it onto " +
             h5::shape_text(box_shape) + " points";
  } else {
    bool inside = extent.size() == m.source_end.size();
    for (std::size_t axis = 0; inside && axis < extent.size(); ++axis) inside = m.source_end[axis] < extent[axis];
    if (!inside)
      return "holds " + m.dataset_name + " shaped " + h5::shape_text(extent) + ", too small for the part the snapshot maps";
  }
  if (value_type_text(type.get()) != value_type_text(snapshot_type))
    return "holds " + m.dataset_name + " as " + value_type_text(type.get()) + " values, but the snapshot's are " +
           value_type_text(snapshot_type);
  return {};
}

// Why the open source file is not the slab file of the snapshot's run and step for the box `m`
// maps it onto, or empty. `index` is the snapshot's own record, where it has one.
std::string identity_fault(hid_t file, const Mapping& m, const std::optional<RunRecord>& index) {
  std::optional<RunRecord> slab;
  try {
    slab = read_run_record(file, true);
  } catch (const InputError& e) {
    return std::string("has a /heatrk4 group that does not read: ") + e.what();
  }
  // Files written before slab files recorded their run are checked as far as they can be.
  if (!index && !slab) return {};
  if (!slab) return "records no run: it is not a slab file of this snapshot";
  if (!index) return "records the run " + slab->run_id + ", but the snapshot records none: it is not this snapshot's";
  if (slab->run_id != index->run_id)
    return "was written by another run (run " + slab->run_id + ", step " + number_text(slab->step) +
           "), not by the run that wrote the snapshot (run " + index->run_id + ")";
  if (slab->step != index->step)
    return "belongs to step " + number_text(slab->step) + " of this run, not to the snapshot's step " +
           number_text(index->step);
  // The mapping's begin is (z, y, x).
  const auto point_text = [](double x, double y, double z) {
    return "(" + number_text(x) + ", " + number_text(y) + ", " + number_text(z) + ")";
  };
  const std::array<double, 3>& first = slab->first_point;
  if (m.begin.size() != 3 || first[0] != double(m.begin[2]) || first[1] != double(m.begin[1]) ||
      first[2] != double(m.begin[0]))
    return "holds the points from (x, y, z) = " + point_text(first[0], first[1], first[2]) +
           ", but the snapshot maps it to the points from " +
           (m.begin.size() != 3 ? "?" : point_text(double(m.begin[2]), double(m.begin[1]), double(m.begin[0])));
  return {};
}

// Why the source file at `source` cannot stand for the box `m` maps it onto, or empty when it can.
std::string source_fault(const Mapping& m, const std::filesystem::path& source, hid_t snapshot_type,
                         const std::optional<RunRecord>& index) {
  std::error_code ec;
  if (!std::filesystem::exists(source, ec)) return "is missing";
  if (!std::filesystem::is_regular_file(source, ec)) return "is not a regular file";
  if (H5Fis_hdf5(source.c_str()) <= 0) {
    h5::take_error_stack();
    return "is not an HDF5 file";
  }
  Handle file(H5Fopen(source.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) return "does not open as HDF5 (cut short or damaged): " + h5::take_error_stack();
  std::string fault = dataset_fault(file.get(), m, snapshot_type);
  return fault.empty() ? identity_fault(file.get(), m, index) : fault;
}

// Every point of the dataset is filled by exactly one mapping: boxes that do not overlap and
// hold as many points as the dataset (elsewhere HDF5 would read its fill value).
void require_sources_tile(const std::vector<Mapping>& mappings, hid_t space, const std::string& where) {
  hssize_t mapped = 0;
  for (std::size_t a = 0; a < mappings.size(); ++a) {
    const Mapping& m = mappings[a];
    hssize_t box_points = 1;
    for (std::size_t axis = 0; axis < m.begin.size(); ++axis) box_points *= hssize_t(m.end[axis] - m.begin[axis] + 1);
    if (box_points != m.points)
      throw InputError(where + " maps " + m.file_name + " onto points that are not one box: heatrk4 reads virtual "
                       "datasets whose sources are boxes that tile it");
    for (std::size_t b = 0; b < a; ++b) {
      bool overlap = true;
      for (std::size_t axis = 0; axis < m.begin.size(); ++axis)
        overlap = overlap && m.begin[axis] <= mappings[b].end[axis] && mappings[b].begin[axis] <= m.end[axis];
      if (overlap) throw InputError(where + " maps " + m.file_name + " and " + mappings[b].file_name + " onto the same points");
    }
    mapped += m.points;
  }
  const hssize_t points = H5Sget_simple_extent_npoints(space);
  if (mapped != points)
    throw InputError(where + ": its slab files fill " + std::to_string(mapped) + " of its " + std::to_string(points) +
                     " points: the rest would read as zeros");
}

}  // namespace

void write_slab_identity(hid_t slab_file, const std::string& path, const SlabIdentity& identity) {
  Handle group(h5::check<RunError>(H5Gcreate2(slab_file, "heatrk4", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                                   "writing " + path + ": group /heatrk4"),
               H5Gclose);
  if (h5::write_string_attribute(group.get(), "run_id", identity.run_id) < 0 ||
      h5::write_scalar_attribute(group.get(), "step", std::int64_t(identity.step)) < 0 ||
      h5::write_scalar_attribute(group.get(), kFirstPointNames[0], std::int64_t(identity.first_point[0])) < 0 ||
      h5::write_scalar_attribute(group.get(), kFirstPointNames[1], std::int64_t(identity.first_point[1])) < 0 ||
      h5::write_scalar_attribute(group.get(), kFirstPointNames[2], std::int64_t(identity.first_point[2])) < 0 ||
      group.close() < 0)
    throw RunError("writing " + path + ": /heatrk4: " + h5::take_error_stack());
}

std::optional<SlabIdentity> read_slab_identity(hid_t file) {
  const auto record = read_run_record(file, true);
  if (!record) return std::nullopt;
  const std::array<double, 3>& first = record->first_point;
  return SlabIdentity{record->run_id, int(record->step), {int(first[0]), int(first[1]), int(first[2])}};
}

void require_sound_virtual_sources(hid_t file, hid_t dataset, const std::string& path, const std::string& where) {
  Handle layout(h5::check<InputError>(H5Dget_create_plist(dataset), where), H5Pclose);
  if (H5Pget_layout(layout.get()) != H5D_VIRTUAL) return;
  std::optional<RunRecord> index;
  try {
    index = read_run_record(file, false);
  } catch (const InputError& e) {
    throw InputError(path + ": /heatrk4: " + e.what());
  }
  Handle type(h5::check<InputError>(H5Dget_type(dataset), where), H5Tclose);
  Handle space(h5::check<InputError>(H5Dget_space(dataset), where), H5Sclose);
  const std::vector<Mapping> mappings = read_mappings(layout.get(), where);
  const std::filesystem::path directory = std::filesystem::path(path).parent_path();
  for (const Mapping& m : mappings) {
    // "." is the snapshot file itself; an absolute name stays as it is.
    const std::filesystem::path source = m.file_name == "." ? std::filesystem::path(path) : directory / m.file_name;
    const std::string fault = m.file_name == "." ? std::string() : source_fault(m, source, type.get(), index);
    if (!fault.empty())
      throw InputError(where + " maps the slab file " + source.string() + ", which " + fault +
                       ": a distributed snapshot needs every rank's slab file of its run and step beside it");
  }
  require_sources_tile(mappings, space.get(), where);
}

}  // namespace heat
