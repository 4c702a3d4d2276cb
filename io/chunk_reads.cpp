#include "io/chunk_reads.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

#include "io/chunk_filters.hpp"
#include "io/hdf5_support.hpp"
#include "core/errors.hpp"

namespace heat {

namespace {

using h5::Handle;

// The file a virtual dataset maps, resolved as HDF5 resolves it: relative to the snapshot's directory.
std::string source_path(const std::string& name, const std::string& path) {
  if (name == ".") return path;
  const std::filesystem::path source(name);
  return source.is_absolute() ? name : (std::filesystem::path(path).parent_path() / source).string();
}

std::string describe_unreadable_source(hid_t layout, const std::string& path) {
  std::size_t mappings = 0;
  if (H5Pget_virtual_count(layout, &mappings) < 0) return {};
  for (std::size_t m = 0; m < mappings; ++m) {
    const std::string file_name = source_path(h5::virtual_mapping_text(layout, m, H5Pget_virtual_filename), path);
    const std::string dataset_name = h5::virtual_mapping_text(layout, m, H5Pget_virtual_dsetname);
    Handle file(H5Fopen(file_name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    Handle dataset(file.valid() ? H5Dopen2(file.get(), dataset_name.c_str(), H5P_DEFAULT) : -1, H5Dclose);
    h5::take_error_stack();
    if (!dataset.valid()) continue;  // a missing slab file is reported before any read
    if (std::string found = describe_unreadable_chunk(dataset.get(), file_name); !found.empty()) return found;
  }
  return {};
}

}  // namespace

std::string describe_unreadable_chunk(hid_t dataset, const std::string& path) {
  Handle layout(H5Dget_create_plist(dataset), H5Pclose);
  if (!layout.valid()) return h5::take_error_stack(), std::string();
  if (H5Pget_layout(layout.get()) == H5D_VIRTUAL) return describe_unreadable_source(layout.get(), path);
  if (H5Pget_layout(layout.get()) != H5D_CHUNKED) return {};
  Handle space(H5Dget_space(dataset), H5Sclose);
  hsize_t dims[3], chunk[3], chunks = 0;
  if (H5Sget_simple_extent_ndims(space.get()) != 3 || H5Pget_chunk(layout.get(), 3, chunk) != 3 ||
      H5Dget_num_chunks(dataset, space.get(), &chunks) < 0)
    return h5::take_error_stack(), std::string();
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  std::vector<double> values(std::size_t(chunk[0] * chunk[1] * chunk[2]));
  for (hsize_t n = 0; n < chunks; ++n) {
    hsize_t origin[3], size = 0;
    unsigned mask = 0;
    haddr_t address = 0;
    if (H5Dget_chunk_info(dataset, space.get(), n, origin, &mask, &address, &size) < 0) continue;
    hsize_t extent[3];
    for (int d = 0; d < 3; ++d) extent[d] = std::min(chunk[d], dims[d] - origin[d]);
    Handle memory(H5Screate_simple(3, extent, nullptr), H5Sclose);
    Handle selection(H5Scopy(space.get()), H5Sclose);
    H5Sselect_hyperslab(selection.get(), H5S_SELECT_SET, origin, nullptr, extent, nullptr);
    if (H5Dread(dataset, H5T_NATIVE_DOUBLE, memory.get(), selection.get(), H5P_DEFAULT, values.data()) >= 0) continue;
    return path + ": the chunk at (z, y, x) = (" + std::to_string(origin[0]) + ", " + std::to_string(origin[1]) + ", " +
           std::to_string(origin[2]) + "), " + std::to_string(size) + " bytes at file offset " +
           std::to_string(address) + ", cannot be read: " + h5::take_error_stack();
  }
  h5::take_error_stack();
  return {};
}

namespace {

std::string chunk_text(const std::array<hsize_t, 3>& origin) {
  return "the chunk at (z, y, x) = (" + std::to_string(origin[0]) + ", " + std::to_string(origin[1]) + ", " +
         std::to_string(origin[2]) + ")";
}

InputError unreadable(const std::string& path, const std::array<hsize_t, 3>& origin, const std::string& why) {
  return InputError(path + ": " + chunk_text(origin) + " cannot be read: " + why);
}

// The dataset's shape and chunk shape, (z, y, x).
struct ChunkGrid {
  hsize_t dims[3], chunk[3];
  std::size_t chunk_values() const { return std::size_t(chunk[0] * chunk[1] * chunk[2]); }
};

// The origins of the chunks overlapping `b`, in order of z, y, x.
std::vector<std::array<hsize_t, 3>> chunks_of_block(const ChunkGrid& g, const DatasetBlock& b) {
  const auto first = [&](int a) { return b.start[a] / g.chunk[a] * g.chunk[a]; };
  const auto end = [&](int a) { return b.start[a] + b.count[a]; };
  std::vector<std::array<hsize_t, 3>> origins;
  for (hsize_t z = first(0); z < end(0); z += g.chunk[0])
    for (hsize_t y = first(1); y < end(1); y += g.chunk[1])
      for (hsize_t x = first(2); x < end(2); x += g.chunk[2]) origins.push_back({z, y, x});
  return origins;
}

// The part of a chunk's values (a whole chunk, x fastest) inside the block `b` and the dataset,
// into its place in `t`.
void place_chunk(const ChunkGrid& g, const std::array<hsize_t, 3>& o, const double* chunk, const DatasetBlock& b,
                 const BlockTarget& t) {
  hsize_t from[3], to[3];  // the overlap, in the dataset's indices
  for (int a = 0; a < 3; ++a) {
    from[a] = std::max(o[a], b.start[a]);
    to[a] = std::min({o[a] + g.chunk[a], b.start[a] + b.count[a], g.dims[a]});
    if (from[a] >= to[a]) return;
  }
  const std::size_t row = std::size_t(to[2] - from[2]);
  for (hsize_t z = from[0]; z < to[0]; ++z)
    for (hsize_t y = from[1]; y < to[1]; ++y) {
      const hsize_t tz = t.offset[0] + z - b.start[0], ty = t.offset[1] + y - b.start[1],
                    tx = t.offset[2] + from[2] - b.start[2];
      std::copy_n(chunk + std::size_t(((z - o[0]) * g.chunk[1] + y - o[1]) * g.chunk[2] + from[2] - o[2]), row,
                  t.values + std::size_t((tz * t.shape[1] + ty) * t.shape[2] + tx));
    }
}

// HDF5 reads the block as a hyperslab straight into its place; a failure names the first chunk
// that does not read.
void hdf5_read_block(hid_t dataset, const std::string& path, const std::string& where, const DatasetBlock& b,
                     const BlockTarget& t) {
  Handle space(h5::check<InputError>(H5Dget_space(dataset), where), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.get()) != 3) throw InputError(where + " is not a 3D array");
  Handle memory(h5::check<InputError>(H5Screate_simple(3, t.shape.data(), nullptr), where), H5Sclose);
  if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, b.start.data(), nullptr, b.count.data(), nullptr) < 0 ||
      H5Sselect_hyperslab(memory.get(), H5S_SELECT_SET, t.offset.data(), nullptr, b.count.data(), nullptr) < 0 ||
      H5Dread(dataset, H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, t.values) < 0) {
    const std::string reason = h5::take_error_stack();
    throw InputError(where + ": cannot read: " + reason + unreadable_chunk_note(dataset, path));
  }
}

// A chunk read stored, then decoded.
struct StoredChunk {
  std::array<hsize_t, 3> origin;
  bool missing = false;  // never written: HDF5 reads the fill value there
  std::vector<unsigned char> bytes;
  std::string problem;
};

// A chunked dataset's block: each index entry of the chunks it overlaps checked
// (io/chunk_filters.hpp). An uncompressed dataset is then read by HDF5 (it reads the block alone);
// a filtered one is read stored a batch at a time on this thread (HDF5 is not thread-safe here)
// and decoded on every core. Returns the values taken from storage (a decoded chunk's every one).
hsize_t read_chunked_block(hid_t dataset, hid_t layout, const std::string& path, const std::string& where,
                           const DatasetBlock& block, const BlockTarget& target) {
  Handle space(h5::check<InputError>(H5Dget_space(dataset), where), H5Sclose);
  Handle type(h5::check<InputError>(H5Dget_type(dataset), where), H5Tclose);
  ChunkGrid g;
  if (H5Sget_simple_extent_ndims(space.get()) != 3 || H5Pget_chunk(layout, 3, g.chunk) != 3)
    throw InputError(where + " is not a 3D array chunked in 3D");
  H5Sget_simple_extent_dims(space.get(), g.dims, nullptr);
  const ChunkFilters filters = read_chunk_filters(layout, type.get(), g.chunk_values(), where);
  const auto origins = chunks_of_block(g, block);
  const auto read_entry = [&](StoredChunk& s) {
    unsigned mask = 0;
    haddr_t address = 0;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(dataset, s.origin.data(), &mask, &address, &size) < 0)
      throw unreadable(path, s.origin, "its index entry does not read: " + h5::take_error_stack());
    s.missing = address == HADDR_UNDEF;
    if (s.missing) return;
    if (std::string fault = index_entry_fault(filters, mask, size); !fault.empty())
      throw unreadable(path, s.origin, fault);
    s.bytes.resize(std::size_t(size));
  };
  if (!filters.filtered()) {
    for (const auto& origin : origins) {
      StoredChunk s;
      s.origin = origin;
      read_entry(s);
    }
    hdf5_read_block(dataset, path, where, block, target);
    return block.points();
  }
  double fill = 0;
  if (H5Pget_fill_value(layout, H5T_NATIVE_DOUBLE, &fill) < 0) fill = 0, h5::take_error_stack();
  const std::size_t chunk_values = g.chunk_values();
  // A few chunks a thread, and at most about 256 MiB of them at once (another writer's chunks
  // may be far larger than heatrk4's 4 MiB).
  const std::size_t chunk_bytes = chunk_values * (sizeof(double) + filters.value_bytes);
  const std::size_t batch = std::clamp<std::size_t>((std::size_t(256) << 20) / chunk_bytes, 1,
                                                    4 * std::size_t(omp_get_max_threads()));
  std::vector<StoredChunk> stored(std::min(batch, origins.size()));
  for (std::size_t first = 0; first < origins.size(); first += batch) {
    const std::size_t count = std::min(batch, origins.size() - first);
    for (std::size_t c = 0; c < count; ++c) {
      StoredChunk& s = stored[c];
      s.origin = origins[first + c];
      s.problem.clear();
      read_entry(s);
      uint32_t read_mask = 0;
      if (!s.missing && H5Dread_chunk(dataset, H5P_DEFAULT, s.origin.data(), &read_mask, s.bytes.data()) < 0)
        throw unreadable(path, s.origin, h5::take_error_stack());
    }
    const bool native = filters.is_float || filters.is_double || !filters.zfp_values.empty();
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < std::int64_t(count); ++c) {
      StoredChunk& s = stored[std::size_t(c)];
      std::vector<double> box(chunk_values, fill);
      if (!s.missing) s.problem = decode_chunk(filters, s.bytes, box.data());
      if (s.problem.empty() && (native || s.missing)) place_chunk(g, s.origin, box.data(), block, target);
    }
    for (std::size_t c = 0; c < count; ++c) {
      StoredChunk& s = stored[c];
      if (!s.problem.empty()) throw unreadable(path, s.origin, s.problem);
      if (native || s.missing) continue;
      // Another value type (integers, another byte order): HDF5 converts the checked values.
      std::vector<double> box(chunk_values);
      s.bytes.resize(std::max(s.bytes.size(), chunk_values * sizeof(double)));
      if (H5Tconvert(type.get(), H5T_NATIVE_DOUBLE, chunk_values, s.bytes.data(), nullptr, H5P_DEFAULT) < 0)
        throw InputError(where + ": its values do not convert to double: " + h5::take_error_stack());
      std::memcpy(box.data(), s.bytes.data(), chunk_values * sizeof(double));
      place_chunk(g, s.origin, box.data(), block, target);
    }
  }
  return hsize_t(origins.size()) * chunk_values;
}

