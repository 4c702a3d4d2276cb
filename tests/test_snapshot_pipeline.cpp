// Snapshots written beside the step loop (docs/design.md §8): the same files as when the loop
// writes them itself, every snapshot in step order however slow the writer, and a write that
// fails part way through a run ends it with exit 3, the earlier snapshots and the series intact.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "io/compression.hpp"
#include "io/input_file.hpp"
#include "io/series_files.hpp"
#include "io/snapshots.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/snapshot_source.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

// Every point of its field holds the steps taken. Its downloads land late: the value is taken at
// start_download(), but written into the buffer only when the writer waits for it, after a
// delay, as a GPU's copy would (a writer that read the buffer before waiting would see junk).
class LateCopyBackend : public Backend<double>, public AsyncDownloads<double> {
 public:
  void upload(const Field<double>&) override {}
  void step(int count) override {
    if (fail_after >= 0 && steps_taken + count > fail_after) throw RunError("a step after " + std::to_string(fail_after) + " failed");
    steps_taken += count;
  }
  void download(Field<double>& u) override { fill(u, steps_taken); }
  long long first_nonfinite() override { return -1; }  // its values are step counts
  void set_step_dt(double) override {}
  std::unique_ptr<PendingDownload> start_download(Field<double>& u) override {
    fill(u, -1.0);
    return std::make_unique<LateCopy>(u, steps_taken);
  }
  std::unique_ptr<PinnedHostMemory> pin(Field<double>&) override { return nullptr; }
  long long steps_taken = 0;
  long long fail_after = -1;  // >= 0: stepping beyond this many steps throws

 private:
  static void fill(Field<double>& u, double value) {
    for (auto& v : u.values()) v = value;
  }
  struct LateCopy final : PendingDownload {
    LateCopy(Field<double>& u, double value) : u(u), value(value) {}
    void wait() override {
      if (landed) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      fill(u, value);
      landed = true;
    }
    Field<double>& u;
    double value;
    bool landed = false;
  };
};

// LateCopyBackend that also keeps snapshots "on the device" (in memory of its own) of `points`
// values, one at a time: taking a second while the first is held is a defect the loop must never
// commit. As on a GPU, the copy lands late: its values are junk until wait() (or fetch()).
class DeviceCopyBackend : public LateCopyBackend, public DeviceSnapshots<double> {
 public:
  explicit DeviceCopyBackend(std::size_t points) : points(points) {}
  bool takes_device_snapshots() const override { return true; }
  std::unique_ptr<DeviceSnapshot> take_device_snapshot() override {
    if (held) throw std::logic_error("a device snapshot taken while the previous one is held");
    ++taken;
    return std::make_unique<Held>(*this, steps_taken);
  }
  void download(Field<double>& u) override {
    ++downloads;
    LateCopyBackend::download(u);
  }
  const std::size_t points;
  bool held = false;
  int taken = 0, downloads = 0;

 private:
  struct Held final : DeviceSnapshot {
    Held(DeviceCopyBackend& backend, double value) : backend(backend), copy(backend.points, -1.0), value(value) {
      backend.held = true;
    }
    ~Held() override { backend.held = false; }
    void wait() override {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::fill(copy.begin(), copy.end(), value);
    }
    const void* values() const override { return copy.data(); }
    void fetch(void* host) override {
      wait();
      std::copy(copy.begin(), copy.end(), static_cast<double*>(host));
    }
    DeviceCopyBackend& backend;
    std::vector<double> copy;
    double value;
  };
};

std::vector<int> every_kth_step(int steps, int every) {
  std::vector<int> expected;
  for (int s = 0; s < steps; s += every) expected.push_back(s);
  expected.push_back(steps);
  return expected;
}

