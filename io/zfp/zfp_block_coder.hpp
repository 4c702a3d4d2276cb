// One 4x4x4 block of a ZFP stream in fixed-accuracy or reversible mode, bit for bit as libzfp 1.0
// writes it on x86-64 (zfp's codec 5: the block-floating-point cast and the decorrelating lift, or
// in reversible mode the cast where it is exact and the values' bits otherwise, then a Lorenzo
// lift; the coefficients in total sequency order as negabinary; the bit planes from the top with
// group tests). Written once for the host and the GPU: the GPU encodes snapshot chunks with it
// (gpu_zfp_encoder.cu), and a host test holds it to libzfp's own streams
// (tests/test_zfp_block_coder.cpp), so a stream the GPU writes is one that any H5Z-ZFP
// reader, and libzfp itself, decodes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "stencils/host_device.hpp"

namespace heat::zfp_block {

// zfp's constants for a value type: the integer a block is cast to, the exponent's bits and bias.
template <typename T>
struct Codec;
template <>
struct Codec<float> {
  using Int = std::int32_t;
  using UInt = std::uint32_t;
  static constexpr int exponent_bits = 8, exponent_bias = 127, precision_bits = 5;
  static constexpr UInt negabinary_mask = 0xaaaaaaaau, magnitude_mask = 0x7fffffffu;
};
template <>
struct Codec<double> {
  using Int = std::int64_t;
  using UInt = std::uint64_t;
  static constexpr int exponent_bits = 11, exponent_bias = 1023, precision_bits = 6;
  static constexpr UInt negabinary_mask = 0xaaaaaaaaaaaaaaaaull, magnitude_mask = 0x7fffffffffffffffull;
};

// The mode of a zfp_stream as zfp_stream_set_accuracy or zfp_stream_set_reversible leave it: in
// accuracy mode the lowest bit plane kept (error <= 2^minexp) and the most planes of any block.
// Its minbits is 1 (an all-zero block is one bit), maxbits never binds.
struct Mode {
  bool reversible = false;
  int minexp = 0;
  int maxprec = 64;
};

// Bits in stream order (LSB first in 64-bit words, as zfp's bit stream stores them), written by
// OR into zeroed words from bit `position` on. On the GPU the words at either end may be shared
// with the neighbouring blocks' streams, so every word is ORed atomically.
class BitWriter {
 public:
  HD BitWriter(unsigned long long* words, std::uint64_t position)
      : words_(words), word_(position / 64), used_(unsigned(position % 64)) {}

  // The low n (0 <= n <= 64) bits of value.
  HD void write(std::uint64_t value, unsigned n) {
    if (n == 0) return;
    if (n < 64) value &= (std::uint64_t(1) << n) - 1;
    buffer_ |= value << used_;
    if (used_ + n >= 64) {
      flush_word();
      buffer_ = used_ ? value >> (64 - used_) : 0;
      used_ = used_ + n - 64;
    } else {
      used_ += n;
    }
  }
  HD bool bit(bool b) {
    write(b ? 1u : 0u, 1);
    return b;
  }
  // Writes out the last, partly filled word.
  HD void finish() {
    if (used_ > 0) flush_word();
  }

 private:
  HD void flush_word() {
    if (buffer_ != 0) {
#if defined(__CUDA_ARCH__)
      atomicOr(words_ + word_, buffer_);
#else
      words_[word_] |= buffer_;
#endif
    }
    ++word_;
  }

  unsigned long long* words_;
  std::uint64_t word_;
  unsigned used_;
  unsigned long long buffer_ = 0;
};

// Counts the bits a block takes, writing none.
class BitCounter {
 public:
  HD void write(std::uint64_t, unsigned n) { bits_ += n; }
  HD bool bit(bool b) {
    ++bits_;
    return b;
  }
  HD void finish() {}
  HD std::uint64_t bits() const { return bits_; }

