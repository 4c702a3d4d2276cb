#include "io/chunk_reads.hpp"

#include <omp.h>

#include <algorithm>
#include <filesystem>

#include "io/hdf5_chunks.hpp"
#include "io/hdf5_support.hpp"
#include "io/zfp/zfp_chunks.hpp"
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

// The dataset's H5Z-ZFP cd_values when its filters are exactly H5Z-ZFP then Fletcher-32; empty otherwise.
std::vector<unsigned> zfp_pipeline(hid_t layout) {
  if (H5Pget_layout(layout) != H5D_CHUNKED || H5Pget_nfilters(layout) != 2) return {};
  unsigned flags = 0, config = 0, values[16];
  std::size_t count = 16;
  if (H5Pget_filter2(layout, 0, &flags, &count, values, 0, nullptr, &config) != H5Z_filter_t(kZfpFilterId) ||
      count > 16)
    return {};
  std::size_t none = 0;
  if (H5Pget_filter2(layout, 1, &flags, &none, nullptr, 0, nullptr, &config) != H5Z_FILTER_FLETCHER32) return {};
  return std::vector<unsigned>(values, values + count);
}

std::string chunk_text(const hsize_t (&origin)[3]) {
  return "the chunk at (z, y, x) = (" + std::to_string(origin[0]) + ", " + std::to_string(origin[1]) + ", " +
         std::to_string(origin[2]) + ")";
}

// One stored chunk: where it starts and its bytes, zfp's stream then its Fletcher-32.
struct StoredChunk {
  hsize_t origin[3];
  std::vector<unsigned char> bytes;
};

}  // namespace

