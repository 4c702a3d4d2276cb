// ZFP streams (fixed accuracy or reversible) of a snapshot's chunks encoded on the run's GPU instead of the host's
// cores (cuda/zfp_encoder.cu), bit for bit the streams libzfp writes (zfp_block_coder.hpp): the
// GPU reads each batch of planes from the run's device copy of the snapshot (SnapshotSource::on_device),
// or from the host's, which it uploads, encodes every 4x4x4 block at once and sends back only the
// compressed bytes. The HDF5 writer (io/hdf5_chunks.cpp) uses the encoder its SnapshotWriter was
// made with, and libzfp on every core where it has none.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "io/zfp/zfp_block_coder.hpp"

namespace heat {

// Planes of a field and the chunks HDF5 stores them in.
template <typename T>
struct ChunkedPlanes {
  const T* values;  // planes * ny * nx values, x fastest: host memory, or the encoder's device's where on_device
  int nx, ny, planes;
  // A chunk's extents (z, y, x), x == nx, z and y above 1. The chunks tile the planes in order of
  // z, then y; the parts of edge chunks past the planes repeat the last plane and row, as the
  // host's writer gathers them.
  std::array<std::size_t, 3> chunk;
  bool on_device = false;
};

// The streams of chunks first .. first + count - 1: chunk first + i's stream is sizes[i] bytes at
// bytes + offsets[i], and the 4 bytes after it may be written (its checksum).
struct EncodedChunks {
  std::int64_t first;
  int count;
  unsigned char* bytes;
  const unsigned long long* offsets;
  const unsigned long long* sizes;
};
using ChunkStreamSink = std::function<void(const EncodedChunks& chunks)>;

class GpuZfpEncoder {
 public:
  virtual ~GpuZfpEncoder() = default;
  // Encodes every chunk of `planes` and hands the streams to `sink` in chunk order, a batch at a time. A stream ends
  // at a whole word of zfp's bit stream (`word_bits`, libzfp's stream_word_bits). False, with
  // nothing handed on, when the GPU has no memory for it; throws RunError on a CUDA failure.
  virtual bool encode(const ChunkedPlanes<float>& planes, const zfp_block::Mode& mode, unsigned word_bits,
                      const ChunkStreamSink& sink) = 0;
  virtual bool encode(const ChunkedPlanes<double>& planes, const zfp_block::Mode& mode, unsigned word_bits,
                      const ChunkStreamSink& sink) = 0;
  // The largest |value| of `count` values in the encoder's device's memory; a NaN, were there
  // one, is larger than any (the bound's check then refuses the snapshot, naming it).
  virtual double largest_magnitude(const float* values, std::size_t count) = 0;
  virtual double largest_magnitude(const double* values, std::size_t count) = 0;
};

// An encoder whose two precisions are one template, Derived::encode_planes<T>.
template <typename Derived>
class GpuZfpEncoderOf : public GpuZfpEncoder {
 public:
  bool encode(const ChunkedPlanes<float>& planes, const zfp_block::Mode& mode, unsigned word_bits,
              const ChunkStreamSink& sink) override {
    return static_cast<Derived*>(this)->encode_planes(planes, mode, word_bits, sink);
  }
  bool encode(const ChunkedPlanes<double>& planes, const zfp_block::Mode& mode, unsigned word_bits,
              const ChunkStreamSink& sink) override {
    return static_cast<Derived*>(this)->encode_planes(planes, mode, word_bits, sink);
  }
  double largest_magnitude(const float* values, std::size_t count) override {
    return static_cast<Derived*>(this)->largest_magnitude_of(values, count);
  }
  double largest_magnitude(const double* values, std::size_t count) override {
    return static_cast<Derived*>(this)->largest_magnitude_of(values, count);
  }
};

// The planes uploaded at once by default: enough that each batch's launches fill the GPU, few
// enough that the encoder's buffers stay a small part of a GPU's memory beside the run's fields.
constexpr std::size_t kZfpBatchBytes = std::size_t(64) << 20;

// An encoder on CUDA device `device` uploading about `batch_bytes` of planes at a time (at least
// one row of chunks); null in a build without CUDA.
std::unique_ptr<GpuZfpEncoder> make_gpu_zfp_encoder(int device, std::size_t batch_bytes = kZfpBatchBytes);

}  // namespace heat
