// How the 2.5D kernels (tiled's fused groups and its stage-by-stage passes) split z between blocks.
#pragma once

#include "solver/cuda_check.cuh"

namespace heat {

// Planes per block along z. Each block re-reads `refill` planes to fill its register queues
// before it writes anything, so split z only as far as it takes to give every block slot of the
// GPU (`slots`) work, choosing the split with the fewest planes on the busiest slot; a chunk is
// at most `longest` planes.
inline int choose_z_chunk(int inner_z, long long tiles, long long slots, int refill, int longest) {
  int best_chunk = inner_z;
  long long best = -1;
  const int fewest = ceil_div(inner_z, longest);
  for (int chunks = fewest; chunks < fewest + 16 && chunks <= inner_z; ++chunks) {
    const int chunk = ceil_div(inner_z, chunks);
    const long long waves = (ceil_div(inner_z, chunk) * tiles + slots - 1) / slots;
    const long long cost = waves * (chunk + refill);
    if (best < 0 || cost < best) best = cost, best_chunk = chunk;
  }
  return best_chunk;
}

}  // namespace heat
