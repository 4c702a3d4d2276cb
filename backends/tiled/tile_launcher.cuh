// How a 2.5D kernel of the tiled backend covers a grid: output tiles in x and y, and z split
// between blocks as far as it takes to fill the GPU's block slots; and the launcher that
// fixes both per grid.
#pragma once

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include "backends/cuda/cuda_check.cuh"
#include "core/problem.hpp"
#include "core/step_columns.hpp"
#include "core/step_planes.hpp"
#include "backends/tiled/column_pairs.cuh"

namespace heat {

// The blocks of a kernel the GPU runs at once: SMs times the blocks per SM that its registers and
// shared memory allow. RunError if not even one block fits.
template <typename Kernel>
long long resident_blocks(Kernel* kernel, int threads, int shared_bytes, int device) {
  int sms = 0, blocks_per_sm = 0;
  HEAT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  HEAT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads, shared_bytes));
  if (blocks_per_sm < 1) throw RunError("a tiled kernel does not fit on this GPU");
  return (long long)sms * blocks_per_sm;
}

// Planes per block along z, for ranges of `sizes` planes. Each block re-reads `refill` planes to
// fill its register queues before it writes anything, so split z only as far as it takes to give
// every block slot of the GPU (`slots`) work, choosing the split of the larger range with the
// fewest planes on the busiest slot; a chunk is at most `longest` planes.
inline int choose_z_chunk(std::array<int, 2> sizes, long long tiles, long long slots, int refill, int longest) {
  const int larger = std::max(sizes[0], sizes[1]);
  int best_chunk = larger;
  long long best = -1;
  const int fewest = ceil_div(larger, longest);
  for (int chunks = fewest; chunks < fewest + 16 && chunks <= larger; ++chunks) {
    const int chunk = ceil_div(larger, chunks);
    const long long waves = ((ceil_div(sizes[0], chunk) + ceil_div(sizes[1], chunk)) * tiles + slots - 1) / slots;
    const long long cost = waves * (chunk + refill);
    if (best < 0 || cost < best) best = cost, best_chunk = chunk;
  }
  return best_chunk;
}

// How a 2.5D pass kernel (one, two or four passes per kernel) covers a range of a grid's planes:
// output tiles of tile_x x tile_y columns, the first from column first_x (chosen so that tile rows
// start on 32-byte sectors: ColumnPairTile's 0, FourPassTile's -4 in float at order 2), the
// range's planes split by choose_z_chunk; all the tiles, or a share of them (step_columns.hpp). The
// kernels index a block's planes in 32 bits from a plane before its chunk (r before it for one and
// two passes, 3r for four) up to `beyond` planes past the chunk's start plus its length (2r, 3r,
// 7r), so a chunk holds at most INT_MAX points with those planes; a plane too large for even one is
// a RunError.
class PlaneLaunch {
 public:
  PlaneLaunch() = default;
  PlaneLaunch(const Grid& g, int r, int first_x, int tile_x, int tile_y, long long slots, int refill, int beyond)
      : x_{first_x, tile_x, ceil_div(g.nx - r - first_x, tile_x)},
        y_{r, tile_y, ceil_div(g.ny - 2 * r, tile_y)},
        slots_(slots),
        refill_(refill) {
    const long long plane = (long long)g.nx * g.ny;
    const long long longest = INT_MAX / plane - beyond;
    if (longest < 1)
      throw RunError("tiled needs an x-y plane of at most " + std::to_string(INT_MAX / (beyond + 1)) +
                     " points at this order; this grid has " + std::to_string(plane));
    longest_ = (int)std::min<long long>(g.nz, longest);
  }
  // The blocks that write `launch`'s planes over its columns (none where both ranges of planes or
  // the columns' tiles are empty), with each block's share in `args`.
  template <class Args>
  dim3 blocks(const LaunchShare& launch, Args& args) const {
    std::array<PlaneRange, 2> planes = launch.planes;
    if (planes[0].empty()) std::swap(planes[0], planes[1]);
    const std::array<int, 2> sizes{planes[0].size(), planes[1].size()};
    const std::array<TileSpan, 2> tiles = tiles_of(launch, x_, y_);
    const auto tiles_x = unsigned(tiles[0].size()), tiles_y = unsigned(tiles[1].size());
    LaunchPlanes& share = args.planes;
    share = LaunchPlanes{planes[0], planes[1], 1, 0, 0, tiles[0].first, tiles[1].first};
    if (sizes[0] == 0 || tiles_x == 0 || tiles_y == 0) return dim3(tiles_x, tiles_y, 0);
    share.chunk = choose_z_chunk(sizes, (long long)tiles_x * tiles_y, slots_, refill_,
                                 std::min(std::max(sizes[0], sizes[1]), longest_));
    share.first_blocks = ceil_div(sizes[0], share.chunk);
    share.skip = planes[1].first - (planes[0].first + share.first_blocks * share.chunk);
    return dim3(tiles_x, tiles_y, share.first_blocks + ceil_div(sizes[1], share.chunk));
  }