 private:
  std::uint64_t bits_ = 0;
};

// Gathers the block at (x0, y0, z0) of a box of nx * ny * nz values (value(x, y, z) reads one),
// padded past the box's edges as zfp pads a partial block: a row of n < 4 values goes on
// as v0, v1, v1, v0 (n = 2), v0, v1, v2, v0 (n = 3) or all v0 (n = 1), along x, then y, then z.
template <typename T, typename Value>
HD void gather_block(T (&block)[64], int x0, int y0, int z0, int nx, int ny, int nz, const Value& value) {
  const int wx = nx - x0 < 4 ? nx - x0 : 4, wy = ny - y0 < 4 ? ny - y0 : 4, wz = nz - z0 < 4 ? nz - z0 : 4;
  const auto pad = [](T* p, int n, int s) {
    if (n <= 1) p[1 * s] = p[0];
    if (n <= 2) p[2 * s] = p[1 * s];
    if (n <= 3) p[3 * s] = p[0];
  };
  for (int z = 0; z < wz; ++z) {
    for (int y = 0; y < wy; ++y) {
      for (int x = 0; x < wx; ++x) block[16 * z + 4 * y + x] = value(x0 + x, y0 + y, z0 + z);
      pad(block + 16 * z + 4 * y, wx, 1);
    }
    for (int x = 0; x < 4; ++x) pad(block + 16 * z + x, wy, 4);
  }
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) pad(block + 4 * y + x, wz, 16);
}