TEST(SnapshotPipeline, ASlowWriterHoldsTheLoopBackAndLosesOrReordersNothing) {
  const Grid g{6, 5, 4, 1, 1, 1};
  const int steps = 40;
  for (int buffers : {0, 1, 2, 3}) {
    LateCopyBackend backend;
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    std::thread::id writer;
    const std::thread::id loop = std::this_thread::get_id();
    LoopSchedule schedule;
    LoopCallbacks<double> callbacks;
    schedule.output_every = 1;
    schedule.snapshot_buffers = buffers;
    callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
      const Field<double>& field = snapshot.host();
      if (seen.empty()) writer = std::this_thread::get_id();
      EXPECT_EQ(std::this_thread::get_id(), writer) << "every write must come from one thread";
      // With no buffers the loop's own thread writes (where MPI lets only it call a collective).
      EXPECT_EQ(std::this_thread::get_id() == loop, buffers == 0) << buffers << " buffers";
      for (double v : field.values()) ASSERT_EQ(v, done) << "the snapshot of step " << done << " holds another field";
      seen.push_back(done);
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    };
    const LoopTimings t = advance(backend, u, steps, schedule, callbacks).timings;
    EXPECT_EQ(seen, every_kth_step(steps, 1)) << buffers << " buffers";
    EXPECT_EQ(backend.steps_taken, steps);
    EXPECT_EQ(u(0, 0, 0), steps) << "u must hold the final field";
    // 41 writes of at least 3 ms each: the loop, far faster, must have waited for most of them.
    EXPECT_GT(t.output_wait_s, 0.08) << buffers << " buffers";
    EXPECT_GE(t.writer_s, 41 * 0.003) << buffers << " buffers";
  }
}

// Snapshots on the device: each reaches the writer thread held there, with a host field that holds
// nothing until the writer brings it over; the loop holds one at a time (waiting for a slow
// writer), takes the final one there too, and leaves u alone unless the caller reads it.
TEST(SnapshotPipeline, SnapshotsOnTheDeviceReachTheWriterThereOneAtATime) {
  const Grid g{6, 5, 4, 1, 1, 1};
  for (bool final_field_read : {false, true}) {
    DeviceCopyBackend backend(g.points());
    Field<double> u(g, -7.0);
    std::vector<int> seen;
    const std::thread::id loop = std::this_thread::get_id();
    LoopSchedule schedule;
    LoopCallbacks<double> callbacks;
    schedule.output_every = 3;
    schedule.snapshot_buffers = 2;
    schedule.snapshots_on_device = true;
    schedule.final_field_read = final_field_read;
    callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
      EXPECT_NE(std::this_thread::get_id(), loop);
      const double* held = snapshot.on_device();
      ASSERT_NE(held, nullptr) << "step " << done << ": not handed over on the device";
      EXPECT_EQ(held[0], done);
      if (done % 2) {
        const Field<double>& field = snapshot.host();
        EXPECT_EQ(snapshot.on_device(), nullptr) << "step " << done << ": still on the device once brought over";
        for (double v : field.values()) ASSERT_EQ(v, done) << "the snapshot of step " << done << " brought over";
        EXPECT_EQ(&snapshot.host(), &field) << "step " << done << ": brought over twice";
      }
      seen.push_back(done);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    };
    const LoopTimings t = advance(backend, u, 12, schedule, callbacks).timings;
    EXPECT_EQ(seen, every_kth_step(12, 3));
    EXPECT_EQ(backend.taken, 5);
    EXPECT_FALSE(backend.held);
    EXPECT_GT(t.output_wait_s, 0.004) << "the loop must wait while the device copy is held";
    EXPECT_EQ(backend.downloads, final_field_read ? 1 : 0);
    EXPECT_EQ(u(0, 0, 0), final_field_read ? 12 : -7) << "u is the final field only where it is read";
  }
  // Without a writer thread the snapshots are written from u, as on a backend without a device copy.
  DeviceCopyBackend backend(g.points());
  Field<double> u(g, 0.0);
  LoopSchedule schedule;
  LoopCallbacks<double> callbacks;
  schedule.output_every = 3;
  schedule.snapshot_buffers = 0;
  schedule.snapshots_on_device = true;
  int written = 0;
  callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
    EXPECT_EQ(snapshot.on_device(), nullptr);
    EXPECT_EQ(snapshot.host()(0, 0, 0), done);
    ++written;
  };
  advance(backend, u, 12, schedule, callbacks);
  EXPECT_EQ(written, 5);
  EXPECT_EQ(backend.taken, 0);
}

TEST(SnapshotPipeline, AFailedWriteEndsTheLoopAndNoLaterSnapshotIsWritten) {
  const Grid g{6, 5, 4, 1, 1, 1};
  for (int buffers : {0, 1, 2, -1}) {  // -1: snapshots on the device
    DeviceCopyBackend backend(g.points());
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    LoopSchedule schedule;
    LoopCallbacks<double> callbacks;
    schedule.output_every = 1;
    schedule.snapshot_buffers = buffers < 0 ? 1 : buffers;
    schedule.snapshots_on_device = buffers < 0;
    callbacks.snapshot = [&](const SnapshotSource<double>&, int done) {
      if (done == 7) throw RunError("disk full at step 7");
      seen.push_back(done);
    };
    EXPECT_THROW(advance(backend, u, 50, schedule, callbacks), RunError) << buffers << " buffers";
    EXPECT_EQ(seen, every_kth_step(6, 1)) << buffers << " buffers";
  }
}