 private:
  TileAxis x_, y_;
  long long slots_ = 1;
  int refill_ = 0, longest_ = 1;
};

// What TileLauncher needs to know of a single pass's kernels (one_pass.cuh's, matrix_pass.cuh's,
// material_pass.cuh's) besides the kernels themselves: a block reads the r planes either side of its
// chunk (2r to fill its z queues first), and its planes are static shared memory.
template <class PassTile, class KernelArgs>
struct SinglePassKernels {
  using Tile = PassTile;
  using Args = KernelArgs;
  static constexpr int kRefill = 2 * Tile::R, kBeyond = 2 * Tile::R;
  static constexpr int kDynamicSharedBytes = 0;
};

// A 2.5D kernel's launches over a grid's interior: the tiles and the z split, fixed per grid, and
// the kernel that loads and stores the own pairs as single accesses where the rows have an even
// length and the arrays are aligned to a pair (Kernels::kernel<true>), the scalar one otherwise.
// Kernels also names the Tile, the Args, how far a block reads beyond its chunk of planes and the
// dynamic shared memory a block takes (0: its planes are static).
template <class Kernels>
class TileLauncher {
  using Tile = typename Kernels::Tile;
  using Args = typename Kernels::Args;
  static constexpr int kShared = Kernels::kDynamicSharedBytes;

 public:
  TileLauncher(const Grid& g, int device)
      : even_rows_(g.nx % 2 == 0),
        plan_(g, Tile::R, Tile::kFirstX, Tile::kTileX, Tile::kTileY, slots(even_rows_, device), Kernels::kRefill,
              Kernels::kBeyond) {}

  // Writes `share`'s output planes, one or two ranges, over its columns (nothing where they are
  // empty), on `stream`.
  void launch(Args args, const LaunchShare& share, cudaStream_t stream) const {
    const dim3 blocks = plan_.blocks(share, args);
    if (blocks.z == 0) return;
    const bool aligned =
        even_rows_ && pair_aligned(args.in) && pair_aligned(args.u) && pair_aligned(args.out) && pair_aligned(args.add);
    kernel(aligned)<<<blocks, dim3(Tile::kThreadsX, Tile::kThreadsY), kShared, stream>>>(args);
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  static auto kernel(bool aligned_pairs) {
    return aligned_pairs ? Kernels::template kernel<true>() : Kernels::template kernel<false>();
  }
  // The blocks the GPU runs at once, both kernels first allowed dynamic shared memory beyond 48 KB.
  static long long slots(bool even_rows, int device) {
    if constexpr (kShared > 48 * 1024)
      for (bool aligned_pairs : {false, true})
        HEAT_CUDA_CHECK(
            cudaFuncSetAttribute(kernel(aligned_pairs), cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
    return resident_blocks(kernel(even_rows), Tile::kThreads, kShared, device);
  }
  template <typename T>
  static bool pair_aligned(const T* p) {
    return reinterpret_cast<std::uintptr_t>(p) % sizeof(Pair<T>) == 0;
  }

  bool even_rows_;
  PlaneLaunch plan_;
};

}  // namespace heat
