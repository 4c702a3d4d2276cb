// The snapshot formats as one table (docs/design.md §4): each entry names the files of its
// snapshots and how to write one. SnapshotWriter runs the same sequence for each: write under a
// temporary name, commit, list the snapshot in the format's series file.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "io/hdf5_snapshot.hpp"
#include "io/series_files.hpp"
#include "io/snapshots.hpp"

namespace heat {

// One snapshot to write: the field in the run's precision, its step and time, and for a
// distributed run the pieces that hold its parts; `gpu`, the writer's encoder, where it has one.
struct Snapshot {
  std::variant<const SnapshotSource<float>*, const SnapshotSource<double>*> field;
  int step = 0;
  double time = 0;
  // In rank order, each with the block of the whole grid it holds; empty: the field is the whole grid.
  std::vector<SlabFile> slabs;
  GpuZfpEncoder* gpu = nullptr;
};

// One rank's piece of a distributed snapshot: the block `part` of the whole grid, held in `box`, a
// field of the grid's points from `box_begin` (x, y, z) on.
struct SnapshotPiece {
  std::variant<const SnapshotSource<float>*, const SnapshotSource<double>*> box;
  GridBlock part;
  std::array<int, 3> box_begin{};
  int step = 0;
  double time = 0;
  GpuZfpEncoder* gpu = nullptr;
};

struct SnapshotFormat {
  OutputFormat format;
  const char* name;         // as --format takes it
  const char* extension;    // of each snapshot: heat_<step>.<extension>
  const char* series_file;  // lists the snapshots in step order, rewritten after each one
  std::string (*series_text)(const std::vector<SeriesEntry>& entries);
  // Writes the snapshot's file at `path` (a temporary name): the whole field, or over the pieces.
  void (*write)(const std::string& path, const Snapshot& snapshot, const RunDescription& run,
                const Compression& compress);
  bool (*built)();            // whether this build can write the format
  const char* why_not_built;  // how to get it, where it cannot

  // A run on several ranks: each rank writes its piece, then rank 0 the file over them all
  // (heat_<step>.<distributed_extension>), which the series lists.
  const char* distributed_extension;
  std::string (*piece_name)(int step, int rank, int ranks);
  void (*write_piece)(const std::string& path, const SnapshotPiece& piece, const RunDescription& run,
                      const Compression& compress);
  // Each piece but the last also holds the next one's first plane, where the pieces join; each
  // piece is then a run of whole planes.
  bool pieces_share_a_plane;
  // After a distributed snapshot of `step` failed: removes the pieces of the step that the run
  // `run_id` wrote, so that none is left without the file over them. Never throws.
  void (*remove_pieces)(const std::string& directory, int step, int ranks, const std::string& run_id);
};

extern const SnapshotFormat kFormats[2];

// The entry of `format` in kFormats.
const SnapshotFormat& snapshot_format(OutputFormat format);

}  // namespace heat