// A distributed snapshot's dataset, whose sources are whole datasets each mapped onto one box
// (heatrk4's slab files): the part of each box that `block` overlaps, read from its slab file as
// a file of its own, straight into its place. False, with nothing read, for any other virtual
// layout. Returns through `points` the values taken from storage.
bool read_slab_blocks(hid_t layout, const std::string& path, const DatasetBlock& block, const BlockTarget& target,
                      hsize_t& points) {
  std::size_t mappings = 0;
  if (H5Pget_virtual_count(layout, &mappings) < 0) return h5::take_error_stack(), false;
  std::vector<std::array<hsize_t, 6>> boxes(mappings);  // each mapping's begin and end (exclusive), (z, y, x)
  for (std::size_t m = 0; m < mappings; ++m) {
    Handle place(H5Pget_virtual_vspace(layout, m), H5Sclose);
    Handle source(H5Pget_virtual_srcspace(layout, m), H5Sclose);
    hsize_t start[3], end[3];
    if (!place.valid() || !source.valid() || H5Sget_select_type(source.get()) != H5S_SEL_ALL ||
        H5Sget_simple_extent_ndims(place.get()) != 3 || H5Sget_select_bounds(place.get(), start, end) < 0 ||
        hssize_t((end[0] - start[0] + 1) * (end[1] - start[1] + 1) * (end[2] - start[2] + 1)) !=
            H5Sget_select_npoints(place.get()))
      return h5::take_error_stack(), false;
    for (int a = 0; a < 3; ++a) boxes[m][std::size_t(a)] = start[a], boxes[m][std::size_t(a) + 3] = end[a] + 1;
  }
  // Opened as the snapshot's dataset is: without a chunk cache.
  Handle access(h5::check<InputError>(H5Pcreate(H5P_DATASET_ACCESS), path), H5Pclose);
  H5Pset_chunk_cache(access.get(), 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT);
  points = 0;
  for (std::size_t m = 0; m < mappings; ++m) {
    DatasetBlock part;
    BlockTarget into = target;
    bool overlaps = true;
    for (std::size_t a = 0; a < 3; ++a) {
      const hsize_t begin = std::max(boxes[m][a], block.start[a]);
      const hsize_t end = std::min(boxes[m][a + 3], block.start[a] + block.count[a]);
      overlaps = overlaps && begin < end;
      if (!overlaps) break;
      part.start[a] = begin - boxes[m][a];
      part.count[a] = end - begin;
      into.offset[a] += begin - block.start[a];
    }
    if (!overlaps) continue;
    const std::string file_name = source_path(h5::virtual_mapping_text(layout, m, H5Pget_virtual_filename), path);
    const std::string dataset_name = h5::virtual_mapping_text(layout, m, H5Pget_virtual_dsetname);
    const std::string where = file_name + ": " + dataset_name;
    Handle file(h5::check<InputError>(H5Fopen(file_name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file_name), H5Fclose);
    Handle slab(h5::check<InputError>(H5Dopen2(file.get(), dataset_name.c_str(), access.get()), where), H5Dclose);
    Handle slab_layout(h5::check<InputError>(H5Dget_create_plist(slab.get()), where), H5Pclose);
    if (H5Pget_layout(slab_layout.get()) == H5D_VIRTUAL)
      throw InputError(where + " is itself a virtual dataset: a slab file holds its points");
    points += read_dataset_block(slab.get(), file_name, where, part, into);
  }
  return true;
}

// Any other virtual dataset: each 3D source read whole, every chunk checked, before HDF5 reads
// the mapping (a source that is not 3D must not be filtered, since heatrk4 cannot check it).
// Returns the values taken from storage.
hsize_t check_virtual_sources(hid_t layout, const std::string& path, const std::string& where) {
  hsize_t points = 0;
  std::size_t mappings = 0;
  if (H5Pget_virtual_count(layout, &mappings) < 0) throw InputError(where + ": " + h5::take_error_stack());
  for (std::size_t m = 0; m < mappings; ++m) {
    const std::string file_name = source_path(h5::virtual_mapping_text(layout, m, H5Pget_virtual_filename), path);
    const std::string dataset_name = h5::virtual_mapping_text(layout, m, H5Pget_virtual_dsetname);
    const std::string source_where = file_name + ": " + dataset_name;
    Handle file(h5::check<InputError>(H5Fopen(file_name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file_name), H5Fclose);
    Handle source(h5::check<InputError>(H5Dopen2(file.get(), dataset_name.c_str(), H5P_DEFAULT), source_where),
                  H5Dclose);
    Handle source_layout(h5::check<InputError>(H5Dget_create_plist(source.get()), source_where), H5Pclose);
    if (H5Pget_layout(source_layout.get()) == H5D_VIRTUAL)
      throw InputError(source_where + " is itself a virtual dataset, which heatrk4 does not read");
    Handle space(h5::check<InputError>(H5Dget_space(source.get()), source_where), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) == 3) {
      hsize_t dims[3];
      H5Sget_simple_extent_dims(space.get(), dims, nullptr);
      std::vector<double> scratch(std::size_t(dims[0] * dims[1] * dims[2]));
      const DatasetBlock whole{{0, 0, 0}, {dims[0], dims[1], dims[2]}};
      points += read_dataset_block(source.get(), file_name, source_where, whole,
                                   BlockTarget{scratch.data(), whole.count, {0, 0, 0}});
    } else if (H5Pget_layout(source_layout.get()) == H5D_CHUNKED && H5Pget_nfilters(source_layout.get()) > 0) {
      throw InputError(source_where + " is a filtered source that is not 3D, which heatrk4 cannot check");
    }
  }
  return points;
}

}  // namespace

hsize_t read_dataset_block(hid_t dataset, const std::string& path, const std::string& where, const DatasetBlock& block,
                           const BlockTarget& target) {
  Handle layout(h5::check<InputError>(H5Dget_create_plist(dataset), where), H5Pclose);
  const H5D_layout_t kind = H5Pget_layout(layout.get());
  if (kind == H5D_CHUNKED) return read_chunked_block(dataset, layout.get(), path, where, block, target);
  hsize_t points = 0;
  if (kind == H5D_VIRTUAL) {
    if (read_slab_blocks(layout.get(), path, block, target, points)) return points;
    points = check_virtual_sources(layout.get(), path, where);
  }
  hdf5_read_block(dataset, path, where, block, target);
  return points + block.points();
}

std::string unreadable_chunk_note(hid_t dataset, const std::string& path) {
  const std::string found = describe_unreadable_chunk(dataset, path);
  return found.empty() ? found : "; " + found;
}

}  // namespace heat