namespace detail {

// The coefficients (i, j, k) at i + 4j + 16k in order of i + j + k, then i^2 + j^2 + k^2 (zfp's perm_3).
HD constexpr int sequency_order(int n) {
  constexpr unsigned char order[64] = {
      0,  1,  4,  16, 20, 17, 5,  2,  8,  32, 21, 6,  18, 24, 9,  33, 36, 3,  12, 48, 22, 25, 37, 40, 34, 10,
      7,  19, 28, 13, 49, 52, 41, 38, 26, 23, 29, 53, 11, 35, 44, 14, 50, 56, 42, 27, 39, 45, 30, 54, 57, 60,
      51, 15, 43, 46, 58, 61, 55, 31, 62, 59, 47, 63};
  return order[n];
}

// zfp's forward lift of four values `s` apart: a non-orthogonal transform in integers.
template <typename Int>
HD void forward_lift(Int* p, int s) {
  Int x = p[0], y = p[s], z = p[2 * s], w = p[3 * s];
  x += w; x >>= 1; w -= x;
  z += y; z >>= 1; y -= z;
  x += z; x >>= 1; z -= x;
  w += y; w >>= 1; y -= w;
  w += y >> 1; y -= w >> 1;
  p[0] = x; p[s] = y; p[2 * s] = z; p[3 * s] = w;
}

// zfp's reversible lift of four values `s` apart: a high-order Lorenzo transform, in unsigned
// arithmetic (libzfp's signed arithmetic wraps the same way on every machine it runs on).
template <typename Int>
HD void reversible_lift(Int* p, int s) {
  using U = std::make_unsigned_t<Int>;
  U x = U(p[0]), y = U(p[s]), z = U(p[2 * s]), w = U(p[3 * s]);
  w -= z; z -= y; y -= x;
  w -= z; z -= y;
  w -= z;
  p[0] = Int(x); p[s] = Int(y); p[2 * s] = Int(z); p[3 * s] = Int(w);
}

// The lift along x, then y, then z of a block of 64 integers.
template <typename Int, typename Lift>
HD void transform(Int (&p)[64], Lift lift) {
  HEAT_UNROLL
  for (int z = 0; z < 4; ++z)
    HEAT_UNROLL
    for (int y = 0; y < 4; ++y) lift(p + 4 * y + 16 * z, 1);
  HEAT_UNROLL
  for (int x = 0; x < 4; ++x)
    HEAT_UNROLL
    for (int z = 0; z < 4; ++z) lift(p + 16 * z + x, 4);
  HEAT_UNROLL
  for (int y = 0; y < 4; ++y)
    HEAT_UNROLL
    for (int x = 0; x < 4; ++x) lift(p + x + 4 * y, 16);
}

// A value converted to an integer as x86-64 converts it, which is what libzfp's C cast compiles
// to there: truncated toward zero, and the most negative integer for NaN or anything out of range
// (a block of values too small for the scale factor, which then overflows to infinity).
template <typename T, typename Int>
HD Int to_int(T v) {
  constexpr T limit = T(std::uint64_t(1) << (8 * sizeof(Int) - 1));
  if (!(v > -limit && v < limit)) return Int(std::uint64_t(1) << (8 * sizeof(Int) - 1));
  return Int(v);
}

template <typename T>
HD typename Codec<T>::UInt bits_of(T v) {
  typename Codec<T>::UInt u;
  memcpy(&u, &v, sizeof u);
  return u;
}

template <typename T>
HD T scale_for(int exponent) {
  if constexpr (sizeof(T) == 4)
    return ldexpf(1.0f, exponent);
  else
    return ldexp(1.0, exponent);
}

template <typename T>
HD int exponent_of(T largest) {
  if (!(largest > 0)) return -Codec<T>::exponent_bias;
  int e = 0;
  if constexpr (sizeof(T) == 4)
    frexpf(largest, &e);
  else
    frexp(largest, &e);
  return e > 1 - Codec<T>::exponent_bias ? e : 1 - Codec<T>::exponent_bias;  // denormals clamp
}

HD inline unsigned trailing_zeros(std::uint64_t x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return unsigned(__ffsll((long long)x) - 1);
#else
  return unsigned(__builtin_ctzll(x));
#endif
}

// The low `half` bits of every 2*half bits of a word (0x0000ffff, 0x00ff00ff, ... for 32 bits).
template <typename Word, int half>
HD constexpr Word transpose_mask() {
  Word mask = 0;
  for (int bit = 0; bit < int(8 * sizeof(Word)); ++bit)
    if (bit % (2 * half) < half) mask |= Word(1) << bit;
  return mask;
}

// Transposes the bit matrix of `rows` words of `rows` bits in place: bit j of word k becomes bit
// k of word j. Rounds of block swaps, blocks of `half` bits first, then ever smaller; every index
// a constant, so the words stay in registers.
template <typename Word, int rows, int half = rows / 2>
HD void transpose_bits(Word* a) {
  constexpr Word mask = transpose_mask<Word, half>();
  HEAT_UNROLL
  for (int block = 0; block < rows; block += 2 * half) {
    HEAT_UNROLL
    for (int j = block; j < block + half; ++j) {
      const Word t = ((a[j] >> half) ^ a[j + half]) & mask;
      a[j] ^= t << half;
      a[j + half] ^= t;
    }
  }
  if constexpr (half > 1) transpose_bits<Word, rows, half / 2>(a);
}

// Bit plane k of the 64 coefficients as one word, coefficient i at bit i, for every k.
template <typename UInt>
HD void bit_planes(UInt (&data)[64], std::uint64_t (&planes)[8 * sizeof(UInt)]) {
  if constexpr (sizeof(UInt) == 4) {
    transpose_bits<UInt, 32>(data);
    transpose_bits<UInt, 32>(data + 32);
    HEAT_UNROLL
    for (int k = 0; k < 32; ++k) planes[k] = std::uint64_t(data[k]) | std::uint64_t(data[32 + k]) << 32;
  } else {
    transpose_bits<UInt, 64>(data);
    HEAT_UNROLL
    for (int k = 0; k < 64; ++k) planes[k] = data[k];
  }
}

// The bit planes of 64 unsigned coefficients from the top down to the plane `maxprec` below it:
// the n coefficients already significant verbatim, then the rest by group tests, each run of
// zeros up to the next one-bit written at once (libzfp writes them bit by bit, to the same stream).
template <typename UInt, typename Out>
HD void encode_planes(UInt (&data)[64], int maxprec, Out& out) {
  constexpr int intprec = int(8 * sizeof(UInt));
  std::uint64_t planes[intprec];
  bit_planes(data, planes);
  const int kmin = intprec > maxprec ? intprec - maxprec : 0;
  unsigned n = 0;
  for (int k = intprec; k-- > kmin;) {
    std::uint64_t x = planes[k];
    out.write(x, n);
    x = n < 64 ? x >> n : 0;
    for (; n < 64 && out.bit(x != 0); x >>= 1, ++n) {
      // A one-bit follows: the zeros before it and the one, unless the run reaches the last
      // coefficient, whose one is then implied.
      const unsigned zeros = trailing_zeros(x);
      if (n + zeros < 63) {
        out.write(std::uint64_t(1) << zeros, zeros + 1);
        x >>= zeros;
        n += zeros;
      } else {
        out.write(0, 63 - n);
        x >>= 63 - n;
        n = 63;
      }
    }
  }
}

}  // namespace detail

