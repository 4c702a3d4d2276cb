// Snapshots of a run (docs/design.md §4): HDF5 VTKHDF ImageData files and a .hdf.series, VTK
// .vti files and a .pvd. Each file is written under a temporary name and renamed when complete.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/compression.hpp"
#include "core/problem.hpp"
#include "core/snapshot_source.hpp"
#include "io/zfp/gpu_zfp_encoder.hpp"

namespace heat {

enum class OutputFormat { Hdf5, Vtk };

// The formats a run writes its snapshots in (--format hdf5,vtk); empty: none.
class OutputFormats {
 public:
  OutputFormats() = default;
  OutputFormats(OutputFormat format) { add(format); }  // one format: a set of one
  OutputFormats(std::initializer_list<OutputFormat> formats) {
    for (OutputFormat f : formats) add(f);
  }
  void add(OutputFormat format) { bits_ |= bit(format); }
  bool has(OutputFormat format) const { return (bits_ & bit(format)) != 0; }
  bool empty() const { return bits_ == 0; }
  bool operator==(const OutputFormats& other) const { return bits_ == other.bits_; }
  bool operator!=(const OutputFormats& other) const { return bits_ != other.bits_; }

 private:
  static unsigned bit(OutputFormat format) { return 1u << unsigned(format); }
  unsigned bits_ = 0;
};

// --format's value: "hdf5", "vtk", a comma list of them ("hdf5,vtk"; "both" is hdf5 and vtk), or
// "none". InputError naming the value for an unknown name, an empty item or a name given twice.
OutputFormats parse_output_formats(const std::string& text);
// The set as --format names it: "hdf5,vtk", "none".
std::string output_formats_name(OutputFormats formats);
// Empty when this build can write every format of the set, else why not (for an exit-2 message).
std::string output_format_unavailable_reason(OutputFormats formats);

// A --source as a snapshot records it: its text, and for a file source a checksum of the array
// it read ("" for the others), so that a restart knows the source it continues with.
struct SourceRecord {
  std::string text;
  std::string checksum;
  bool operator==(const SourceRecord& o) const { return text == o.text && checksum == o.checksum; }
};

// The options that gave a run material fields (Problem::materials), as a snapshot records them:
// each given one by its long name, and a checksum of the fields they built (K, then C, in double),
// so that a restart reads the files again and refuses them where they have changed since.
inline constexpr const char* kMaterialOptions[] = {"conductivity-file",   "conductivity-array", "heat-capacity-file",
                                                   "heat-capacity-array", "materials",          "material-labels"};
struct MaterialRecord {
  std::vector<std::pair<std::string, std::string>> options;  // (name, value), in kMaterialOptions' order
  std::string checksum;
  bool empty() const { return options.empty(); }
  bool operator==(const MaterialRecord& o) const { return options == o.options && checksum == o.checksum; }
};

// What a snapshot records about the run besides the field (written to /heatrk4).
struct RunDescription {
  Problem problem;
  std::string backend;
  std::string precision;
  std::string init;            // gaussian | randn | sine | file
  unsigned long long seed = 0;
  std::string init_file;       // for --init file
  double cfl = 0;
  int total_steps = 0;         // steps this run takes
  int start_step = 0;          // the step number the run starts at (non-zero after a restart)
  double start_time = 0;       // the physical time at start_step
  int output_every = 0;        // --output-every, for a restart to go on with
  std::string formats;         // --format as output_formats_name writes it ("hdf5,vtk"), likewise
  std::vector<SourceRecord> sources;  // the run's --source values, in order
  MaterialRecord materials;           // none without material fields
  std::string command_line;
  // End time and monitors: --t-end (none: --steps), --probe as a comma list, --monitor-every.
  std::optional<double> t_end;
  // With t_end: the step it is reached at and that step's dt, for a restart to land on the same
  // bits (its own arithmetic from a later start would round the last dt differently).
  int end_step = 0;
  double last_step_dt = 0;
  std::string probes;
  int monitor_every = 0;
  // Names this run in its snapshots and slab files, the same on every rank (a distributed
  // snapshot's reader checks that each slab file is this run's); SnapshotWriter draws one for a
  // single rank when it is empty.
  std::string run_id;
};

// A fresh run_id: 128 random bits as 32 hexadecimal digits.
std::string new_run_id();

struct OutputSpec {
  std::string directory = "heatrk4-out";
  OutputFormats formats = OutputFormat::Hdf5;
  Compression compress;  // of HDF5 snapshots (--compress); .vti files take its gzip level
  // Replace the snapshots and series files already there (--overwrite, or the default directory):
  // set aside at the first snapshot and removed beside the run (io/stale_files.hpp).
  bool replace_series = false;
};

// The multiple the ranks' parts of a distributed snapshot begin at (decompose's part_alignment):
// where lossy ZFP compresses each rank's slab file, whole 4-plane blocks at the same global planes
// as in one process make the stored values the same for any rank count. 1 otherwise.
inline int snapshot_part_alignment(const OutputSpec& spec) {
  return spec.formats.has(OutputFormat::Hdf5) && spec.compress.codec == Codec::ZfpAccuracy ? kZfpBlockEdge : 1;
}

// A block of the grid: the points [begin, end) along x, y and z.
struct GridBlock {
  std::array<int, 3> begin{}, end{};
  int points_along(int axis) const { return end[std::size_t(axis)] - begin[std::size_t(axis)]; }
};

// How the fields write() is given lie over the ranks: every rank's part of the grid, in rank
// order (the parts tile the grid), and where this rank's field begins in the grid.
struct PieceLayout {
  std::vector<GridBlock> parts;
  std::array<int, 3> field_begin{};
};

// This process's share of a distributed run's snapshots (docs/design.md §7). write() is then given
// the rank's box: each rank writes its part of the grid to a piece (an HDF5 slab file, a .vti),
// and rank 0, once every piece is complete, the file over them: heat_<step>.hdf, which maps every
// slab file into one dataset, or heat_<step>.pvti, which joins the .vti pieces into one image.
struct SnapshotShare {
  int rank = 0, ranks = 1;
  // The boxes write() is given: on z slabs each part a run of whole planes, on a rank grid that
  // splits x or y a box of the grid.
  PieceLayout boxes;
  // On a rank grid that splits x or y, the formats whose pieces are runs of whole planes all the
  // same, and their layout (one run a rank): write() is given this rank's run beside its box.
  OutputFormats written_as_planes;
  PieceLayout planes;
  // Collective among the ranks' snapshot writers: returns once every rank has called it. Called
  // on the thread that writes, which may be a writer thread while the step loop exchanges halos.
  std::function<void()> wait_for_every_rank;
  // Collective among the writers like wait_for_every_rank: sends `bytes` at `to_lower` to the rank
  // below (rank 0 sends nothing) and receives the rank above's into `from_upper` (the last rank
  // receives nothing). A format whose pieces share a plane gets the next rank's first plane so.
  std::function<void(const void* to_lower, void* from_upper, std::size_t bytes)> pass_down;
};

// The replaced run's files (OutputSpec::replace_series) and an earlier run's trash, removed on a
// thread beside the run: how many files were set aside, the removal's own seconds and the seconds
// the run waited for it at its end.
struct StaleRemoval {
  std::size_t files = 0;
  double seconds = 0, wait_s = 0;
};

// Writes numbered snapshots of one run into one directory and keeps the series files
// (heat.hdf.series, heat.pvd) current after each snapshot.
// The directory is created at the first snapshot, so a run that fails before one leaves none.
// Throws RunError (exit 3) when the directory cannot be created or a write fails; a failed
// write leaves no file under a final name and earlier snapshots as they were.
class SnapshotWriter {
 public:
  // `gpu_encoder`: encodes ZFP snapshots on the run's GPU (from the snapshot's device copy where
  // it has one); without it, libzfp on the host's cores.
  SnapshotWriter(const OutputSpec& spec, const RunDescription& run, SnapshotShare share = {},
                 std::unique_ptr<GpuZfpEncoder> gpu_encoder = nullptr);
  ~SnapshotWriter();
  // step is the absolute step number (start_step + steps done); time the physical time. `skip`:
  // formats of the spec not written this time (the file a restart starts from, which holds the state).
  // `planes`: this rank's run of whole planes (SnapshotShare::planes) where the share writes some
  // format as planes, for those formats.
  void write(const SnapshotSource<float>& u, int step, double time, OutputFormats skip = {},
             const SnapshotSource<float>* planes = nullptr);
  void write(const SnapshotSource<double>& u, int step, double time, OutputFormats skip = {},
             const SnapshotSource<double>* planes = nullptr);
  // Whether ZFP snapshots are encoded on the GPU (the writer was given an encoder).
  bool encodes_on_gpu() const;
  // The files written so far, final names, for the summary.
  const std::vector<std::string>& files() const;
  // Waits for the removal of the replaced run's files (none started: all zero); notes on stderr
  // what could not be removed. Call once the last snapshot is written; the destructor waits too.
  StaleRemoval finish_stale_removal();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace heat
