#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <type_traits>

#include "io/hdf5_snapshot.hpp"
#include "io/monitor_csv.hpp"
#include "io/output_paths.hpp"
#include "io/safe_write.hpp"
#include "io/series_files.hpp"
#include "io/snapshot_formats.hpp"
#include "io/snapshots.hpp"
#include "io/stale_files.hpp"
#include "core/errors.hpp"

namespace heat {

namespace fs = std::filesystem;

std::string new_run_id() {
  std::random_device random;
  std::string id;
  char digits[9];
  for (int n = 0; n < 4; ++n) {
    std::snprintf(digits, sizeof digits, "%08x", unsigned(random()));
    id += digits;
  }
  return id;
}

struct SnapshotWriter::Impl {
  OutputSpec spec;
  RunDescription run;
  SnapshotShare share;
  std::unique_ptr<GpuZfpEncoder> gpu_encoder;
  std::vector<std::string> files;
  std::vector<SeriesEntry> series[std::size(kFormats)];  // each format's, in kFormats' order
  bool directory_ready = false;
  bool stale_files_handled = false;
  bool materials_written = false;
  StaleFileRemoval stale;  // rank 0's: the replaced run's files, removed beside this run

  std::string path_of(const std::string& name) const { return (fs::path(spec.directory) / name).string(); }

  void note_file(const std::string& path) {
    if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
  }

  // A restart that writes into the directory it started from keeps the earlier snapshots in
  // the series; a fresh run starts the series anew.
  void adopt_earlier_entries(std::vector<SeriesEntry> earlier, std::vector<SeriesEntry>& into) const {
    if (run.start_step <= 0 || spec.replace_series) return;
    for (const auto& e : earlier)
      // The start's own entry too: a run that writes its start again replaces it (same step).
      if (e.step <= run.start_step && fs::exists(path_of(e.name))) record_entry(into, e);
  }

  // The series a restart continues: heat.hdf.series as heatrk4 wrote it, or else (garbage, cut
  // short, missing) the one the snapshots in the directory make, each with its stored step and time.
  std::vector<SeriesEntry> earlier_hdf_entries() const {
    if (run.start_step <= 0 || spec.replace_series) return {};
    const std::string series = path_of(snapshot_format(OutputFormat::Hdf5).series_file);
    if (auto intact = read_intact_hdf_series(series)) {
      const std::string start = snapshot_name(run.start_step, "hdf");
      const auto lists_start = [&](const SeriesEntry& e) { return e.step == run.start_step && e.name == start; };
      if (std::any_of(intact->begin(), intact->end(), lists_start)) return *intact;
      // An earlier restart went back before the start and wrote another history after it: the
      // series starts again here rather than play two histories as one.
      std::fprintf(stderr,
                   "heatrk4: note: %s does not list %s, the snapshot this run starts from (an earlier restart "
                   "went back before it): the series starts again at step %d\n",
                   series.c_str(), start.c_str(), run.start_step);
      return {SeriesEntry{run.start_step, run.start_time, start}};
    }
    std::vector<SeriesEntry> rebuilt;
    for (const auto& entry : hdf_series_of_snapshots_in(spec.directory))
      if (entry.step <= run.start_step) rebuilt.push_back(entry);
    std::error_code ec;
    const bool garbage = fs::exists(series, ec);
    if (garbage || !rebuilt.empty())
      std::fprintf(stderr, "heatrk4: note: %s %s: rebuilt from the %zu snapshots up to step %d there\n",
                   series.c_str(), garbage ? "is not a series heatrk4 wrote (garbage or cut short)" : "is missing",
                   rebuilt.size(), run.start_step);
    return rebuilt;
  }

  void create_directory_once() {
    if (directory_ready) return;
    std::error_code ec;
    fs::create_directories(spec.directory, ec);
    if (ec) throw RunError("cannot create the output directory " + spec.directory + ": " + ec.message());
    if (!fs::is_directory(spec.directory))
      throw RunError("the output path " + spec.directory + " exists and is not a directory");
    directory_ready = true;
  }