TEST(SnapshotPipeline, AFailedStepStillWritesTheSnapshotsTakenBeforeIt) {
  const Grid g{6, 5, 4, 1, 1, 1};
  for (int buffers : {0, 1, 2, 3, -1}) {  // -1: snapshots on the device
    DeviceCopyBackend backend(g.points());
    backend.fail_after = 7;
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    LoopSchedule schedule;
    LoopCallbacks<double> callbacks;
    schedule.output_every = 1;
    schedule.snapshot_buffers = buffers < 0 ? 1 : buffers;
    schedule.snapshots_on_device = buffers < 0;
    callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
      for (double v : snapshot.host().values()) ASSERT_EQ(v, done) << "the snapshot of step " << done << " holds another field";
      seen.push_back(done);
      // Slower than the loop: at the failure, every buffer holds a snapshot still to be written.
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    };
    EXPECT_THROW(advance(backend, u, 50, schedule, callbacks), RunError) << buffers << " buffers";
    EXPECT_EQ(seen, every_kth_step(7, 1)) << buffers << " buffers: the snapshots taken before the failure";
  }
}

// Every backend's start_download: the snapshot holds the field of the step it was taken at,
// bitwise, although the backend stepped on (and, on a GPU, swapped and rewrote its fields) while
// the copy was in flight; and the run itself is unchanged by the snapshot.
template <typename T>
void expect_snapshot_taken_while_stepping_is_exact(const BackendEntry& entry) {
  const Grid g{37, 29, 23, 1, 1, 1};
  for (int order : {2, 8}) {
    const Problem p = test::gpu_test_problem(g, order);
    const Field<T> start = field_cast<T>(randn_field(g, 17 + order));
    BackendOptions options;
    options.snapshots_while_stepping = true;
    auto run = [&](int steps) {
      auto plain = entry.make<T>(p, BackendOptions{});
      plain->upload(start);
      plain->step(steps);
      Field<T> u(g, T(-1));
      plain->download(u);
      return u;
    };
    auto backend = entry.make<T>(p, options);
    // The CUDA backends copy while stepping, and keep a device copy when made for it; the cpu
    // backends have neither capability (start_download then downloads, blocking).
    EXPECT_EQ(capability<AsyncDownloads<T>>(*backend) != nullptr, entry.uses_cuda) << entry.name;
    EXPECT_EQ(takes_device_snapshots(*backend), entry.uses_cuda) << entry.name;
    backend->upload(start);
    backend->step(3);
    Field<T> first(g, T(-1)), second(g, T(-1)), final(g, T(-1));
    const auto pinned_first = pin_for_downloads(*backend, first);
    const auto pinned_second = pin_for_downloads(*backend, second);
    auto copy_first = start_download(*backend, first);
    backend->step(2);
    auto copy_second = start_download(*backend, second);
    backend->step(4);
    backend->download(final);
    copy_second->wait();
    copy_first->wait();
    const auto bits_equal = [](const Field<T>& a, const Field<T>& b) {
      return std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
    };
    EXPECT_TRUE(bits_equal(first, run(3))) << entry.name << " order " << order << ": the snapshot at step 3";
    EXPECT_TRUE(bits_equal(second, run(5))) << entry.name << " order " << order << ": the snapshot at step 5";
    EXPECT_TRUE(bits_equal(final, run(9))) << entry.name << " order " << order << ": the final field";
    if (!takes_device_snapshots(*backend)) continue;
    // Held on the device while the backend steps on, then brought over.
    auto held = capability<DeviceSnapshots<T>>(*backend)->take_device_snapshot();
    backend->step(2);
    Field<T> fetched(g, T(-1));
    held->fetch(fetched.data());
    EXPECT_TRUE(bits_equal(fetched, run(9))) << entry.name << " order " << order << ": the snapshot held on the device";
  }
}

// A test for each backend of the registry; those on a GPU are skipped where there is none.
class EachBackend : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (entry().uses_cuda && gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU on this machine";
  }
  const BackendEntry& entry() const { return *default_registry().find(GetParam()); }
};