namespace detail {

// The largest exponent of a block's values (zfp's exponent_block).
template <typename T>
HD int largest_exponent(const T (&block)[64]) {
  T largest = 0;
  for (int i = 0; i < 64; ++i) {
    const T f = block[i] < 0 ? -block[i] : block[i];
    if (largest < f) largest = f;
  }
  return exponent_of(largest);
}

// The coefficients in sequency order as negabinary.
template <typename T>
HD void order(const typename Codec<T>::Int (&cast)[64], typename Codec<T>::UInt (&ordered)[64]) {
  using UInt = typename Codec<T>::UInt;
  HEAT_UNROLL
  for (int i = 0; i < 64; ++i)
    ordered[i] = (UInt(cast[sequency_order(i)]) + Codec<T>::negabinary_mask) ^ Codec<T>::negabinary_mask;
}

template <typename T, typename Out>
HD void encode_within_bound(const T (&block)[64], const Mode& mode, Out& out) {
  using Int = typename Codec<T>::Int;
  constexpr int intprec = int(8 * sizeof(T));
  const int emax = largest_exponent(block);
  const int planes = emax - mode.minexp + 8;  // 2 (dims + 1) guard planes in 3-D
  const int maxprec = planes < 0 ? 0 : planes < mode.maxprec ? planes : mode.maxprec;
  if (maxprec == 0 || emax == -Codec<T>::exponent_bias) {
    out.bit(false);  // all below the bound, or all zero
    return;
  }
  out.write(2 * std::uint64_t(emax + Codec<T>::exponent_bias) + 1, 1 + Codec<T>::exponent_bits);
  const T scale = scale_for<T>(intprec - 2 - emax);
  // Every loop unrolled, every index a constant: the block stays in registers.
  Int cast[64];
  HEAT_UNROLL
  for (int i = 0; i < 64; ++i) cast[i] = to_int<T, Int>(scale * block[i]);
  transform(cast, [](Int* p, int s) { forward_lift(p, s); });
  typename Codec<T>::UInt ordered[64];
  order<T>(cast, ordered);
  encode_planes(ordered, maxprec, out);
}

template <typename T, typename Out>
HD void encode_reversibly(const T (&block)[64], Out& out) {
  using Int = typename Codec<T>::Int;
  using UInt = typename Codec<T>::UInt;
  constexpr int intprec = int(8 * sizeof(T));
  const int emax = largest_exponent(block);
  Int cast[64];
  // The block-floating-point cast where casting back gives every value's bits again, else the
  // values' bits as two's complement integers.
  bool exact = true;
  if (emax != -Codec<T>::exponent_bias) {
    const T scale = scale_for<T>(intprec - 2 - emax), back = scale_for<T>(emax - (intprec - 2));
    for (int i = 0; i < 64; ++i) {
      cast[i] = to_int<T, Int>(scale * block[i]);
      exact = exact && bits_of(T(back * T(cast[i]))) == bits_of(block[i]);
    }
  } else {
    for (int i = 0; i < 64; ++i) {
      cast[i] = 0;
      exact = exact && bits_of(block[i]) == 0;
    }
  }
  // A block of +0 is one bit; otherwise 1, then 0 and the exponent for the cast, or 1 for the bits.
  if (exact) {
    const unsigned e = unsigned(emax + Codec<T>::exponent_bias);
    if (e == 0) {
      out.bit(false);
      return;
    }
    out.write(1, 2);
    out.write(e, Codec<T>::exponent_bits);
  } else {
    for (int i = 0; i < 64; ++i) {
      const UInt u = bits_of(block[i]);
      cast[i] = Int(Int(u) < 0 ? u ^ Codec<T>::magnitude_mask : u);
    }
    out.write(3, 2);
  }
  transform(cast, [](Int* p, int s) { reversible_lift(p, s); });
  UInt ordered[64];
  order<T>(cast, ordered);
  UInt any = 0;
  for (int i = 0; i < 64; ++i) any |= ordered[i];
  // The planes down to the lowest one-bit of any coefficient, at least one.
  const int precision = any ? intprec - int(trailing_zeros(std::uint64_t(any))) : 1;
  out.write(std::uint64_t(precision - 1), Codec<T>::precision_bits);
  encode_planes(ordered, precision, out);
}

}  // namespace detail

// Encodes one block of 64 values (x fastest) to `out` (a BitWriter or BitCounter).
template <typename T, typename Out>
HD void encode_block(const T (&block)[64], const Mode& mode, Out& out) {
  if (mode.reversible)
    detail::encode_reversibly(block, out);
  else
    detail::encode_within_bound(block, mode, out);
}

}  // namespace heat::zfp_block
