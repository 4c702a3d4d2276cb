#include "io/snapshot_formats.hpp"

#include <stdexcept>

#include "io/vtk_snapshot.hpp"
#include "solver/errors.hpp"

namespace heat {
namespace {

void write_hdf5(const std::string& path, const Snapshot& s, const RunDescription& run, int compress) {
  if (!s.slabs.empty()) {
    const bool float_values = std::holds_alternative<const Field<float>*>(s.field);
    return write_vtkhdf_virtual_file(path, s.slabs, float_values, run, s.step, s.time);
  }
  std::visit([&](const auto* u) { write_vtkhdf_file(path, *u, run, s.step, s.time, compress); }, s.field);
}

void write_vtk(const std::string& path, const Snapshot& s, const RunDescription& run, int compress) {
  std::visit([&](const auto* u) { write_vti_file(path, *u, run.problem.grid, s.step, s.time, compress); }, s.field);
}

}  // namespace

const SnapshotFormat kFormats[2] = {
    {OutputFormat::Hdf5, "hdf5", "hdf", "heat.hdf.series", hdf_series_text, write_hdf5, built_with_hdf5,
     "this build has no HDF5, so it cannot write .hdf snapshots: install libhdf5-dev and reconfigure", true},
    {OutputFormat::Vtk, "vtk", "vti", "heat.pvd", pvd_text, write_vtk, built_with_vtk,
     "this build has no VTK, so it cannot write .vti snapshots: install libvtk9-dev and reconfigure with "
     "-DHEAT_WITH_VTK=ON",
     false},
};

const SnapshotFormat& snapshot_format(OutputFormat format) {
  for (const SnapshotFormat& f : kFormats)
    if (f.format == format) return f;
  throw std::logic_error("a format without an entry in kFormats");
}

OutputFormats parse_output_formats(const std::string& text) {
  if (text == "none") return {};
  if (text == "both") return {OutputFormat::Hdf5, OutputFormat::Vtk};
  const std::string use = ": use hdf5, vtk, a comma list of them such as hdf5,vtk, or none";
  OutputFormats formats;
  for (std::size_t begin = 0;;) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    const SnapshotFormat* found = nullptr;
    for (const SnapshotFormat& f : kFormats)
      if (item == f.name) found = &f;
    if (item.empty()) throw InputError("--format " + shown_value(text) + " has an empty item" + use);
    if (!found)
      throw InputError("--format " + shown_value(text) + ": " + shown_value(item) + " is not a format" +
                       (item == "none" || item == "both" ? " in a list (it stands alone)" : "") + use);
    if (formats.has(found->format))
      throw InputError("--format " + shown_value(text) + " names " + item + " twice" + use);
    formats.add(found->format);
    if (comma == std::string::npos) return formats;
    begin = comma + 1;
  }
}

std::string output_formats_name(OutputFormats formats) {
  std::string name;
  for (const SnapshotFormat& f : kFormats)
    if (formats.has(f.format)) name += (name.empty() ? "" : ",") + std::string(f.name);
  return name.empty() ? "none" : name;
}

std::string output_format_unavailable_reason(OutputFormats formats) {
  for (const SnapshotFormat& f : kFormats) {
    if (!formats.has(f.format) || f.built()) continue;
    std::string others;
    for (const SnapshotFormat& other : kFormats)
      if (&other != &f) others += std::string(other.name) + " or ";
    return std::string(f.why_not_built) + ", or use --format " + others + "none";
  }
  return {};
}

}  // namespace heat