class StartDownload : public EachBackend {};

TEST_P(StartDownload, TakesTheFieldOfItsStepWhileTheBackendStepsOnFloat) {
  expect_snapshot_taken_while_stepping_is_exact<float>(entry());
}
TEST_P(StartDownload, TakesTheFieldOfItsStepWhileTheBackendStepsOnDouble) {
  expect_snapshot_taken_while_stepping_is_exact<double>(entry());
}

INSTANTIATE_TEST_SUITE_P(Registry, StartDownload, ::testing::ValuesIn(default_registry().names()),
                         [](const auto& info) { return info.param; });

// The command line, end to end: the bits of every snapshot and the series file.
std::vector<std::string> snapshot_run(const std::string& output, int buffers, const std::string& backend = "cpu",
                                      const std::string& precision = "float", const std::string& codec = "0") {
  return {"--nx", "21", "--ny", "19", "--nz", "17", "--order", "4", "--steps", "12", "--output-every", "3",
          "--backend", backend, "--precision", precision, "--init", "randn", "--quiet", "--snapshot-buffers",
          std::to_string(buffers), "--compress", codec, "--output", output, "--json", output + ".json"};
}

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

double json_number(const std::string& json_path, const std::string& key) {
  const std::string text = contents(json_path);
  const auto at = text.find("\"" + key + "\": ");
  if (at == std::string::npos) return -1;
  return std::strtod(text.c_str() + at + key.size() + 4, nullptr);
}

// A true or false of the JSON summary at `json_path`: "true", "false", or "missing".
std::string json_bool(const std::string& json_path, const std::string& key) {
  const std::string text = contents(json_path);
  for (const char* value : {"true", "false"})
    if (text.find("\"" + key + "\": " + value) != std::string::npos) return value;
  return "missing";
}

void expect_same_snapshots(const std::string& a, const std::string& b, const std::string& label) {
  EXPECT_EQ(contents(a + "/heat.hdf.series"), contents(b + "/heat.hdf.series")) << label;
  for (const auto& entry : read_hdf_series_entries(a + "/heat.hdf.series")) {
    const PointArray x = read_point_array(a + "/" + entry.name, "u");
    const PointArray y = read_point_array(b + "/" + entry.name, "u");
    ASSERT_EQ(x.values.size(), y.values.size()) << label << " " << entry.name;
    EXPECT_EQ(std::memcmp(x.values.data(), y.values.data(), x.values.size() * sizeof(double)), 0)
        << label << ": " << entry.name << " differs";
  }
}

// On every backend (on a GPU: the device copy, the copy stream and the pinned buffers; with ZFP,
// the snapshots kept on the device for its encoder), in both precisions: the same files as when
// the loop writes them itself, and a slow writer holds the loop back without losing or
// reordering a snapshot.
void expect_snapshots_beside_the_loop_as_in_it(const std::string& backend, const std::string& precision,
                                               const std::string& codec = "0") {
  const std::string dir = test::temp_directory("pipeline");
  const auto in_loop = run_heatrk4(snapshot_run(dir + "/sync", 0, backend, precision, codec));
  ASSERT_EQ(in_loop.exit_code, 0) << in_loop.output;
  ASSERT_EQ(read_hdf_series_entries(dir + "/sync/heat.hdf.series").size(), 5u);
  const std::string label = backend + " " + precision + " " + codec + ", ";
  // ZFP's snapshots stay on a GPU's device where it has a writer thread, and only there.
  const bool zfp_on_gpu = codec.rfind("zfp:", 0) == 0 && default_registry().find(backend)->uses_cuda;
  EXPECT_EQ(json_bool(dir + "/sync.json", "snapshots_on_device"), "false") << label << "0 buffers";
  for (int buffers : {1, 2, 5}) {
    const std::string out = dir + "/async" + std::to_string(buffers);
    const auto beside = run_heatrk4(snapshot_run(out, buffers, backend, precision, codec));
    EXPECT_EQ(json_bool(out + ".json", "snapshots_on_device"), zfp_on_gpu ? "true" : "false")
        << label << buffers << " buffers";
    ASSERT_EQ(beside.exit_code, 0) << beside.output;
    expect_same_snapshots(dir + "/sync", out, label + std::to_string(buffers) + " buffers");
  }
  // A writer 150 ms slower per snapshot than the loop: one buffer makes the loop wait for it.
  const std::string slow = dir + "/slow";
  const auto delayed = run_heatrk4(snapshot_run(slow, 1, backend, precision, codec), "HEATRK4_TEST_WRITE_DELAY_MS=150");
  ASSERT_EQ(delayed.exit_code, 0) << delayed.output;
  expect_same_snapshots(dir + "/sync", slow, label + "slow writer");
  const std::string json = slow + ".json";
  const double wait = json_number(json, "output_wait_s"), writer = json_number(json, "writer_s");
  EXPECT_GT(writer, 5 * 0.15) << label;
  // Every write happens between the first snapshot and the loop's end, one at a time, so the loop
  // lasts at least the writer's time: what its own work (slow on a loaded machine) did not cover
  // it waited for. The last write starts only once the loop is done, so it is always waited for.
  const double loop_work = json_number(json, "upload_s") + json_number(json, "compute_s") + json_number(json, "download_s");
  EXPECT_GT(wait, 0.15) << label;
  EXPECT_GT(wait, writer - loop_work - 0.05) << label << "the loop ended before its snapshots were written";
}