  // At the first snapshot, once this run's first file is complete under its temporary name and
  // before it takes its final name: the replaced run's files (spec.replace_series) leave their
  // names at once for the trash, series files first (a reader of the series then finds none,
  // never one that lists a file gone), then the snapshots and monitors.csv, then
  // their slab files and pieces; a thread removes the trash, with whatever an earlier run that was
  // killed left in it, while the run goes on. A run that fails before its first snapshot, or
  // while writing it (a refused bound, a full disk), has changed nothing. Rank 0 does it; every
  // rank waits for it, so that no rank's new slab file is taken for the replaced run's.
  void set_aside_stale_files_once() {
    if (stale_files_handled) return;
    stale_files_handled = true;
    if (share.rank == 0) {
      std::vector<std::string> names;
      if (spec.replace_series) names = run_files_in(spec.directory);
      // A run with monitors replaces monitors.csv whole at its first row, which may come before
      // this point: that file is already this run's.
      if (run.monitor_every > 0) names.erase(std::remove(names.begin(), names.end(), kMonitorFileName), names.end());
      const auto rank_of = [](const std::string& name) {
        return name.rfind("heat.", 0) == 0 ? 0 : name.find(".rank") == std::string::npos ? 1 : 2;
      };
      std::stable_sort(names.begin(), names.end(),
                       [&](const std::string& a, const std::string& b) { return rank_of(a) < rank_of(b); });
      if (!names.empty() || has_trash(spec.directory)) stale.start(spec.directory, names);
    }
    if (share.ranks > 1) share.wait_for_every_rank();
  }

  std::vector<SeriesEntry>& series_of(const SnapshotFormat& format) { return series[std::size_t(&format - kFormats)]; }

  // heat_<step>.<extension> of a format: over the pieces on several ranks.
  const char* extension_of(const SnapshotFormat& format) const {
    return share.ranks > 1 ? format.distributed_extension : format.extension;
  }

  // The file of one snapshot in one format, under its final name once complete.
  void commit_file(const SnapshotFormat& format, const Snapshot& snapshot) {
    PendingFile(path_of(snapshot_name(snapshot.step, extension_of(format))))
        .write([&](const std::string& path) { format.write(path, snapshot, run, spec.compress); },
               [&] { set_aside_stale_files_once(); });
  }

  // A restart into its snapshots' directory on another rank count rewrites a step whose pieces
  // (slab files, .vti pieces) were written for the earlier count: once the step's new file is
  // committed nothing reads them, so rank 0 removes them. Only names the format gives its pieces.
  void remove_pieces_of_other_rank_counts(const SnapshotFormat& format, int step) const {
    // Only a restart that continues the directory's series rewrites an earlier run's steps (a
    // replaced run's files are set aside whole); other runs need no look at the directory.
    if (!format.piece_name || share.rank != 0 || run.start_step <= 0 || spec.replace_series) return;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(spec.directory, ec)) {
      const std::string name = entry.path().filename().string();
      int piece_step = -1, rank = -1, ranks = 0;
      if (std::sscanf(name.c_str(), "heat_%d.rank%dof%d.", &piece_step, &rank, &ranks) != 3) continue;
      if (piece_step != step || ranks == share.ranks || rank < 0 || rank >= ranks) continue;
      if (name == format.piece_name(step, rank, ranks)) fs::remove(entry.path(), ec);
    }
  }

  // The series lists a snapshot once its file is complete.
  void record_snapshot(const SnapshotFormat& format, const Snapshot& snapshot) {
    const std::string name = snapshot_name(snapshot.step, extension_of(format));
    note_file(path_of(name));
    record_entry(series_of(format), {snapshot.step, snapshot.time, name});
    write_text_file_safely(path_of(format.series_file), format.series_text(series_of(format)));
  }