namespace {

// A distributed snapshot's dataset: each slab file's planes, read as read_zfp_dataset reads a
// file, straight into their place (a slab is whole planes, so its place is contiguous). False
// when a slab is not a ZFP dataset of whole planes.
bool read_zfp_slabs(hid_t layout, const std::string& path, hid_t space, double* values) {
  hsize_t dims[3];
  std::size_t mappings = 0;
  if (H5Sget_simple_extent_ndims(space) != 3 || H5Pget_virtual_count(layout, &mappings) < 0) return false;
  H5Sget_simple_extent_dims(space, dims, nullptr);
  for (std::size_t m = 0; m < mappings; ++m) {
    const std::string file_name = source_path(h5::virtual_mapping_text(layout, m, H5Pget_virtual_filename), path);
    const std::string dataset_name = h5::virtual_mapping_text(layout, m, H5Pget_virtual_dsetname);
    Handle place(H5Pget_virtual_vspace(layout, m), H5Sclose);
    hsize_t start[3], end[3];
    if (!place.valid() || H5Sget_select_bounds(place.get(), start, end) < 0 || start[1] != 0 || start[2] != 0 ||
        end[1] + 1 != dims[1] || end[2] + 1 != dims[2])
      return false;
    Handle file(H5Fopen(file_name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    Handle slab(file.valid() ? H5Dopen2(file.get(), dataset_name.c_str(), H5P_DEFAULT) : -1, H5Dclose);
    if (!slab.valid()) return false;
    if (!read_zfp_dataset(slab.get(), file_name, values + std::size_t(start[0] * dims[1] * dims[2]))) return false;
  }
  return true;
}

}  // namespace

bool read_zfp_dataset(hid_t dataset, const std::string& path, double* values) {
  if (!built_with_zfp()) return false;
  Handle layout(H5Dget_create_plist(dataset), H5Pclose);
  if (layout.valid() && H5Pget_layout(layout.get()) == H5D_VIRTUAL) {
    Handle whole(H5Dget_space(dataset), H5Sclose);
    const bool read = read_zfp_slabs(layout.get(), path, whole.get(), values);
    h5::take_error_stack();
    return read;
  }
  const std::vector<unsigned> cd_values = layout.valid() ? zfp_pipeline(layout.get()) : std::vector<unsigned>();
  Handle space(H5Dget_space(dataset), H5Sclose);
  hsize_t dims[3], chunk[3], chunks = 0;
  if (cd_values.empty() || H5Sget_simple_extent_ndims(space.get()) != 3 || H5Pget_chunk(layout.get(), 3, chunk) != 3 ||
      H5Dget_num_chunks(dataset, space.get(), &chunks) < 0)
    return h5::take_error_stack(), false;
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  hsize_t expected = 1;
  for (int d = 0; d < 3; ++d) expected *= (dims[d] + chunk[d] - 1) / chunk[d];
  if (chunks != expected) return false;  // chunks never written read as fill values: HDF5 knows how
  const std::size_t chunk_values = std::size_t(chunk[0] * chunk[1] * chunk[2]);
  // The stored bytes are read in order on this thread (HDF5 is not thread-safe here) a batch at a
  // time, and decoded on every core.
  const std::int64_t batch = 4 * std::int64_t(omp_get_max_threads());
  std::vector<StoredChunk> stored(std::size_t(std::min<std::int64_t>(batch, std::int64_t(chunks))));
  for (hsize_t first = 0; first < chunks; first += hsize_t(batch)) {
    const std::int64_t count = std::min<std::int64_t>(batch, std::int64_t(chunks - first));
    for (std::int64_t c = 0; c < count; ++c) {
      StoredChunk& s = stored[std::size_t(c)];
      unsigned mask = 0;
      haddr_t address = 0;
      hsize_t size = 0;
      std::uint32_t read_mask = 0;
      if (H5Dget_chunk_info(dataset, space.get(), first + hsize_t(c), s.origin, &mask, &address, &size) < 0 ||
          mask != 0)
        return h5::take_error_stack(), false;  // a chunk stored unfiltered: HDF5 knows how
      s.bytes.resize(size);
      if (size < 4 || H5Dread_chunk(dataset, H5P_DEFAULT, s.origin, &read_mask, s.bytes.data()) < 0)
        throw InputError(path + ": " + chunk_text(s.origin) + " cannot be read: " + h5::take_error_stack());
    }
    std::vector<std::string> problems(static_cast<std::size_t>(count));
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < count; ++c) {
      const StoredChunk& s = stored[std::size_t(c)];
      const std::size_t stream = s.bytes.size() - 4;
      std::uint32_t sum = 0;
      for (int b = 0; b < 4; ++b) sum |= std::uint32_t(s.bytes[stream + std::size_t(b)]) << (8 * b);
      if (sum != fletcher32(s.bytes.data(), stream)) {
        problems[std::size_t(c)] = "its Fletcher-32 checksum does not match (the chunk is damaged)";
        continue;
      }
      std::vector<double> box(chunk_values);
      problems[std::size_t(c)] = zfp_decode_chunk(cd_values, s.bytes.data(), stream, box.data(), chunk_values);
      if (!problems[std::size_t(c)].empty()) continue;
      // The part of the box inside the dataset, row by row.
      const hsize_t* o = s.origin;
      for (hsize_t dz = 0; dz < chunk[0] && o[0] + dz < dims[0]; ++dz)
        for (hsize_t dy = 0; dy < chunk[1] && o[1] + dy < dims[1]; ++dy)
          std::copy_n(&box[std::size_t((dz * chunk[1] + dy) * chunk[2])],
                      std::size_t(std::min(chunk[2], dims[2] - o[2])),
                      values + std::size_t(((o[0] + dz) * dims[1] + o[1] + dy) * dims[2] + o[2]));
    }
    for (std::int64_t c = 0; c < count; ++c)
      if (!problems[std::size_t(c)].empty())
        throw InputError(path + ": " + chunk_text(stored[std::size_t(c)].origin) +
                         " cannot be read: " + problems[std::size_t(c)]);
  }
  return true;
}

std::string unreadable_chunk_note(hid_t dataset, const std::string& path) {
  const std::string found = describe_unreadable_chunk(dataset, path);
  return found.empty() ? found : "; " + found;
}

}  // namespace heat
