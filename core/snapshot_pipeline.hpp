// Snapshots that leave the step loop at once (docs/design.md §8): the loop hands a snapshot
// to a host buffer (start_download: AsyncDownloads' where the backend has it, which on a GPU
// returns while the copy travels, else a blocking download) and steps on; one writer thread waits
// for the copy and writes it. A bounded number of buffers gives back-pressure: the loop waits only
// when every buffer still holds a snapshot being written.
// With no buffers there is no writer thread: each snapshot is downloaded into the loop's own field
// and written on the loop's thread before it steps on (a distributed snapshot's collective may
// then be called where MPI lets only that thread call it). Either way the write function runs on
// one thread, so a library that is not thread-safe (HDF5) is called from one thread. A write that
// fails ends the pipeline: later snapshots are not written, and the loop's next call rethrows the
// failure. Snapshots on the device: where the writer reads a snapshot where the GPU holds it (a
// ZFP encoder on the run's GPU), the loop takes each into the backend's one device copy instead of
// a host buffer, hands it to the writer as a SnapshotSource on the device, and waits only while the
// previous one is still being written.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/backend.hpp"
#include "core/seconds.hpp"
#include "core/snapshot_source.hpp"

namespace heat {

template <typename T>
class SnapshotPipeline {
 public:
  using WriteFunction = std::function<void(const SnapshotSource<T>&, int steps_done)>;

  // `buffers` > 0: a writer thread and host buffers shaped like `loop_field` for submit(), no
  // more than the snapshots taken while stepping (none where only submit_held() is used); the
  // writer thread allocates (and pins) them first, while the run sets up and steps; a backend
  // without AsyncDownloads downloads into them, blocking. 0: no thread, and submit() downloads
  // into `loop_field` itself and writes it at once. `on_device` (with buffers > 0, and a backend
  // whose DeviceSnapshots takes_device_snapshots()): no host buffers; submit() takes the
  // snapshot on the device, and `write` is handed a SnapshotSource on the device, with a host
  // field of its shape to land in.
  SnapshotPipeline(Backend<T>& backend, Field<T>& loop_field, int buffers, int snapshots_while_stepping,
                   WriteFunction write, bool on_device = false)
      : backend_(backend),
        loop_field_(loop_field),
        beside_the_loop_(buffers > 0),
        on_device_(on_device && buffers > 0 && takes_device_snapshots(backend)),
        nx_(loop_field.nx()),
        ny_(loop_field.ny()),
        nz_(loop_field.nz()),
        capacity_(on_device_ ? 0 : std::min(buffers, snapshots_while_stepping)),
        write_(std::move(write)),
        // Untouched unless a reader other than the GPU's encoder brings a snapshot to the host.
        handed_(on_device_ ? Field<T>::uninitialized(nx_, ny_, nz_) : Field<T>()),
        writer_(beside_the_loop_ ? std::thread(&SnapshotPipeline::run_writer, this) : std::thread()) {}

  // Stops the writer after the snapshot it is writing; queued ones are dropped (there are some
  // only when the run has failed before drain()). Copies still landing in a buffer are waited for.
  ~SnapshotPipeline() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    if (writer_.joinable()) writer_.join();
    for (Item& item : queue_) wait_quietly(item);
  }

  SnapshotPipeline(const SnapshotPipeline&) = delete;
  SnapshotPipeline& operator=(const SnapshotPipeline&) = delete;

  // Takes the backend's current field into a free buffer and queues its write. Waits (counted in
  // wait_seconds) while no buffer is free; throws the writer's failure. With no buffers: downloads
  // into the loop's field and writes it before returning.
  void submit(int steps_done) {
    if (!beside_the_loop_) {
      check();
      backend_.download(loop_field_);
      write_here(loop_field_, steps_done);
      return;
    }
    if (on_device_) return submit_on_device(steps_done);
    std::unique_lock<std::mutex> lock(mutex_);
    const int slot = take_free_slot(lock);
    Buffer& buffer = buffers_[std::size_t(slot)];
    lock.unlock();
    auto download = start_download(backend_, buffer.field);
    lock.lock();
    queue_.push_back(Item{&buffer.field, slot, steps_done, std::move(download), nullptr});
    ++pending_;
    changed_.notify_all();
  }

  // Whether snapshots are taken on the device (submit() for the final one too, the loop's field untouched).
  bool on_device() const { return on_device_; }

  // Queues the write of a field the caller holds unchanged until drain() returns (with no
  // buffers, drain() writes it).
  void submit_held(const Field<T>& field, int steps_done) {
    std::lock_guard<std::mutex> lock(mutex_);
    throw_failure();
    queue_.push_back(Item{&field, -1, steps_done, std::make_unique<LandedDownload>(), nullptr});
    ++pending_;
    changed_.notify_all();
  }

  // Waits (counted in wait_seconds) until every queued snapshot is written; throws the writer's failure.
  void drain() {
    if (!beside_the_loop_) return write_queued_here();
    std::unique_lock<std::mutex> lock(mutex_);
    timed_wait(lock, [&] { return pending_ == 0 || failure_; });
    throw_failure();
  }

  // Waits until every queued snapshot is written or the writer has failed, without throwing: for
  // a run that is failing for another reason, whose snapshots taken so far are still written.
  void finish_quietly() {
    if (!beside_the_loop_) {
      try {
        write_queued_here();
      } catch (...) {
        // The run's own failure is the one reported.
      }
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    timed_wait(lock, [&] { return pending_ == 0 || failure_; });
  }

  // When every buffer is ready and every snapshot written (so no copy from the device is still
  // to land), frees the buffers (their memory unpinned) and returns true: after that the pipeline
  // touches the backend no more, submit_held() alone may follow, and the backend may go.
  bool release_buffers_if_idle() {
    std::deque<Buffer> released;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (on_device_ || pending_ > 0 || failure_ || int(buffers_.size()) < capacity_) return false;
      released.swap(buffers_);
    }
    return true;  // `released` frees them here, beside the writer
  }

