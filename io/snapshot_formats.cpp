#include "io/snapshot_formats.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "io/vtk_snapshot.hpp"
#include "core/errors.hpp"

namespace heat {
namespace {

void write_hdf5(const std::string& path, const Snapshot& s, const RunDescription& run, const Compression& compress) {
  if (!s.slabs.empty()) {
    const bool float_values = std::holds_alternative<const SnapshotSource<float>*>(s.field);
    return write_vtkhdf_virtual_file(path, s.slabs, float_values, run, s.step, s.time, compress);
  }
  std::visit([&](const auto* u) { write_vtkhdf_file(path, *u, run, s.step, s.time, compress, s.gpu); }, s.field);
}

// A piece of whole planes of its box is written from the box; a block of a box that spans part of
// each plane is cut out of it first: one copy of the part's values on the writer's thread, where a
// regroup into whole planes would move every value between the ranks.
template <typename T>
void write_hdf5_piece_of(const std::string& path, const SnapshotSource<T>& box, const SnapshotPiece& piece,
                         const RunDescription& run, const Compression& compress) {
  const GridBlock& p = piece.part;
  const SlabIdentity identity{run.run_id, piece.step, p.begin};
  const int first_plane = p.begin[2] - piece.box_begin[2], planes = p.points_along(2);
  if (p.points_along(0) == box.nx() && p.points_along(1) == box.ny())
    return write_slab_file(path, box, first_plane, planes, compress, identity, piece.gpu);
  const Field<T>& values = box.host();
  const int first_column = p.begin[0] - piece.box_begin[0], first_row = p.begin[1] - piece.box_begin[1];
  auto part = Field<T>::uninitialized(p.points_along(0), p.points_along(1), planes);
  for (int k = 0; k < planes; ++k)
    for (int j = 0; j < part.ny(); ++j)
      std::copy_n(&values(first_column, first_row + j, first_plane + k), part.nx(), &part(0, j, k));
  write_slab_file(path, SnapshotSource<T>(part), 0, planes, compress, identity, piece.gpu);
}

void write_hdf5_piece(const std::string& path, const SnapshotPiece& piece, const RunDescription& run, const Compression& compress) {
  std::visit([&](const auto* box) { write_hdf5_piece_of(path, *box, piece, run, compress); }, piece.box);
}

// A text file at `path` exactly; RunError with the system's reason when it cannot be written.
void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  if (out) out.close();
  if (!out) throw RunError("writing " + path + ": " + std::strerror(errno));
}

// The .vti of the whole grid, or the .pvti over the ranks' pieces. VTK writes the pieces, but
// its vtkXMLPImageDataWriter writes a .pvti only for pieces it makes itself (its extent translator
// cuts the image, which need not be the ranks' slabs), or gathers their extents over its own
// vtkMPIController, which would make MPI calls from the snapshot writer that heatrk4 cannot order
// with its own; so the .pvti, like the .pvd, is written here. VTK's vtkXMLPImageDataReader and
// ParaView read it back in the tests.
void write_vtk(const std::string& path, const Snapshot& s, const RunDescription& run, const Compression& compress) {
  if (!s.slabs.empty()) {
    std::vector<VtiPiece> pieces;
    for (const SlabFile& slab : s.slabs) pieces.push_back({slab.name, slab.block.begin[2], slab.block.end[2] - 1});
    const bool float_values = std::holds_alternative<const SnapshotSource<float>*>(s.field);
    return write_text_file(path, pvti_text(run.problem.grid, float_values, pieces));
  }
  // VTK's own zlib at the gzip level: ZFP is refused for .vti files before any work.
  std::visit(
      [&](const auto* u) { write_vti_file(path, u->host(), run.problem.grid, s.step, s.time, compress.gzip_level()); },
      s.field);
}

template <typename T>
void write_vtk_piece_of(const std::string& path, const Field<T>& box, const SnapshotPiece& piece, const Grid& whole,
                        const Compression& compress) {
  // VTK takes the planes in place when they are the whole box; else they are copied out of it.
  const int first_plane = piece.part.begin[2] - piece.box_begin[2], count = piece.part.points_along(2);
  const int z_begin = piece.part.begin[2];
  if (first_plane == 0 && count == box.nz())
    return write_vti_piece_file(path, box, whole, z_begin, piece.step, piece.time, compress.gzip_level());
  const std::size_t plane = std::size_t(box.nx()) * std::size_t(box.ny());
  auto planes = Field<T>::uninitialized(box.nx(), box.ny(), count);
  std::copy_n(box.data() + std::size_t(first_plane) * plane, planes.size(), planes.data());
  write_vti_piece_file(path, planes, whole, z_begin, piece.step, piece.time, compress.gzip_level());
}

void write_vtk_piece(const std::string& path, const SnapshotPiece& piece, const RunDescription& run, const Compression& compress) {
  std::visit([&](const auto* box) { write_vtk_piece_of(path, box->host(), piece, run.problem.grid, compress); },
             piece.box);
}

// A .vti piece records no run; the output directory is locked for the run (OutputDirectoryLock),
// so the pieces of the step there are this run's, or an earlier run's that it was replacing and
// whose .pvti it never wrote over: neither may stay without a .pvti of this run over them.
void remove_vtk_pieces(const std::string& directory, int step, int ranks, const std::string&) {
  for (int rank = 0; rank < ranks; ++rank) {
    std::error_code ec;
    std::filesystem::remove(std::filesystem::path(directory) / vti_piece_name(step, rank, ranks), ec);
  }
}

}  // namespace

const SnapshotFormat kFormats[2] = {
    {OutputFormat::Hdf5, "hdf5", "hdf", "heat.hdf.series", hdf_series_text, write_hdf5, built_with_hdf5,
     "this build has no HDF5, so it cannot write .hdf snapshots: install libhdf5-dev and reconfigure", "hdf",
     slab_file_name, write_hdf5_piece, false, remove_slab_files_of_run},
    {OutputFormat::Vtk, "vtk", "vti", "heat.pvd", pvd_text, write_vtk, built_with_vtk,
     "this build has no VTK, so it cannot write .vti snapshots: install libvtk9-dev and reconfigure with "
     "-DHEAT_WITH_VTK=ON",
     "pvti", vti_piece_name, write_vtk_piece, true, remove_vtk_pieces},
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
