// The pipeline that compresses a snapshot's chunks on every core and writes them one at a time
// (io/chunk_pipeline.hpp): every chunk written once, in order, with the bytes its compression left
// in its slot, never more chunks held than slots; on any thread count, however uneven the chunks'
// times; a failure in either step is rethrown and no chunk after it is written.
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "io/chunk_pipeline.hpp"

namespace heat {
namespace {

// Sets the OpenMP thread count for one test and restores it after.
struct Threads {
  int before = omp_get_max_threads();
  explicit Threads(int count) { omp_set_num_threads(count); }
  ~Threads() { omp_set_num_threads(before); }
};

// A chunk's time, uneven from chunk to chunk (every seventh is slow), in microseconds.
std::chrono::microseconds time_of(std::int64_t chunk) { return std::chrono::microseconds(chunk % 7 == 0 ? 900 : 40); }

TEST(ChunkPipeline, WritesEveryChunkOnceInOrderWithItsOwnBytesAndNoMoreHeldThanSlots) {
  for (int threads : {1, 2, 3, 5})
    for (std::size_t slots : {1, 2, 7}) {
      Threads set(threads);
      const std::int64_t count = 60;
      std::vector<std::int64_t> in_slot(slots, -1), written;
      std::atomic<int> held{0}, most_held{0};
      std::atomic<int> workers_seen{0};
      std::mutex seen_lock;
      std::vector<bool> worker_used(std::size_t(pipeline_workers()), false);
      run_chunk_pipeline(
          count, slots,
          [&](std::int64_t chunk, std::size_t slot, int worker) {
            ASSERT_EQ(in_slot[slot], -1) << "slot " << slot << " taken before its chunk was written";
            const int now = ++held;
            for (int most = most_held; now > most && !most_held.compare_exchange_weak(most, now);) {
            }
            std::this_thread::sleep_for(time_of(chunk));
            in_slot[slot] = chunk;
            std::lock_guard<std::mutex> hold(seen_lock);
            ASSERT_LT(worker, pipeline_workers());
            if (!worker_used[std::size_t(worker)]) ++workers_seen;
            worker_used[std::size_t(worker)] = true;
          },
          [&](std::int64_t chunk, std::size_t slot) {
            EXPECT_EQ(in_slot[slot], chunk) << "the write of chunk " << chunk << " found another chunk's bytes";
            written.push_back(chunk);
            in_slot[slot] = -1;
            --held;
          });
      const std::string label = std::to_string(threads) + " threads, " + std::to_string(slots) + " slots";
      ASSERT_EQ(written.size(), std::size_t(count)) << label;
      for (std::int64_t n = 0; n < count; ++n) EXPECT_EQ(written[std::size_t(n)], n) << label;
      EXPECT_LE(most_held, int(slots)) << label;
      if (threads > 1 && slots > 1) EXPECT_GT(workers_seen, 1) << label << ": compressed on one thread only";
    }
}

TEST(ChunkPipeline, AFailedCompressionIsRethrownAndNoChunkFromItOnIsWritten) {
  Threads set(3);
  std::vector<std::int64_t> written;
  try {
    run_chunk_pipeline(
        40, 4,
        [&](std::int64_t chunk, std::size_t, int) {
          std::this_thread::sleep_for(time_of(chunk));
          if (chunk == 17) throw std::runtime_error("chunk 17 failed");
        },
        [&](std::int64_t chunk, std::size_t) { written.push_back(chunk); });
    FAIL() << "the failure was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk 17 failed");
  }
  for (std::size_t n = 0; n < written.size(); ++n) EXPECT_EQ(written[n], std::int64_t(n));
  EXPECT_LE(written.size(), 17u);
}

TEST(ChunkPipeline, AFailedWriteIsRethrownAndNoLaterChunkIsWritten) {
  Threads set(3);
  std::vector<std::int64_t> written;
  try {
    run_chunk_pipeline(
        40, 4, [&](std::int64_t chunk, std::size_t, int) { std::this_thread::sleep_for(time_of(chunk)); },
        [&](std::int64_t chunk, std::size_t) {
          if (chunk == 9) throw std::runtime_error("the write of chunk 9 failed");
          written.push_back(chunk);
        });
    FAIL() << "the failure was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the write of chunk 9 failed");
  }
  ASSERT_EQ(written.size(), 9u);
  for (std::size_t n = 0; n < written.size(); ++n) EXPECT_EQ(written[n], std::int64_t(n));
}

}  // namespace
}  // namespace heat
