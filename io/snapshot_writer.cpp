#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <type_traits>

#include "io/hdf5_snapshot.hpp"
#include "io/output_paths.hpp"
#include "io/safe_write.hpp"
#include "io/series_files.hpp"
#include "io/snapshots.hpp"
#include "io/vtk_snapshot.hpp"
#include "solver/errors.hpp"

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

OutputFormat parse_output_format(const std::string& name) {
  if (name == "hdf5") return OutputFormat::Hdf5;
  if (name == "vtk") return OutputFormat::Vtk;
  if (name == "both") return OutputFormat::Both;
  if (name == "none") return OutputFormat::None;
  throw InputError("--format " + name + " is not a format: use hdf5, vtk, both or none");
}

namespace {
bool writes_hdf5(OutputFormat f) { return f == OutputFormat::Hdf5 || f == OutputFormat::Both; }
bool writes_vtk(OutputFormat f) { return f == OutputFormat::Vtk || f == OutputFormat::Both; }
}  // namespace

std::string output_format_unavailable_reason(OutputFormat format) {
  if (writes_hdf5(format) && !built_with_hdf5())
    return "this build has no HDF5, so it cannot write .hdf snapshots: install libhdf5-dev and reconfigure, or use "
           "--format vtk or none";
  if (writes_vtk(format) && !built_with_vtk())
    return "this build has no VTK, so it cannot write .vti snapshots: install libvtk9-dev and reconfigure with "
           "-DHEAT_WITH_VTK=ON, or use --format hdf5 or none";
  return {};
}

struct SnapshotWriter::Impl {
  OutputSpec spec;
  RunDescription run;
  SnapshotShare share;
  std::vector<std::string> files;
  std::vector<SeriesEntry> hdf_entries, vtk_entries;
  bool directory_ready = false;

  std::string path_of(const std::string& name) const { return (fs::path(spec.directory) / name).string(); }

  void note_file(const std::string& path) {
    if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
  }

  // A restart that writes into the directory it started from keeps the earlier snapshots in
  // the series; a fresh run starts the series anew.
  void adopt_earlier_entries(std::vector<SeriesEntry> earlier, std::vector<SeriesEntry>& into) const {
    if (run.start_step <= 0) return;
    for (const auto& e : earlier)
      // The start's own entry too: a run that writes its start again replaces it (same step).
      if (e.step <= run.start_step && fs::exists(path_of(e.name))) record_entry(into, e);
  }

