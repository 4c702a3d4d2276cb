// A box's ZFP stream written as the GPU writes it (io/zfp/gpu_zfp_encoder.cu), on the host with
// the same block coder: every block's length first, then each block at its own bit offset. The
// block coder's test holds it to libzfp; the writer's test feeds its streams to the HDF5 writer.
#pragma once

#include <cstdint>
#include <vector>

#include "io/zfp/zfp_block_coder.hpp"

namespace heat::test {

// Appends the stream of the box of nx * ny * nz values (value(x, y, z) reads one) to `words`,
// from a fresh word on; its length in bits.
template <typename T, typename Value>
std::uint64_t append_block_stream(std::vector<unsigned long long>& words, int nx, int ny, int nz,
                                  const zfp_block::Mode& mode, const Value& value) {
  const auto for_each_block = [&](auto&& use) {
    for (int z = 0; z < nz; z += 4)
      for (int y = 0; y < ny; y += 4)
        for (int x = 0; x < nx; x += 4) {
          T block[64];
          zfp_block::gather_block(block, x, y, z, nx, ny, nz, value);
          use(block);
        }
  };
  std::vector<std::uint64_t> offsets{64 * words.size()};
  for_each_block([&](const T(&block)[64]) {
    zfp_block::BitCounter counter;
    zfp_block::encode_block(block, mode, counter);
    offsets.push_back(offsets.back() + counter.bits());
  });
  words.resize((offsets.back() + 63) / 64, 0);
  std::size_t n = 0;
  for_each_block([&](const T(&block)[64]) {
    zfp_block::BitWriter writer(words.data(), offsets[n++]);
    zfp_block::encode_block(block, mode, writer);
    writer.finish();
  });
  return offsets.back() - offsets.front();
}

}  // namespace heat::test