class SnapshotsBesideTheLoop : public EachBackend {};

TEST_P(SnapshotsBesideTheLoop, AreBitwiseTheOnesWrittenInItAndInOrderBehindASlowWriter) {
  if (!output_format_unavailable_reason(OutputFormat::Hdf5).empty()) GTEST_SKIP() << "this build has no HDF5";
  for (const char* precision : {"float", "double"}) expect_snapshots_beside_the_loop_as_in_it(GetParam(), precision);
}

// ZFP's snapshots, which a GPU run keeps on its device for the GPU's encoder (with a writer
// thread), against the loop's own, downloaded to the host first.
TEST_P(SnapshotsBesideTheLoop, EncodedByZfpAreBitwiseTheOnesWrittenInTheLoop) {
  if (!output_format_unavailable_reason(OutputFormat::Hdf5).empty()) GTEST_SKIP() << "this build has no HDF5";
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (const char* codec : {"zfp:1e-6", "zfp:reversible"}) {
    expect_snapshots_beside_the_loop_as_in_it(GetParam(), "float", codec);
    expect_snapshots_beside_the_loop_as_in_it(GetParam(), "double", codec);
  }
}

// A run that blows up while its snapshots are written beside the loop: the loop's check (on the
// backend, every few steps and at every snapshot step) stops it with exit 3 before a non-finite
// field is taken, and the snapshots already handed to the writer are all written: the series
// lists only complete, finite snapshots, in order, and nothing else is left in the directory.
TEST_P(SnapshotsBesideTheLoop, ABlowUpStopsTheRunAndKeepsTheFiniteSnapshotsTakenBeforeIt) {
  if (!output_format_unavailable_reason(OutputFormat::Hdf5).empty()) GTEST_SKIP() << "this build has no HDF5";
  for (int buffers : {0, 2}) {
    const std::string out = test::temp_directory("blowup") + "/out";
    const auto r = run_heatrk4({"--n", "12", "--order", "2", "--cfl", "2", "--allow-unstable", "--steps", "100000",
                                "--output-every", "5", "--init", "randn", "--precision", "double", "--backend",
                                GetParam(), "--quiet", "--snapshot-buffers", std::to_string(buffers), "--output", out});
    const std::string label = GetParam() + ", " + std::to_string(buffers) + " buffers";
    EXPECT_EQ(r.exit_code, 3) << label << ":\n" << r.output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(after step (\d+))"))) << label << ":\n" << r.output;
    const int blew_up_by = std::stoi(m[1]);
    const auto listed = read_hdf_series_entries(out + "/heat.hdf.series");
    ASSERT_FALSE(listed.empty()) << label;
    // Every snapshot up to the last check that found the field finite, none after.
    EXPECT_EQ(int(listed.size()), (blew_up_by - 1) / 5 + 1) << label << ": blew up by step " << blew_up_by;
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(out)) files += entry.path().filename() != "heat.hdf.series";
    EXPECT_EQ(files, listed.size()) << label << ": a file besides the listed snapshots";
    for (std::size_t s = 0; s < listed.size(); ++s) {
      EXPECT_EQ(listed[s].step, int(5 * s)) << label;
      const PointArray snapshot = read_point_array(out + "/" + listed[s].name, "u");
      for (std::size_t n = 0; n < snapshot.values.size(); ++n)
        ASSERT_TRUE(std::isfinite(snapshot.values.data()[n])) << label << ": " << listed[s].name << " holds a non-finite value";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, SnapshotsBesideTheLoop, ::testing::ValuesIn(default_registry().names()),
                         [](const auto& info) { return info.param; });

TEST(SnapshotPipeline, NegativeOrTooManyBuffersAreRefusedBeforeAnyWork) {
  const std::string dir = test::temp_directory("buffers");
  for (const char* bad : {"-1", "17"}) {
    const auto r = run_heatrk4({"--n", "12", "--backend", "cpu", "--snapshot-buffers", bad, "--output", dir + "/out"});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(std::string("--snapshot-buffers ") + bad), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir + "/out"));
  }
}

