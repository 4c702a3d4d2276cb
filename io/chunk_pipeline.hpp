// Compressing a dataset's chunks on every core while one thread at a time writes the finished
// ones, in order: no core waits for the writes, and the file's chunks lie in the same order on
// every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace heat {

// Calls compress(chunk, slot, worker) for chunks 0 .. count-1 on every OpenMP thread and
// write(chunk, slot) for each in order 0, 1, 2, ... as soon as it and every chunk before it are
// compressed, one write at a time, while later chunks are being compressed. A chunk's results
// live in slot `chunk % slots` (0 <= slot < slots) from its compress until its write returns: at
// most `slots` chunks are held at once. `worker` (0 <= worker < pipeline_workers()) is the calling
// thread's, for scratch space of its own. The first exception thrown by either call stops the
// pipeline and is rethrown here once every thread has stopped.
void run_chunk_pipeline(std::int64_t count, std::size_t slots,
                        const std::function<void(std::int64_t chunk, std::size_t slot, int worker)>& compress,
                        const std::function<void(std::int64_t chunk, std::size_t slot)>& write);

// The threads run_chunk_pipeline compresses on.
int pipeline_workers();

}  // namespace heat