  // The rank's part of the grid, and where pieces share a plane the next rank's first plane after
  // it: this rank's copy of that plane is a ghost plane, which the step leaves a step behind.
  template <typename T>
  SnapshotPiece piece_of_rank(const SnapshotFormat& format, const SnapshotSource<T>& source, const PieceLayout& layout,
                              const Snapshot& snapshot, Field<T>& joined, const SnapshotSource<T>& joined_source) const {
    const GridBlock& part = layout.parts[std::size_t(share.rank)];
    SnapshotPiece piece{&source, part, layout.field_begin, snapshot.step, snapshot.time, snapshot.gpu};
    if (!format.pieces_share_a_plane) return piece;
    const Field<T>& box = source.host();
    if (!share.pass_down) throw std::logic_error("pieces that share a plane need SnapshotShare::pass_down");
    if (part.points_along(0) != box.nx() || part.points_along(1) != box.ny())
      throw std::logic_error("pieces that share a plane are runs of whole planes");
    const int first = part.begin[2] - layout.field_begin[2], planes = part.points_along(2);
    const std::size_t plane = std::size_t(box.nx()) * std::size_t(box.ny());
    const bool has_next = share.rank + 1 < share.ranks;
    if (has_next) {
      joined = Field<T>::uninitialized(box.nx(), box.ny(), planes + 1);
      std::copy_n(box.data() + std::size_t(first) * plane, std::size_t(planes) * plane, joined.data());
      const GridBlock with_next{part.begin, {part.end[0], part.end[1], part.end[2] + 1}};
      piece = {&joined_source, with_next, part.begin, snapshot.step, snapshot.time, snapshot.gpu};
    }
    share.pass_down(box.data() + std::size_t(first) * plane,
                    has_next ? joined.data() + std::size_t(planes) * plane : nullptr, plane * sizeof(T));
    return piece;
  }

  // A piece takes its final name only once every rank's is complete under its temporary name: a
  // rank that fails before that ends the job with temporary files alone left behind, which the
  // next run in the directory removes. A failure after it (a rename, rank 0's file over the
  // pieces) removes the pieces of the step that this run has renamed. Every rank returns once
  // the snapshot is complete, so a rank that fails after writing its piece (and ends the job)
  // never cuts short the snapshot rank 0 is still finishing.
  template <typename T>
  void write_distributed(const SnapshotFormat& format, const SnapshotSource<T>& box, const PieceLayout& layout,
                         Snapshot snapshot) {
    Field<T> joined;
    const SnapshotSource<T> joined_source(joined);
    const SnapshotPiece piece = piece_of_rank(format, box, layout, snapshot, joined, joined_source);
    PendingFile file(path_of(format.piece_name(snapshot.step, share.rank, share.ranks)));
    file.fill([&](const std::string& path) { format.write_piece(path, piece, run, spec.compress); });
    share.wait_for_every_rank();
    set_aside_stale_files_once();
    for (int rank = 0; rank < share.ranks; ++rank) {
      GridBlock block = layout.parts[std::size_t(rank)];
      if (format.pieces_share_a_plane && rank + 1 < share.ranks) ++block.end[2];
      snapshot.slabs.push_back({format.piece_name(snapshot.step, rank, share.ranks), block});
    }
    try {
      file.commit();
      share.wait_for_every_rank();
      if (share.rank == 0) commit_file(format, snapshot);  // the file over every piece
    } catch (...) {
      format.remove_pieces(spec.directory, snapshot.step, share.ranks, run.run_id);
      throw;
    }
    if (share.rank == 0) record_snapshot(format, snapshot);
    remove_pieces_of_other_rank_counts(format, snapshot.step);
    share.wait_for_every_rank();
  }

  // The material fields beside the HDF5 series, once a run: rank 0 writes them after the run's first
  // snapshot, once the replaced run's files (an earlier materials.hdf among them) are set aside.
  void write_materials_once() {
    if (materials_written || !stale_files_handled || share.rank != 0 || !run.problem.materials ||
        !spec.formats.has(OutputFormat::Hdf5))
      return;
    const std::string path = path_of(kMaterialsFileName);
    PendingFile(path).write([&](const std::string& temporary) { write_materials_file(temporary, run); });
    note_file(path);
    materials_written = true;
  }

  template <typename T>
  void write(const SnapshotSource<T>& u, int step, double time, OutputFormats skip, const SnapshotSource<T>* planes) {
    if (spec.formats.empty()) return;
    create_directory_once();
    const Snapshot snapshot{&u, step, time, {}, gpu_encoder.get()};
    for (const SnapshotFormat& format : kFormats) {
      if (!spec.formats.has(format.format) || skip.has(format.format)) continue;
      if (share.ranks > 1) {
        const bool as_planes = share.written_as_planes.has(format.format);
        if (as_planes && !planes) throw std::logic_error("a format written as planes without this rank's planes");
        write_distributed(format, as_planes ? *planes : u, as_planes ? share.planes : share.boxes, snapshot);
      } else {
        commit_file(format, snapshot);
        record_snapshot(format, snapshot);
        remove_pieces_of_other_rank_counts(format, snapshot.step);
      }
    }
    write_materials_once();
  }
};

