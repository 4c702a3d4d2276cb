#include "io/series_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "io/input_file.hpp"
#include "core/errors.hpp"

namespace heat {

namespace {
// %.17g: the time read back is the time written, bit for bit.
std::string exact(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return buf;
}

template <typename ParseLine>
std::vector<SeriesEntry> read_entries(const std::string& path, ParseLine parse_line) {
  std::vector<SeriesEntry> entries;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    SeriesEntry entry;
    char name[256] = {};
    if (!parse_line(line.c_str(), name, &entry.time)) continue;
    entry.name = name;
    entry.step = step_from_snapshot_name(entry.name);
    if (entry.step >= 0) record_entry(entries, entry);
  }
  return entries;
}
}  // namespace

std::string hdf_series_text(const std::vector<SeriesEntry>& entries) {
  std::string out = "{\n  \"file-series-version\": \"1.0\",\n  \"files\": [\n";
  for (std::size_t n = 0; n < entries.size(); ++n)
    out += "    {\"name\": \"" + entries[n].name + "\", \"time\": " + exact(entries[n].time) + "}" +
           (n + 1 < entries.size() ? ",\n" : "\n");
  return out + "  ]\n}\n";
}

std::string pvd_text(const std::vector<SeriesEntry>& entries) {
  std::string out =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (const auto& e : entries)
    out += "    <DataSet timestep=\"" + exact(e.time) + "\" group=\"\" part=\"0\" file=\"" + e.name + "\"/>\n";
  return out + "  </Collection>\n</VTKFile>\n";
}

std::string pvti_text(const Grid& grid, bool is_float, const std::vector<VtiPiece>& pieces) {
  const std::string xy = "0 " + std::to_string(grid.nx - 1) + " 0 " + std::to_string(grid.ny - 1) + " ";
  std::string out =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PImageData\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"UInt32\">\n"
      "  <PImageData WholeExtent=\"" + xy + "0 " + std::to_string(grid.nz - 1) + "\" GhostLevel=\"0\" Origin=\"0 0 0\" "
      "Spacing=\"" + exact(grid.hx) + " " + exact(grid.hy) + " " + exact(grid.hz) + "\" "
      "Direction=\"1 0 0 0 1 0 0 0 1\">\n"
      "    <PPointData Scalars=\"u\">\n"
      "      <PDataArray type=\"" + std::string(is_float ? "Float32" : "Float64") + "\" Name=\"u\"/>\n"
      "    </PPointData>\n";
  for (const VtiPiece& piece : pieces)
    out += "    <Piece Extent=\"" + xy + std::to_string(piece.z_first) + " " + std::to_string(piece.z_last) +
           "\" Source=\"" + piece.name + "\"/>\n";
  return out + "  </PImageData>\n</VTKFile>\n";
}

std::vector<SeriesEntry> read_hdf_series_entries(const std::string& path) {
  return read_entries(path, [](const char* line, char* name, double* time) {
    return std::sscanf(line, " {\"name\": \"%255[^\"]\", \"time\": %lf", name, time) == 2;
  });
}

std::optional<std::vector<SeriesEntry>> read_intact_hdf_series(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto entries = read_hdf_series_entries(path);
  if (hdf_series_text(entries) != text) return std::nullopt;
  return entries;
}

std::vector<SeriesEntry> hdf_series_of_snapshots_in(const std::string& directory) {
  std::vector<SeriesEntry> entries;
  std::error_code ec;
  for (const auto& file : std::filesystem::directory_iterator(directory, ec)) {
    const std::string name = file.path().filename().string();
    const int step = step_from_snapshot_name(name);
    if (step < 0 || file.path().extension() != ".hdf") continue;
    try {
      const ImageFileInfo info = read_image_file_info(file.path().string());
      if (info.has_run_state && info.step == step) record_entry(entries, {step, info.time, name});
    } catch (const InputError&) {
      // Not a snapshot of heatrk4's (or a damaged one): the series cannot list it.
    }
  }
  return entries;
}

std::vector<SeriesEntry> read_pvd_entries(const std::string& path) {
  return read_entries(path, [](const char* line, char* name, double* time) {
    return std::sscanf(line, " <DataSet timestep=\"%lf\" group=\"\" part=\"0\" file=\"%255[^\"]\"", time, name) == 2;
  });
}

void record_entry(std::vector<SeriesEntry>& entries, const SeriesEntry& entry) {
  const auto at = std::lower_bound(entries.begin(), entries.end(), entry.step,
                                   [](const SeriesEntry& e, int step) { return e.step < step; });
  if (at != entries.end() && at->step == entry.step)
    *at = entry;
  else
    entries.insert(at, entry);
}

std::string snapshot_name(int step, const std::string& extension) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "heat_%06d.", step);
  return buf + extension;
}

std::string slab_file_name(int step, int rank, int ranks) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "heat_%06d.rank%dof%d.h5", step, rank, ranks);
  return buf;
}

namespace {
// The step of "heat_<step>.rank<R>of<N>.<extension>", or -1.
int step_from_piece_name(const std::string& name, const std::string& extension) {
  int step = -1, rank = -1, ranks = -1, consumed = 0;
  const std::string pattern = "heat_%d.rank%dof%d." + extension + "%n";
  if (std::sscanf(name.c_str(), pattern.c_str(), &step, &rank, &ranks, &consumed) < 3 || consumed != int(name.size()))
    return -1;
  return step;
}
}  // namespace

int step_from_slab_file_name(const std::string& name) { return step_from_piece_name(name, "h5"); }

std::string vti_piece_name(int step, int rank, int ranks) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "heat_%06d.rank%dof%d.vti", step, rank, ranks);
  return buf;
}

int step_from_vti_piece_name(const std::string& name) { return step_from_piece_name(name, "vti"); }

int step_from_snapshot_name(const std::string& name) {
  int step = -1, consumed = 0;
  if (std::sscanf(name.c_str(), "heat_%d.%*[a-z]%n", &step, &consumed) < 1 || consumed != int(name.size())) return -1;
  return step;
}

}  // namespace heat