  // The series a restart continues: heat.hdf.series as heatrk4 wrote it, or else (garbage, cut
  // short, missing) the one the snapshots in the directory make, each with its stored step and time.
  std::vector<SeriesEntry> earlier_hdf_entries() const {
    if (run.start_step <= 0) return {};
    const std::string series = path_of("heat.hdf.series");
    if (auto intact = read_intact_hdf_series(series)) return *intact;
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

  // A slab file takes its final name only once every rank's is complete under its temporary
  // name: a rank that fails before that ends the job with temporary files alone left behind,
  // which the next run in the directory removes. A failure after it (a rename, rank 0's file
  // over the slabs) removes the slab files of the step that this run has renamed. Every
  // rank returns once the snapshot is complete, so a rank that fails after writing its part (and
  // ends the job) never cuts short the snapshot rank 0 is still finishing.
  template <typename T>
  void write_distributed_hdf5(const Field<T>& box, int step, double time) {
    const int part_begin = share.parts[std::size_t(share.rank)].first;
    const int part_end = share.parts[std::size_t(share.rank)].second;
    PendingFile slab(path_of(slab_file_name(step, share.rank, share.ranks)));
    slab.fill([&](const std::string& path) {
      write_slab_file(path, box, part_begin - share.box_begin, part_end - part_begin, spec.compress,
                      SlabIdentity{run.run_id, step, part_begin});
    });
    share.wait_for_every_rank();
    try {
      slab.commit();
      share.wait_for_every_rank();
      if (share.rank == 0) write_file_over_slabs(step, time, std::is_same_v<T, float>);
    } catch (...) {
      remove_slab_files_of_run(spec.directory, step, share.ranks, run.run_id);
      throw;
    }
    if (share.rank == 0) record_hdf_snapshot(step, time);
    share.wait_for_every_rank();
  }

  // heat_<step>.hdf, mapping every rank's slab file.
  void write_file_over_slabs(int step, double time, bool float_values) {
    std::vector<SlabFile> slabs;
    for (int rank = 0; rank < share.ranks; ++rank) {
      const auto [begin, end] = share.parts[std::size_t(rank)];
      slabs.push_back({slab_file_name(step, rank, share.ranks), begin, end});
    }
    PendingFile(path_of(snapshot_name(step, "hdf"))).write([&](const std::string& path) {
      write_vtkhdf_virtual_file(path, slabs, float_values, run, step, time);
    });
  }

  // The series lists a snapshot once its file is complete.
  void record_hdf_snapshot(int step, double time) {
    const std::string name = snapshot_name(step, "hdf");
    note_file(path_of(name));
    record_entry(hdf_entries, {step, time, name});
    write_text_file_safely(path_of("heat.hdf.series"), hdf_series_text(hdf_entries));
  }

  template <typename T>
  void write(const Field<T>& u, int step, double time) {
    if (spec.format == OutputFormat::None) return;
    create_directory_once();
    if (writes_hdf5(spec.format) && share.ranks > 1) {
      write_distributed_hdf5(u, step, time);
    } else if (writes_hdf5(spec.format)) {
      PendingFile(path_of(snapshot_name(step, "hdf"))).write([&](const std::string& path) {
        write_vtkhdf_file(path, u, run, step, time, spec.compress);
      });
      record_hdf_snapshot(step, time);
    }
    if (writes_vtk(spec.format)) {
      // The constructor refuses VTK output on more than one rank.
      const std::string name = snapshot_name(step, "vti");
      PendingFile file(path_of(name));
      file.write([&](const std::string& path) { write_vti_file(path, u, run.problem.grid, step, time, spec.compress); });
      note_file(file.final_path());
      record_entry(vtk_entries, {step, time, name});
      write_text_file_safely(path_of("heat.pvd"), pvd_text(vtk_entries));
    }
  }
};

SnapshotWriter::SnapshotWriter(const OutputSpec& spec, const RunDescription& run, SnapshotShare share)
    : impl_(std::make_unique<Impl>()) {
  impl_->spec = spec;
  impl_->run = run;
  if (impl_->run.run_id.empty()) {
    if (share.ranks > 1) throw std::logic_error("a distributed run's snapshots need one run_id on every rank");
    impl_->run.run_id = new_run_id();
  }
  impl_->share = std::move(share);
  if (spec.format == OutputFormat::None) return;
  if (const std::string reason = output_format_unavailable_reason(spec.format); !reason.empty()) throw InputError(reason);
  if (writes_vtk(spec.format) && impl_->share.ranks > 1)
    throw InputError("--format " + std::string(spec.format == OutputFormat::Vtk ? "vtk" : "both") +
                     ": distributed runs write HDF5 snapshots only (one dataset over per-rank slab files); use "
                     "--format hdf5");
  if (spec.compress < 0 || spec.compress > 9)
    throw InputError("--compress " + std::to_string(spec.compress) + " is out of range: use a gzip level 0..9");
  if (spec.compress > 0 && writes_hdf5(spec.format))
    if (const std::string reason = hdf5_gzip_unavailable_reason(); !reason.empty())
      throw InputError("--compress " + std::to_string(spec.compress) + ": " + reason + "; use --compress 0");
  // One rank cleans the directory, and every rank waits for it: another rank's first slab file
  // must not be taken for an earlier run's, and a pid means nothing on another node.
  if (impl_->share.rank == 0) {
    if (spec.replace_series) remove_series_files(spec.directory);
    remove_abandoned_temporary_files(spec.directory, is_written_by_heatrk4);
  }
  if (impl_->share.wait_for_every_rank) impl_->share.wait_for_every_rank();
  // Rank 0 alone writes the series.
  if (impl_->share.rank == 0) impl_->adopt_earlier_entries(impl_->earlier_hdf_entries(), impl_->hdf_entries);
  impl_->adopt_earlier_entries(read_pvd_entries(impl_->path_of("heat.pvd")), impl_->vtk_entries);
}

SnapshotWriter::~SnapshotWriter() = default;

void SnapshotWriter::write(const Field<float>& u, int step, double time) { impl_->write(u, step, time); }
void SnapshotWriter::write(const Field<double>& u, int step, double time) { impl_->write(u, step, time); }

const std::vector<std::string>& SnapshotWriter::files() const { return impl_->files; }

}  // namespace heat
