// A chunked dataset's filters, decoded by heatrk4 itself: HDF5 decodes a chunk as its index entry
// says (a filter marked skipped is skipped, a stored size is trusted) and then copies the chunk's
// full size out of whatever the filters gave back, reading past a short result. So heatrk4 reads
// the stored bytes (H5Dread_chunk), checks the index entry against the dataset, and decodes them
// here, each step's size checked, before any value is used (docs/design.md §4, "Reading").
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <string>
#include <vector>

namespace heat {

// What decoding a chunk of one dataset takes: its filters in the order they were applied when it
// was written, and the size of a chunk's values.
struct ChunkFilters {
  std::vector<H5Z_filter_t> filters;
  std::vector<unsigned> zfp_values;  // H5Z-ZFP's cd_values, where it is the first filter
  std::size_t chunk_values = 0, value_bytes = 0;
  bool is_float = false, is_double = false;  // native float or double: widened while decoding
  // A stored chunk of an uncompressed dataset (shuffle and Fletcher-32 at most) has one size.
  std::size_t exact_stored_bytes = 0;  // 0 where the filters compress
  std::size_t most_stored_bytes = 0;   // where they do, the most a stored chunk may take
  bool filtered() const { return !filters.empty(); }
};

// The filters of a chunked dataset of `type` (its creation properties `layout`, chunks of
// `chunk_values` values). Throws InputError naming `where` for a filter heatrk4 does not decode
// (anything but byte shuffle, deflate, Fletcher-32 and H5Z-ZFP first) or an order it cannot.
ChunkFilters read_chunk_filters(hid_t layout, hid_t type, std::size_t chunk_values, const std::string& where);

// Why a chunk whose index entry says `filter_mask` and `stored_bytes` cannot be one of this
// dataset's: a filter marked skipped (heatrk4 writes none so, and HDF5 would then take the
// stored bytes for the values), or a size no chunk of it can have. Empty when it can.
std::string index_entry_fault(const ChunkFilters& filters, unsigned filter_mask, hsize_t stored_bytes);

// Decodes one chunk's stored bytes. Where the values are native float or double, or the filters
// H5Z-ZFP's, they land in `values` (chunk_values doubles) and `stored` is left spent; otherwise
// `stored` holds the values' bytes in the dataset's type for the caller to convert. Empty when it
// succeeds, else why not. Safe to call from several threads at once.
std::string decode_chunk(const ChunkFilters& filters, std::vector<unsigned char>& stored, double* values);

}  // namespace heat
