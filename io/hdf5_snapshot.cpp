#include "io/hdf5_snapshot.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>
#include <vector>

#include "io/hdf5_chunks.hpp"
#include "io/hdf5_support.hpp"
#include "io/run_settings.hpp"
#include "io/series_files.hpp"
#include "io/slab_files.hpp"
#include "core/errors.hpp"
#include "core/materials.hpp"

// H5Dwrite_chunk, with which compressed chunks are written whole, came with HDF5 1.10.3.
#if !H5_VERSION_GE(1, 10, 3)
#error "heatrk4 needs HDF5 1.10.3 or later (H5Dwrite_chunk)"
#endif

namespace heat {

namespace {

using h5::Handle;

// Error checking for one file: every failure names the file and the step that failed.
struct FileContext {
  std::string path;
  hid_t check(hid_t id, const char* what) const { return h5::check<RunError>(id, "writing " + path + ": " + what); }
  void check_status(herr_t status, const char* what) const {
    if (status < 0) throw RunError("writing " + path + ": " + what + ": " + h5::take_error_stack());
  }
};

void write_vtkhdf_attributes(const FileContext& file, hid_t vtkhdf, const Grid& g) {
  file.check_status(h5::write_attribute(vtkhdf, "Version", std::vector<std::int64_t>{1, 0}), "attribute Version");
  file.check_status(h5::write_string_attribute(vtkhdf, "Type", "ImageData"), "attribute Type");
  file.check_status(h5::write_attribute(vtkhdf, "WholeExtent",
                                        std::vector<std::int64_t>{0, g.nx - 1, 0, g.ny - 1, 0, g.nz - 1}),
                    "attribute WholeExtent");
  file.check_status(h5::write_attribute(vtkhdf, "Origin", std::vector<double>{0, 0, 0}), "attribute Origin");
  file.check_status(h5::write_attribute(vtkhdf, "Spacing", std::vector<double>{g.hx, g.hy, g.hz}), "attribute Spacing");
  file.check_status(h5::write_attribute(vtkhdf, "Direction", std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}),
                    "attribute Direction");
}

// The run's configuration, so a snapshot says how it was made and a restart can continue it.
void write_run_group(const FileContext& file, hid_t root, const RunDescription& run, int step, double time,
                     const Compression& compression) {
  Handle group(file.check(H5Gcreate2(root, "heatrk4", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group /heatrk4"),
               H5Gclose);
  const hid_t g = group.get();
  const Problem& p = run.problem;
  const auto number = [&](const char* name, auto value) {
    using V = decltype(value);
    if constexpr (std::is_floating_point_v<V>)
      file.check_status(h5::write_scalar_attribute(g, name, double(value)), name);
    else if constexpr (std::is_unsigned_v<V>)  // --seed takes 0 to 2^64-1
      file.check_status(h5::write_scalar_attribute(g, name, std::uint64_t(value)), name);
    else
      file.check_status(h5::write_scalar_attribute(g, name, std::int64_t(value)), name);
  };
  const auto text = [&](const char* name, const std::string& value) {
    file.check_status(h5::write_string_attribute(g, name, value), name);
  };
  number("step", step);
  number("time", time);
  number("nx", p.grid.nx);
  number("ny", p.grid.ny);
  number("nz", p.grid.nz);
  number("hx", p.grid.hx);
  number("hy", p.grid.hy);
  number("hz", p.grid.hz);
  number("order", p.order);
  number("alpha", p.alpha);
  number("conductivity", p.conductivity);
  number("heat_capacity", p.heat_capacity);
  // Each face's condition as its --bc-FACE option takes it ("bc_x_low" = "flux:2").
  for (int face = 0; face < kFaces; ++face)
    text(stored_boundary_name(face).c_str(), boundary_condition_text(p.boundaries[face]));
  // Each --source as source_1 ... (file sources with source_N_checksum), their count beside them.
  number("source_count", run.sources.size());
  for (std::size_t n = 0; n < run.sources.size(); ++n) {
    text(stored_source_name(n).c_str(), run.sources[n].text);
    if (!run.sources[n].checksum.empty()) text((stored_source_name(n) + "_checksum").c_str(), run.sources[n].checksum);
  }
  // The options that gave material fields as material_OPTION ("material_conductivity-file"), and
  // the checksum of the fields they built.
  for (const auto& [name, value] : run.materials.options) text(stored_material_name(name).c_str(), value);
  if (!run.materials.empty()) text("materials_checksum", run.materials.checksum);
  number("dt", p.dt);
  number("cfl", run.cfl);
  number("total_steps", run.total_steps);
  number("start_step", run.start_step);
  number("start_time", run.start_time);
  number("seed", run.seed);
  text("precision", run.precision);
  text("backend", run.backend);
  text("init", run.init);
  text("init_file", run.init_file);
  text("command_line", run.command_line);
  number("output_every", run.output_every);
  text("format", run.formats);
  text("run_id", run.run_id);
  // The codec of /VTKHDF/PointData/u as --compress names it, and the bound it promises (0: exact).
  text("compression", compression_name(compression));
  number("compression_bound", compression.codec == Codec::ZfpAccuracy ? compression.bound : 0.0);
  // End time and monitors, for a restart to go on with (none where the run had none).
  if (run.t_end) {
    number("t_end", *run.t_end);
    number("t_end_step", run.end_step);
    number("t_end_last_dt", run.last_step_dt);
  }
  if (!run.probes.empty()) text("probes", run.probes);
  number("monitor_every", run.monitor_every);
  file.check_status(group.close(), "group /heatrk4");
}

hid_t file_type_of(bool is_float) { return is_float ? H5T_IEEE_F32LE : H5T_IEEE_F64LE; }

// Dataset `name` under `location`, chunked along whole x rows, holding `u`'s planes
// [first_plane, first_plane + planes).
template <typename T>
void write_planes(const FileContext& file, hid_t location, const char* name, const SnapshotSource<T>& u,
                  int first_plane, int planes, const Compression& compress, GpuZfpEncoder* gpu) {
  Grid g;
  g.nx = u.nx();
  g.ny = u.ny();
  g.nz = planes;
  const hsize_t dims[3] = {hsize_t(g.nz), hsize_t(g.ny), hsize_t(g.nx)};
  Handle space(file.check(H5Screate_simple(3, dims, nullptr), "dataspace"), H5Sclose);
  Handle layout(file.check(H5Pcreate(H5P_DATASET_CREATE), "dataset properties"), H5Pclose);
  require_bound_within_precision(file.path, u, first_plane, planes, compress, gpu);
  const auto chunk = chunk_shape(g, sizeof(T), compress);
  file.check_status(H5Pset_chunk(layout.get(), 3, chunk.data()), "chunking");
  file.check_status(add_compression_filters(layout.get(), compress, std::is_same_v<T, float>, chunk),
                    "compression filters");
  const hid_t memory_type = std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  Handle dataset(file.check(H5Dcreate2(location, name, file_type_of(std::is_same_v<T, float>), space.get(),
                                       H5P_DEFAULT, layout.get(), H5P_DEFAULT),
                            name),
                 H5Dclose);
  if (compress.codec != Codec::None) {
    write_compressed_chunks(file.path, dataset.get(), u, first_plane, planes, chunk, compress, gpu);
  } else {
    file.check_status(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                               u.host().data() + u.index(0, 0, first_plane)),
                      name);
  }
  file.check_status(dataset.close(), name);
}

// /VTKHDF/PointData/u as an HDF5 virtual dataset: each slab file's /u mapped onto its block.
// Serial HDF5 (1.10 and later) reads it as one array, so ParaView, restart and compare see the
// whole grid. The slab names are relative, resolved in the snapshot's own directory.
void write_virtual_planes(const FileContext& file, hid_t location, const Grid& g, bool is_float,
                          const std::vector<SlabFile>& slabs) {
  const hsize_t dims[3] = {hsize_t(g.nz), hsize_t(g.ny), hsize_t(g.nx)};
  Handle whole(file.check(H5Screate_simple(3, dims, nullptr), "dataspace"), H5Sclose);
  Handle layout(file.check(H5Pcreate(H5P_DATASET_CREATE), "dataset properties"), H5Pclose);
  for (const SlabFile& slab : slabs) {
    const GridBlock& b = slab.block;
    const hsize_t slab_dims[3] = {hsize_t(b.points_along(2)), hsize_t(b.points_along(1)), hsize_t(b.points_along(0))};
    const hsize_t start[3] = {hsize_t(b.begin[2]), hsize_t(b.begin[1]), hsize_t(b.begin[0])};
    Handle source(file.check(H5Screate_simple(3, slab_dims, nullptr), "slab dataspace"), H5Sclose);
    file.check_status(H5Sselect_hyperslab(whole.get(), H5S_SELECT_SET, start, nullptr, slab_dims, nullptr),
                      "slab selection");
    file.check_status(H5Pset_virtual(layout.get(), whole.get(), slab.name.c_str(), "/u", source.get()),
                      "virtual mapping");
  }
  file.check_status(H5Sselect_all(whole.get()), "dataspace");
  Handle dataset(file.check(H5Dcreate2(location, "u", file_type_of(is_float), whole.get(), H5P_DEFAULT,
                                       layout.get(), H5P_DEFAULT),
                            "virtual dataset u"),
                 H5Dclose);
  file.check_status(dataset.close(), "virtual dataset u");
}

// The VTKHDF layout of docs/design.md §4 around the point arrays that `write_u(point_data)` makes;
// `write_run(root)` adds the /heatrk4 group.
template <typename WriteU, typename WriteRun>
void write_vtkhdf_layout(const std::string& path, const Grid& g, WriteU&& write_u, WriteRun&& write_run) {
  h5::initialize_library();
  const FileContext file{path};
  Handle h5file(file.check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "cannot create"),
                H5Fclose);
  {
    Handle vtkhdf(file.check(H5Gcreate2(h5file.get(), "VTKHDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "VTKHDF"),
                  H5Gclose);
    write_vtkhdf_attributes(file, vtkhdf.get(), g);
    {
      Handle point_data(
          file.check(H5Gcreate2(vtkhdf.get(), "PointData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "PointData"),
          H5Gclose);
      write_u(file, point_data.get());
    }
    // CellData and FieldData stay empty. ParaView 5.11's VTKHDF reader reads ImageData field
    // arrays as if they were image-shaped and fails the whole file on a one-value array
    // ("Expecting ndims >= 3"), so time and step are in /heatrk4 and heat.hdf.series instead.
    // The empty groups are there because that reader closes them unconditionally and prints
    // HDF5 errors for each one that is missing.
    for (const char* empty : {"CellData", "FieldData"})
      Handle(file.check(H5Gcreate2(vtkhdf.get(), empty, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), empty), H5Gclose);
  }
  write_run(file, h5file.get());
  // Closing flushes the metadata: on a full disk this is where the failure shows.
  file.check_status(h5file.close(), "closing the file");
}

}  // namespace

bool built_with_hdf5() { return true; }

std::string hdf5_gzip_unavailable_reason() {
  h5::initialize_library();
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) return "this HDF5 library has no gzip (deflate) filter";
  return {};
}

template <typename T>
void write_vtkhdf_file(const std::string& path, const SnapshotSource<T>& u, const RunDescription& run, int step,
                       double time, const Compression& compress, GpuZfpEncoder* gpu) {
  Grid g = run.problem.grid;
  g.nx = u.nx();
  g.ny = u.ny();
  g.nz = u.nz();
  write_vtkhdf_layout(
      path, g,
      [&](const FileContext& file, hid_t point_data) { write_planes(file, point_data, "u", u, 0, u.nz(), compress, gpu); },
      [&](const FileContext& file, hid_t root) { write_run_group(file, root, run, step, time, compress); });
}

void write_materials_file(const std::string& path, const RunDescription& run) {
  const Materials& m = *run.problem.materials;
  write_vtkhdf_layout(
      path, run.problem.grid,
      [&](const FileContext& file, hid_t point_data) {
        const Compression none;
        write_planes<double>(file, point_data, "conductivity", m.conductivity, 0, m.conductivity.nz(), none, nullptr);
        write_planes<double>(file, point_data, "heat_capacity", m.heat_capacity, 0, m.heat_capacity.nz(), none,
                             nullptr);
      },
      [&](const FileContext& file, hid_t root) {
        Handle group(file.check(H5Gcreate2(root, "heatrk4", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group /heatrk4"),
                     H5Gclose);
        const auto text = [&](const std::string& name, const std::string& value) {
          file.check_status(h5::write_string_attribute(group.get(), name.c_str(), value), name.c_str());
        };
        for (const auto& [name, value] : run.materials.options) text(stored_material_name(name), value);
        text("materials_checksum", run.materials.checksum);
        text("run_id", run.run_id);
        file.check_status(group.close(), "group /heatrk4");
      });
}

void write_point_array_file(const std::string& path, const Grid& grid, const std::string& name,
                            const Field<double>& values) {
  write_vtkhdf_layout(
      path, grid,
      [&](const FileContext& file, hid_t point_data) {
        write_planes<double>(file, point_data, name.c_str(), values, 0, values.nz(), Compression{}, nullptr);
      },
      [](const FileContext&, hid_t) {});
}

template <typename T>
void write_slab_file(const std::string& path, const SnapshotSource<T>& box, int first_plane, int planes,
                     const Compression& compress, const SlabIdentity& identity, GpuZfpEncoder* gpu) {
  h5::initialize_library();
  const FileContext file{path};
  Handle h5file(file.check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "cannot create"),
                H5Fclose);
  write_planes(file, h5file.get(), "u", box, first_plane, planes, compress, gpu);
  write_slab_identity(h5file.get(), path, identity);
  file.check_status(h5file.close(), "closing the file");
}

void remove_slab_files_of_run(const std::string& directory, int step, int ranks, const std::string& run_id) {
  h5::initialize_library();
  for (int rank = 0; rank < ranks; ++rank) {
    const std::string path = (std::filesystem::path(directory) / slab_file_name(step, rank, ranks)).string();
    if (H5Fis_hdf5(path.c_str()) <= 0) {
      h5::take_error_stack();
      continue;
    }
    bool ours = false;
    {
      Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
      try {
        const auto identity = file.valid() ? read_slab_identity(file.get()) : std::nullopt;
        ours = identity && identity->run_id == run_id && identity->step == step;
      } catch (const InputError&) {
      }
    }
    h5::take_error_stack();
    if (ours) std::remove(path.c_str());
  }
}

void write_vtkhdf_virtual_file(const std::string& path, const std::vector<SlabFile>& slabs, bool is_float,
                               const RunDescription& run, int step, double time, const Compression& compression) {
  write_vtkhdf_layout(
      path, run.problem.grid,
      [&](const FileContext& file, hid_t point_data) {
        write_virtual_planes(file, point_data, run.problem.grid, is_float, slabs);
      },
      [&](const FileContext& file, hid_t root) { write_run_group(file, root, run, step, time, compression); });
}

template void write_vtkhdf_file<float>(const std::string&, const SnapshotSource<float>&, const RunDescription&, int,
                                       double, const Compression&, GpuZfpEncoder*);
template void write_vtkhdf_file<double>(const std::string&, const SnapshotSource<double>&, const RunDescription&, int,
                                       double, const Compression&, GpuZfpEncoder*);
template void write_slab_file<float>(const std::string&, const SnapshotSource<float>&, int, int, const Compression&,
                                     const SlabIdentity&, GpuZfpEncoder*);
template void write_slab_file<double>(const std::string&, const SnapshotSource<double>&, int, int, const Compression&,
                                     const SlabIdentity&, GpuZfpEncoder*);

}  // namespace heat