SnapshotWriter::SnapshotWriter(const OutputSpec& spec, const RunDescription& run, SnapshotShare share,
                               std::unique_ptr<GpuZfpEncoder> gpu_encoder)
    : impl_(std::make_unique<Impl>()) {
  impl_->spec = spec;
  impl_->run = run;
  impl_->gpu_encoder = std::move(gpu_encoder);
  if (impl_->run.run_id.empty()) {
    if (share.ranks > 1) throw std::logic_error("a distributed run's snapshots need one run_id on every rank");
    impl_->run.run_id = new_run_id();
  }
  impl_->share = std::move(share);
  if (spec.formats.empty()) return;
  if (const std::string reason = output_format_unavailable_reason(spec.formats); !reason.empty())
    throw InputError(reason);
  const std::string compress = "--compress " + compression_name(spec.compress);
  if (spec.compress.codec == Codec::Gzip && (spec.compress.level < 1 || spec.compress.level > 9))
    throw InputError(compress + " is out of range: use a gzip level 0..9");
  if (spec.compress.codec == Codec::Gzip && spec.formats.has(OutputFormat::Hdf5))
    if (const std::string reason = hdf5_gzip_unavailable_reason(); !reason.empty())
      throw InputError(compress + ": " + reason + "; use --compress 0");
  if (const std::string reason = compression_unavailable_reason(spec.compress, spec.formats.has(OutputFormat::Vtk));
      !reason.empty())
    throw InputError(compress + ": " + reason);
  // One rank removes the temporary files of dead writers, and every rank waits for it: a pid
  // means nothing on another node. The replaced run's files go at the first snapshot.
  if (impl_->share.rank == 0) remove_abandoned_temporary_files(spec.directory, is_written_by_heatrk4);
  if (impl_->share.wait_for_every_rank) impl_->share.wait_for_every_rank();
  // A series file is read below and replaced at each snapshot: anything but a file there (a
  // directory, a FIFO) is refused before any work rather than failing the run at its first snapshot.
  for (const SnapshotFormat& format : kFormats) {
    const std::string series = impl_->path_of(format.series_file);
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(series, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
      throw InputError(series + " is not a file (a directory, link or device), so the run cannot keep its series "
                                "there: move it away, or choose another --output");
  }
  // Rank 0 alone writes the series.
  const SnapshotFormat& hdf5 = snapshot_format(OutputFormat::Hdf5);
  const SnapshotFormat& vtk = snapshot_format(OutputFormat::Vtk);
  if (impl_->share.rank == 0) impl_->adopt_earlier_entries(impl_->earlier_hdf_entries(), impl_->series_of(hdf5));
  impl_->adopt_earlier_entries(read_pvd_entries(impl_->path_of(vtk.series_file)), impl_->series_of(vtk));
}

SnapshotWriter::~SnapshotWriter() = default;

void SnapshotWriter::write(const SnapshotSource<float>& u, int step, double time, OutputFormats skip,
                           const SnapshotSource<float>* planes) {
  impl_->write(u, step, time, skip, planes);
}
void SnapshotWriter::write(const SnapshotSource<double>& u, int step, double time, OutputFormats skip,
                           const SnapshotSource<double>* planes) {
  impl_->write(u, step, time, skip, planes);
}

bool SnapshotWriter::encodes_on_gpu() const { return impl_->gpu_encoder != nullptr; }

const std::vector<std::string>& SnapshotWriter::files() const { return impl_->files; }

StaleRemoval SnapshotWriter::finish_stale_removal() {
  StaleFileRemoval& stale = impl_->stale;
  StaleRemoval done;
  if (!stale.started()) return done;
  done.wait_s = stale.finish();
  done.files = stale.files_set_aside();
  done.seconds = stale.seconds();
  if (!stale.problem().empty())
    std::fprintf(stderr, "heatrk4: note: %s; the next run that writes a snapshot here tries again\n",
                 stale.problem().c_str());
  return done;
}

}  // namespace heat
