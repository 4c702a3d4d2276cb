// The files that make numbered snapshots play as a time series in ParaView: heat.hdf.series
// (JSON, for the .hdf files) and heat.pvd (VTK collection XML, for the .vti files).
// VTK's C++ API has no .pvd writer (vtkXMLPVDWriter belongs to ParaView), so both are written here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace heat {

struct SeriesEntry {
  int step = 0;
  double time = 0;
  std::string name;  // the file name, relative to the series file's directory
};

std::string hdf_series_text(const std::vector<SeriesEntry>& entries);
std::string pvd_text(const std::vector<SeriesEntry>& entries);

// One piece of a distributed .vti snapshot: its file's name (relative to the .pvti's directory)
// and the planes [z_first, z_last] of the whole grid it holds, both ends included.
struct VtiPiece {
  std::string name;
  int z_first = 0, z_last = 0;
};

// The .pvti (VTK's PImageData XML) that joins the pieces into one image of `grid`: point array u
// of Float32 or Float64 values. Pieces that meet share a plane (z_last of one is z_first of the
// next), as VTK's own parallel writer makes them: a point's cells then lie in one piece, so the
// pieces join without a gap.
std::string pvti_text(const Grid& grid, bool is_float, const std::vector<VtiPiece>& pieces);

// The entries of a series file that heatrk4 wrote earlier (used when a restart writes into the
// same directory, so the series keeps the snapshots before the restart). Lines that do not
// parse are skipped; a missing file gives no entries.
std::vector<SeriesEntry> read_hdf_series_entries(const std::string& path);
std::vector<SeriesEntry> read_pvd_entries(const std::string& path);

// The entries of the heat.hdf.series at `path`, or none when there is no such file or it is not
// exactly what heatrk4 writes (garbage, cut short, edited): such a series is rebuilt, not trusted.
std::optional<std::vector<SeriesEntry>> read_intact_hdf_series(const std::string& path);

// The series of the snapshots heat_<step>.hdf in `directory`, each with the step and time stored
// in its /heatrk4 group; files that do not read as heatrk4's snapshot of the step in their name
// are left out.
std::vector<SeriesEntry> hdf_series_of_snapshots_in(const std::string& directory);

// Adds or replaces (same step) an entry, keeping the list in step order.
void record_entry(std::vector<SeriesEntry>& entries, const SeriesEntry& entry);

// "heat_000042.hdf" for step 42 and extension "hdf"; the step number back from such a name, or -1.
std::string snapshot_name(int step, const std::string& extension);
int step_from_snapshot_name(const std::string& name);
// "heat_000042.rank1of3.vti": rank 1's piece of a 3-rank run's .vti snapshot 42, which
// heat_000042.pvti joins into one image; the step back from such a name, or -1.
std::string vti_piece_name(int step, int rank, int ranks);
int step_from_vti_piece_name(const std::string& name);
// "heat_000042.rank1of3.h5": rank 1's planes of a 3-rank run's snapshot 42, which heat_000042.hdf
// maps into one dataset; the step back from such a name, or -1.
std::string slab_file_name(int step, int rank, int ranks);
int step_from_slab_file_name(const std::string& name);

}  // namespace heat
