// How HDF5 snapshots are compressed (--compress, docs/design.md §4): gzip at a level (byte shuffle
// + deflate, HDF5's own filters), ZFP within an absolute error bound, or ZFP reversible (lossless).
// ZFP chunks are stored as the H5Z-ZFP filter (HDF5 filter 32013) stores them, so any HDF5 reader
// with that plugin (ParaView with HDF5_PLUGIN_PATH) reads them; heatrk4 reads them without it.
#pragma once

#include <string>

namespace heat {

enum class Codec { None, Gzip, ZfpAccuracy, ZfpReversible };

struct Compression {
  Codec codec = Codec::None;
  int level = 0;     // gzip's level, 1..9
  double bound = 0;  // ZFP accuracy: the largest absolute error of any stored value
  Compression() = default;
  // A gzip level as --compress has always taken it: 0 is none.
  Compression(int gzip_level) : codec(gzip_level > 0 ? Codec::Gzip : Codec::None), level(gzip_level) {}
  bool is_zfp() const { return codec == Codec::ZfpAccuracy || codec == Codec::ZfpReversible; }
  bool lossless() const { return codec != Codec::ZfpAccuracy; }
  // The level VTK's zlib compressor takes for .vti files (0 for none and for ZFP).
  int gzip_level() const { return codec == Codec::Gzip ? level : 0; }
};

// --compress's value: a gzip level 0..9 (0: none) or gzip:LEVEL; zfp:BOUND (an absolute error
// bound such as zfp:1e-6, positive and finite); zfp:reversible. InputError naming the value and
// the forms otherwise.
Compression parse_compression(const std::string& text);

// The codec as --compress names it, the bound in the fewest digits that read back exactly:
// "none", "gzip:6", "zfp:1e-06", "zfp:reversible".
std::string compression_name(const Compression& compression);

// A ZFP bound is held by float (`is_float`) or double values up to a magnitude: zfp's values come
// back rounded to the precision's resolution at their size, so a value is held within bound B only
// where twice that resolution is at most B. The smallest magnitude not held (a power of two: every
// smaller |value| is held), or infinity for a codec without a bound (docs/design.md §4).
double smallest_magnitude_unheld(const Compression& compression, bool is_float);

// Why snapshots holding values of magnitude `magnitude` or more (at least
// smallest_magnitude_unheld) cannot be compressed with the bound: the resolution there, the
// smallest bound that holds such values, and the fixes.
std::string unheld_bound_reason(const Compression& compression, bool is_float, double magnitude);

// ZFP codes a field in blocks of 4 values along each axis, each block on its own.
constexpr int kZfpBlockEdge = 4;

// True when this build links libzfp (io/zfp/zfp_chunks.cpp; io/zfp/no_zfp.cpp stands in otherwise).
bool built_with_zfp();

// Empty when snapshots of these kinds can be written with `compression`, else why not (for an
// exit-2 message after the option as the user wrote it): ZFP without libzfp in the build, ZFP for
// .vti files (VTK has its own).
std::string compression_unavailable_reason(const Compression& compression, bool writes_vtk);

}  // namespace heat