  // Throws the writer's failure, if it has failed.
  void check() {
    std::lock_guard<std::mutex> lock(mutex_);
    throw_failure();
  }

  int pending() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return pending_;
  }
  double wait_seconds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return wait_s_;
  }
  double writer_seconds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return writer_s_;
  }

 private:
  struct Buffer {
    Field<T> field;
    std::unique_ptr<PinnedHostMemory> pinned;  // released before the field it pins
    bool free = true;
  };
  struct Item {
    const Field<T>* field;
    int slot;  // -1: the caller's field, or handed_
    int steps_done;
    std::unique_ptr<PendingDownload> download;  // null for a snapshot on the device
    std::unique_ptr<DeviceSnapshot> on_device;
  };

  template <typename Ready>
  void timed_wait(std::unique_lock<std::mutex>& lock, Ready ready) {
    if (ready()) return;
    const auto t0 = WallClock::now();
    changed_.wait(lock, ready);
    wait_s_ += seconds_since(t0);
  }

  void throw_failure() {
    if (failure_) std::rethrow_exception(failure_);
  }

  void run_writer() {
    prepare_buffers();
    write_queued();
  }

  // Runs on the writer thread: page-locking a field's worth of memory takes a good part of a
  // second at 600^3, which the loop should not wait for.
  void prepare_buffers() {
    for (int n = 0; n < capacity_; ++n) {
      try {
        auto field = Field<T>::uninitialized(nx_, ny_, nz_);
        auto pinned = pin_for_downloads(backend_, field);
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        // std::deque: adding a buffer moves none of those in use.
        buffers_.push_back(Buffer{std::move(field), std::move(pinned), true});
        changed_.notify_all();
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        failure_ = std::current_exception();
        changed_.notify_all();
        return;
      }
    }
  }

  void submit_on_device(int steps_done) {
    std::unique_lock<std::mutex> lock(mutex_);
    timed_wait(lock, [&] { return !device_copy_held_ || failure_; });
    throw_failure();
    lock.unlock();
    auto snapshot = capability<DeviceSnapshots<T>>(backend_)->take_device_snapshot();
    lock.lock();
    device_copy_held_ = true;
    queue_.push_back(Item{&handed_, -1, steps_done, nullptr, std::move(snapshot)});
    ++pending_;
    changed_.notify_all();
  }

  // Waits for the item's values, then writes it (unless the pipeline has failed).
  void write_item(Item& item, bool skip) {
    if (!item.on_device) {
      item.download->wait();
      if (!skip) write_(*item.field, item.steps_done);
      return;
    }
    item.on_device->wait();
    if (skip) return;
    write_(SnapshotSource<T>(handed_, *item.on_device), item.steps_done);
  }

  // A free buffer, waiting while there is none (all in use, or not yet allocated).
  int take_free_slot(std::unique_lock<std::mutex>& lock) {
    auto find_free = [&] {
      for (std::size_t s = 0; s < buffers_.size(); ++s)
        if (buffers_[s].free) return int(s);
      return -1;
    };
    timed_wait(lock, [&] { return find_free() >= 0 || failure_; });
    throw_failure();
    const int slot = find_free();
    buffers_[std::size_t(slot)].free = false;
    return slot;
  }

  static void wait_quietly(Item& item) {
    try {
      if (item.download) item.download->wait();
    } catch (...) {
      // Only reached while the run is already failing; the first failure is the one reported.
    }
  }

  // With no writer thread: writes on the caller's thread, which waits for the whole write.
  void write_here(const Field<T>& field, int steps_done) {
    const auto t0 = WallClock::now();
    try {
      write_(field, steps_done);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      throw;
    }
    const double spent = seconds_since(t0);
    std::lock_guard<std::mutex> lock(mutex_);
    writer_s_ += spent;
    wait_s_ += spent;
  }

  void write_queued_here() {
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex_);
      throw_failure();
      if (queue_.empty()) return;
      Item item = std::move(queue_.front());
      queue_.pop_front();
      --pending_;
      lock.unlock();
      write_here(*item.field, item.steps_done);
    }
  }

  // The writer thread's loop.
  void write_queued() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      Item item = std::move(queue_.front());
      queue_.pop_front();
      const bool skip = failure_ != nullptr;
      lock.unlock();
      std::exception_ptr failed;
      const auto t0 = WallClock::now();
      try {
        write_item(item, skip);
      } catch (...) {
        failed = std::current_exception();
      }
      const double spent = seconds_since(t0);
      lock.lock();
      writer_s_ += spent;
      if (failed && !failure_) failure_ = failed;
      if (item.slot >= 0) buffers_[std::size_t(item.slot)].free = true;
      if (item.on_device) {
        item.on_device.reset();
        device_copy_held_ = false;
      }
      --pending_;
      changed_.notify_all();
    }
  }

  Backend<T>& backend_;
  Field<T>& loop_field_;
  const bool beside_the_loop_, on_device_;
  const int nx_, ny_, nz_, capacity_;
  WriteFunction write_;
  Field<T> handed_;  // where a snapshot on the device lands if a reader needs it on the host

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Buffer> buffers_;
  std::deque<Item> queue_;
  int pending_ = 0;
  bool stopping_ = false;
  bool device_copy_held_ = false;  // a snapshot on the device not yet written
  std::exception_ptr failure_;
  double wait_s_ = 0, writer_s_ = 0;
  std::thread writer_;  // last: it starts once everything it uses is constructed
};

}  // namespace heat
