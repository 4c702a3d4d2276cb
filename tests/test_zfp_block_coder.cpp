// The ZFP block coder that the GPU encodes snapshot chunks with (io/zfp/zfp_block_coder.hpp), run
// on the host against libzfp itself: for smooth, random, wide-ranging and mostly-zero fields, float
// and double, boxes partial on every axis, bounds from coarse to below the value type's normal range
// (where zfp's scale factor overflows, and blocks of zeros and subnormals meet the finest bit planes)
// and reversible mode, the blocks written each at its own bit offset (as
// the GPU's threads write them) make libzfp's stream, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "io/zfp/zfp_block_coder.hpp"
#include "zfp_block_stream.hpp"

#if HEAT_TEST_HAS_LIBZFP
#include <zfp.h>
#endif

namespace heat {
namespace {

#if HEAT_TEST_HAS_LIBZFP

struct Box {
  int nx, ny, nz;
};

// bound 0: reversible mode.
template <typename T>
std::vector<unsigned char> libzfp_stream(const std::vector<T>& values, const Box& b, double bound,
                                         zfp_block::Mode& mode) {
  zfp_field* field = zfp_field_3d(const_cast<T*>(values.data()), sizeof(T) == 4 ? zfp_type_float : zfp_type_double,
                                  std::size_t(b.nx), std::size_t(b.ny), std::size_t(b.nz));
  zfp_stream* stream = zfp_stream_open(nullptr);
  if (bound > 0)
    zfp_stream_set_accuracy(stream, bound);
  else
    zfp_stream_set_reversible(stream);
  mode = {bound == 0, stream->minexp, int(stream->maxprec)};
  std::vector<unsigned char> out(zfp_stream_maximum_size(stream, field));
  bitstream* bits = stream_open(out.data(), out.size());
  zfp_stream_set_bit_stream(stream, bits);
  zfp_stream_rewind(stream);
  out.resize(zfp_compress(stream, field));
  stream_close(bits);
  zfp_stream_close(stream);
  zfp_field_free(field);
  return out;
}

// As the GPU writes it (zfp_block_stream.hpp), ending at zfp's next word (stream_word_bits: 8 in
// Debian's build, 64 by default).
template <typename T>
std::vector<unsigned char> block_coder_stream(const std::vector<T>& values, const Box& b, const zfp_block::Mode& mode) {
  const auto value = [&](int x, int y, int z) { return values[(std::size_t(z) * b.ny + y) * b.nx + x]; };
  std::vector<unsigned long long> words;
  const std::uint64_t bits = test::append_block_stream<T>(words, b.nx, b.ny, b.nz, mode, value);
  const std::uint64_t word = stream_word_bits;
  std::vector<unsigned char> bytes((bits + word - 1) / word * word / 8);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

template <typename T, typename Make>
std::vector<T> field_of(const Box& b, Make make) {
  std::vector<T> v(std::size_t(b.nx) * b.ny * b.nz);
  std::size_t n = 0;
  for (int z = 0; z < b.nz; ++z)
    for (int y = 0; y < b.ny; ++y)
      for (int x = 0; x < b.nx; ++x) v[n++] = T(make(x, y, z));
  return v;
}

template <typename T>
void expect_streams_match(const char* what, const std::vector<T>& values, const Box& b, double bound) {
  zfp_block::Mode mode;
  const std::vector<unsigned char> expected = libzfp_stream(values, b, bound, mode);
  const std::vector<unsigned char> got = block_coder_stream(values, b, mode);
  ASSERT_EQ(got.size(), expected.size()) << what << " " << b.nx << "x" << b.ny << "x" << b.nz << " bound " << bound;
  std::size_t first = 0;
  while (first < got.size() && got[first] == expected[first]) ++first;
  EXPECT_EQ(first, got.size()) << what << " " << b.nx << "x" << b.ny << "x" << b.nz << " bound " << bound
                               << ": the streams differ from byte " << first << " of " << got.size();
}

template <typename T>
void compare_on_every_field(double bound) {
  std::mt19937_64 random(20261126);
  std::uniform_real_distribution<double> uniform(-1, 1), decades(-30, 6);
  for (const Box& b : {Box{4, 4, 4}, Box{7, 5, 6}, Box{16, 12, 8}, Box{13, 9, 4}, Box{33, 17, 11}, Box{2, 3, 1}}) {
    expect_streams_match<T>("smooth", field_of<T>(b, [&](int x, int y, int z) {
      const double r2 = (x - 5.3) * (x - 5.3) + (y - 3.1) * (y - 3.1) + (z - 2.2) * (z - 2.2);
      return 0.3 + std::exp(-r2 / 40.0);
    }), b, bound);
    expect_streams_match<T>("random", field_of<T>(b, [&](int, int, int) { return uniform(random); }), b, bound);
    // Blocks the reversible cast holds exactly (small integers), and zeros of both signs.
    expect_streams_match<T>("integers", field_of<T>(b, [&](int x, int y, int z) {
      return (x + y + z) % 7 == 0 ? -0.0 : double((x * 3 + y * 5 + z) % 17) - 8;
    }), b, bound);
    expect_streams_match<T>("wide", field_of<T>(b, [&](int, int, int) {
      return (uniform(random) < 0 ? -1 : 1) * std::pow(10.0, decades(random));
    }), b, bound);
    // Zero blocks, a lone value per block, and values below float's normal range.
    expect_streams_match<T>("sparse", field_of<T>(b, [&](int x, int y, int z) {
      if ((x + 2 * y + 3 * z) % 11 == 0) return uniform(random);
      return (x + y + z) % 13 == 0 ? 1e-40 * uniform(random) : 0.0;
    }), b, bound);
  }
}

TEST(ZfpBlockCoder, FloatStreamsAreLibzfpsBitForBit) {
  for (double bound : {0.5, 1e-2, 1e-4, 1e-6, 1e-7, 1e-12, 1e-24, 1e-30, 1e-37, 1e-45}) compare_on_every_field<float>(bound);
}

TEST(ZfpBlockCoder, DoubleStreamsAreLibzfpsBitForBit) {
  for (double bound : {0.5, 1e-4, 1e-6, 1e-9, 1e-15, 1e-30, 1e-200, 1e-300, 1e-306, 1e-310}) compare_on_every_field<double>(bound);
}

TEST(ZfpBlockCoder, ReversibleStreamsAreLibzfpsBitForBit) {
  compare_on_every_field<float>(0);
  compare_on_every_field<double>(0);
}

#else

TEST(ZfpBlockCoder, NeedsLibzfp) { GTEST_SKIP() << "this build has no libzfp to compare with"; }

#endif

}  // namespace
}  // namespace heat