// A disk that fills up part way through a run. The run restarts from a field whose interior is
// zero and whose boundary layer is random, with gzip: each step carries the boundary's noise four
// points further in, so each snapshot is larger than the one before, and a file size limit between
// two of them (prlimit, in bytes, with SIGXFSZ ignored) makes the later one fail half written with
// EFBIG, as ENOSPC would.
TEST(SnapshotPipeline, ADiskThatFillsUpMidRunEndsWithExitThreeAndKeepsTheEarlierSnapshots) {
  if (!output_format_unavailable_reason(OutputFormat::Hdf5).empty()) GTEST_SKIP() << "this build has no HDF5";
  const std::string dir = test::temp_directory("filling");
  const Grid g{80, 80, 80, 1.0 / 79, 1.0 / 79, 1.0 / 79};
  Field<double> start = randn_field(g, 5);
  for (int k = 1; k < g.nz - 1; ++k)
    for (int j = 1; j < g.ny - 1; ++j)
      for (int i = 1; i < g.nx - 1; ++i) start(i, j, k) = 0;
  OutputSpec spec;
  spec.directory = dir + "/start";
  RunDescription description;
  description.problem.grid = g;
  description.problem.order = 2;
  description.problem.alpha = 1;
  description.problem.dt = dt_from_cfl(g, 1, 0.05);
  description.precision = "float";
  description.cfl = 0.05;
  description.formats = "hdf5";
  SnapshotWriter(spec, description).write(start, 0, 0.0);

  auto run = [&](const std::string& out, int buffers, const std::string& prefix) {
    return run_heatrk4({"--init", "file", "--init-file", spec.directory + "/heat_000000.hdf", "--order", "2", "--cfl", "0.05",
                        "--steps", "12", "--output-every", "1", "--backend", "cpu", "--precision", "float",
                        "--compress", "1", "--quiet", "--snapshot-buffers", std::to_string(buffers), "--output",
                        out},
                       prefix);
  };
  const auto full = run(dir + "/full", 2, "");
  ASSERT_EQ(full.exit_code, 0) << full.output;
  const auto third = fs::file_size(dir + "/full/heat_000002.hdf"), fourth = fs::file_size(dir + "/full/heat_000003.hdf");
  ASSERT_GT(fourth, third + third / 10) << "the snapshots do not grow enough for this test";
  for (int buffers : {0, 2}) {
    const std::string out = dir + "/limited" + std::to_string(buffers);
    const auto limited = run(out, buffers, "trap '' XFSZ; prlimit --fsize=" + std::to_string((third + fourth) / 2));
    EXPECT_EQ(limited.exit_code, 3) << limited.output;
    EXPECT_NE(limited.output.find("run failed"), std::string::npos) << limited.output;
    // The series lists only complete snapshots, each bitwise the full run's; nothing else is left.
    const auto listed = read_hdf_series_entries(out + "/heat.hdf.series");
    EXPECT_EQ(listed.size(), 3u) << "steps 0, 1 and 2 fit under the limit, step 3 does not";
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
      const std::string name = entry.path().filename().string();
      EXPECT_EQ(name.find(".tmp"), std::string::npos) << "a temporary file was left: " << name;
      files += name != "heat.hdf.series";
    }
    EXPECT_EQ(files, listed.size()) << "a snapshot file is not in the series";
    for (const auto& entry : listed) {
      const PointArray x = read_point_array(out + "/" + entry.name, "u");
      const PointArray y = read_point_array(dir + "/full/" + entry.name, "u");
      EXPECT_EQ(std::memcmp(x.values.data(), y.values.data(), x.values.size() * sizeof(double)), 0) << entry.name;
    }
  }
}

}  // namespace
}  // namespace heat
