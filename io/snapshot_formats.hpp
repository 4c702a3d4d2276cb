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
// distributed run the slab files that hold its parts.
struct Snapshot {
  std::variant<const Field<float>*, const Field<double>*> field;
  int step = 0;
  double time = 0;
  std::vector<SlabFile> slabs;  // in rank order; empty: the field is the whole grid
};

struct SnapshotFormat {
  OutputFormat format;
  const char* name;         // as --format takes it
  const char* extension;    // of each snapshot: heat_<step>.<extension>
  const char* series_file;  // lists the snapshots in step order, rewritten after each one
  std::string (*series_text)(const std::vector<SeriesEntry>& entries);
  // Writes the snapshot's file at `path` (a temporary name).
  void (*write)(const std::string& path, const Snapshot& snapshot, const RunDescription& run,
                const Compression& compress);
  bool (*built)();            // whether this build can write the format
  const char* why_not_built;  // how to get it, where it cannot
  bool distributed;           // written by a run on several ranks (over slab files)
};

extern const SnapshotFormat kFormats[2];

// The entry of `format` in kFormats.
const SnapshotFormat& snapshot_format(OutputFormat format);

}  // namespace heat
