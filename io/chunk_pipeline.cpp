#include "io/chunk_pipeline.hpp"

#include <omp.h>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

namespace heat {

int pipeline_workers() { return omp_get_max_threads(); }

namespace {

// What the threads share, under `lock`.
struct PipelineState {
  std::mutex lock;
  std::condition_variable changed;  // a chunk compressed, written, or a failure
  std::vector<char> compressed;     // per slot: its chunk is compressed and not yet written
  std::int64_t next_to_claim = 0, next_to_write = 0;
  bool writing = false;
  std::exception_ptr failure;
};

}  // namespace

void run_chunk_pipeline(std::int64_t count, std::size_t slots,
                        const std::function<void(std::int64_t, std::size_t, int)>& compress,
                        const std::function<void(std::int64_t, std::size_t)>& write) {
  PipelineState state;
  state.compressed.assign(slots, 0);
  const auto slot_of = [slots](std::int64_t chunk) { return std::size_t(chunk) % slots; };
#pragma omp parallel
  {
    const int worker = omp_get_thread_num();
    std::unique_lock<std::mutex> held(state.lock);
    while (!state.failure && state.next_to_write < count) {
      // Writing comes first: it frees a slot, and a thread that writes keeps on while the next
      // chunk is ready, so the writes run beside the compression rather than after it.
      const std::int64_t next = state.next_to_write;
      const bool can_write = !state.writing && state.compressed[slot_of(next)];
      // A chunk is claimed only when its slot is free: the chunk `slots` before it is written.
      const bool can_claim = state.next_to_claim < count && state.next_to_claim < next + std::int64_t(slots);
      if (!can_write && !can_claim) {
        state.changed.wait(held);
        continue;
      }
      const std::int64_t chunk = can_write ? next : state.next_to_claim++;
      if (can_write) state.writing = true;
      held.unlock();
      std::exception_ptr failure;
      try {
        if (can_write)
          write(chunk, slot_of(chunk));
        else
          compress(chunk, slot_of(chunk), worker);
      } catch (...) {
        failure = std::current_exception();
      }
      held.lock();
      if (failure && !state.failure) state.failure = failure;
      if (can_write) {
        state.writing = false;
        state.compressed[slot_of(chunk)] = 0;
        ++state.next_to_write;
      } else if (!failure) {
        state.compressed[slot_of(chunk)] = 1;
      }
      state.changed.notify_all();
    }
  }
  if (state.failure) std::rethrow_exception(state.failure);
}

}  // namespace heat
