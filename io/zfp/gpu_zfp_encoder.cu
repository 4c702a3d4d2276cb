#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "backends/cuda/cuda_check.cuh"
#include "backends/cuda/device_buffer.cuh"
#include "io/zfp/gpu_zfp_encoder.hpp"

namespace heat {

namespace {

constexpr int kThreads = 128;

// The most bits a block takes: its header (2 bits and the exponent, then the precision in
// reversible mode), and in each bit plane at most 64 verbatim bits and 65 group tests and run bits.
template <typename T>
constexpr std::size_t block_bits_bound() {
  return 2 + zfp_block::Codec<T>::exponent_bits + zfp_block::Codec<T>::precision_bits + 8 * sizeof(T) * (2 * 64 + 1);
}

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// One batch: chunk rows [first_row, first_row + rows) along z, their planes on the device from
// plane `first_plane` of the field's `planes`.
template <typename T>
struct Batch {
  const T* values;  // the batch's planes, from first_plane
  int nx, ny, planes, first_plane;
  int chunk_z, chunk_y, chunks_along_y, first_row;
  int blocks_x, blocks_y, blocks_per_chunk;
  long long blocks;  // in the batch

  // The value at (x, y, z) of chunk `chunk`'s box, the planes and rows past the field's repeated.
  __device__ T value(int chunk, int x, int y, int z) const {
    const int row = first_row + chunk / chunks_along_y;
    const int gy = min((chunk % chunks_along_y) * chunk_y + y, ny - 1);
    const int gz = min(row * chunk_z + z, planes - 1) - first_plane;
    return values[(std::size_t(gz) * ny + gy) * nx + x];
  }

  template <typename Out>
  __device__ void encode(long long block, const zfp_block::Mode& mode, Out& out) const {
    const int chunk = int(block / blocks_per_chunk);
    const int b = int(block % blocks_per_chunk);
    const int x0 = 4 * (b % blocks_x), y0 = 4 * ((b / blocks_x) % blocks_y), z0 = 4 * (b / (blocks_x * blocks_y));
    T values_of_block[64];
    if (x0 + 4 <= nx && y0 + 4 <= chunk_y && z0 + 4 <= chunk_z) {
      // A whole block (nearly all of them): constant indices keep its values in registers.
      HEAT_UNROLL
      for (int z = 0; z < 4; ++z)
        HEAT_UNROLL
        for (int y = 0; y < 4; ++y)
          HEAT_UNROLL
          for (int x = 0; x < 4; ++x) values_of_block[16 * z + 4 * y + x] = value(chunk, x0 + x, y0 + y, z0 + z);
      zfp_block::encode_block(values_of_block, mode, out);
    } else {
      T padded[64];
      zfp_block::gather_block(padded, x0, y0, z0, nx, chunk_y, chunk_z,
                              [&](int x, int y, int z) { return value(chunk, x, y, z); });
      zfp_block::encode_block(padded, mode, out);
    }
  }
};

template <typename T>
__global__ void count_block_bits(Batch<T> batch, zfp_block::Mode mode, unsigned long long* bits) {
  for (long long block = blockIdx.x * (long long)blockDim.x + threadIdx.x; block < batch.blocks;
       block += (long long)gridDim.x * blockDim.x) {
    zfp_block::BitCounter counter;
    batch.encode(block, mode, counter);
    bits[block] = counter.bits();
  }
}

// Where each chunk's stream starts in the output (8-byte aligned, a word of 64 bits) and its size
// in bytes, from the blocks' offsets (an exclusive scan of their bits, one entry past the last).
__global__ void place_chunks(const unsigned long long* offsets, int chunks, int blocks_per_chunk, unsigned word_bits,
                             unsigned long long* starts, unsigned long long* sizes) {
  unsigned long long start = 0;
  for (int c = 0; c < chunks; ++c) {
    const unsigned long long bits = offsets[(c + 1) * (long long)blocks_per_chunk] - offsets[c * (long long)blocks_per_chunk];
    const unsigned long long bytes = (bits + word_bits - 1) / word_bits * word_bits / 8;
    starts[c] = start;
    sizes[c] = bytes;
    start += (bytes + 4 + 7) / 8 * 8;  // room for the checksum after the stream
  }
  starts[chunks] = start;
}

template <typename T>
__global__ void write_blocks(Batch<T> batch, zfp_block::Mode mode, const unsigned long long* offsets,
                             const unsigned long long* starts, unsigned long long* words) {
  for (long long block = blockIdx.x * (long long)blockDim.x + threadIdx.x; block < batch.blocks;
       block += (long long)gridDim.x * blockDim.x) {
    const long long first = block / batch.blocks_per_chunk * batch.blocks_per_chunk;
    const unsigned long long position = 8 * starts[block / batch.blocks_per_chunk] + offsets[block] - offsets[first];
    zfp_block::BitWriter writer(words, position);
    batch.encode(block, mode, writer);
    writer.finish();
  }
}

// The largest |value| as its bits: for values >= 0 the order of IEEE-754 bit patterns is the
// order of the values, so an integer atomicMax of |value|'s bits finds the largest.
template <typename T>
using BitsOf = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

template <typename T>
__global__ void largest_magnitude_bits(const T* values, std::size_t count, BitsOf<T>* largest) {
  using Bits = BitsOf<T>;
  Bits mine = 0;
  for (std::size_t n = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; n < count;
       n += std::size_t(gridDim.x) * blockDim.x) {
    const T magnitude = fabs(values[n]);
    Bits bits;
    memcpy(&bits, &magnitude, sizeof bits);
    mine = max(mine, bits);
  }
  for (int lane = 16; lane > 0; lane /= 2) mine = max(mine, __shfl_xor_sync(0xffffffffu, mine, lane));
  if (threadIdx.x % 32 == 0) atomicMax(largest, mine);
}

// Bytes of device memory that grow to the largest request and are kept between snapshots (a
// cudaFree would wait for the run's steps); where the GPU has no room, the host's encoder works.
using Scratch = DeviceBuffer<unsigned char>;

template <typename U>
U* as(Scratch& scratch) {
  return reinterpret_cast<U*>(scratch.get());
}

class CudaZfpEncoder final : public GpuZfpEncoderOf<CudaZfpEncoder> {
 public:
  CudaZfpEncoder(int device, std::size_t batch_bytes) : device_(device), batch_bytes_(batch_bytes) {
    HEAT_CUDA_CHECK(cudaSetDevice(device_));
    int least = 0, greatest = 0;
    HEAT_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    // The lowest priority, and no wait for the run's steps on the legacy stream.
    HEAT_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, least));
    // Made with the encoder, so that finding a snapshot's largest value never lacks memory.
    if (!largest_.reserve(sizeof(unsigned long long))) throw RunError("no GPU memory for the ZFP encoder");
  }
  ~CudaZfpEncoder() override {
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
    if (host_) cudaFreeHost(host_);
  }

 private:
  friend class GpuZfpEncoderOf<CudaZfpEncoder>;

  template <typename T>
  bool encode_planes(const ChunkedPlanes<T>& p, const zfp_block::Mode& mode, unsigned word_bits,
                     const ChunkStreamSink& sink) {
    HEAT_CUDA_CHECK(cudaSetDevice(device_));
    const int chunk_z = int(p.chunk[0]), chunk_y = int(p.chunk[1]);
    const int along_y = (p.ny + chunk_y - 1) / chunk_y;
    const int rows = (p.planes + chunk_z - 1) / chunk_z;
    const std::size_t plane_bytes = std::size_t(p.nx) * p.ny * sizeof(T);
    const int rows_per_batch = int(std::max<std::size_t>(1, batch_bytes_ / (plane_bytes * chunk_z)));
    const int blocks_x = (p.nx + 3) / 4, blocks_y = (chunk_y + 3) / 4, blocks_z = (chunk_z + 3) / 4;
    const int blocks_per_chunk = blocks_x * blocks_y * blocks_z;
    const int most_chunks = std::min(rows, rows_per_batch) * along_y;
    const std::size_t most_blocks = std::size_t(most_chunks) * blocks_per_chunk;
    const std::size_t chunk_capacity = round_up(blocks_per_chunk * block_bits_bound<T>() / 8 + 4, 8);
    const std::size_t output_bytes = most_chunks * chunk_capacity;
    if (!reserve(p, rows_per_batch * chunk_z, most_blocks, most_chunks, output_bytes)) return false;

    auto* bits = as<unsigned long long>(blocks_);
    auto* offsets = bits + (most_blocks + 1);
    auto* starts = as<unsigned long long>(table_);
    auto* sizes = starts + (most_chunks + 1);
    for (int first_row = 0; first_row < rows; first_row += rows_per_batch) {
      const int batch_rows = std::min(rows_per_batch, rows - first_row);
      const int first_plane = first_row * chunk_z;
      const int batch_planes = std::min(p.planes, (first_row + batch_rows) * chunk_z) - first_plane;
      const int chunks = batch_rows * along_y;
      const T* planes_of_batch = p.values + std::size_t(first_plane) * p.nx * p.ny;
      if (!p.on_device) {
        HEAT_CUDA_CHECK(cudaMemcpyAsync(as<T>(input_), planes_of_batch, std::size_t(batch_planes) * plane_bytes,
                                        cudaMemcpyHostToDevice, stream_));
        planes_of_batch = as<T>(input_);
      }
      const Batch<T> batch{planes_of_batch, p.nx, p.ny, p.planes, first_plane, chunk_z, chunk_y, along_y, first_row,
                           blocks_x, blocks_y, blocks_per_chunk, (long long)chunks * blocks_per_chunk};
      const unsigned grid = grid_stride_blocks(batch.blocks, kThreads, 65535);
      count_block_bits<<<grid, kThreads, 0, stream_>>>(batch, mode, bits);
      HEAT_CUDA_CHECK_LAUNCH();
      HEAT_CUDA_CHECK(cudaMemsetAsync(bits + batch.blocks, 0, sizeof(unsigned long long), stream_));
      std::size_t scan_bytes = scan_bytes_;
      HEAT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(as<void>(scan_), scan_bytes, bits, offsets,
                                                    batch.blocks + 1, stream_));
      place_chunks<<<1, 1, 0, stream_>>>(offsets, chunks, blocks_per_chunk, word_bits, starts, sizes);
      HEAT_CUDA_CHECK_LAUNCH();
      HEAT_CUDA_CHECK(cudaMemsetAsync(as<void>(output_), 0, output_bytes, stream_));
      write_blocks<<<grid, kThreads, 0, stream_>>>(batch, mode, offsets, starts, as<unsigned long long>(output_));
      HEAT_CUDA_CHECK_LAUNCH();
      std::vector<unsigned long long> table(2 * std::size_t(most_chunks + 1));
      HEAT_CUDA_CHECK(cudaMemcpyAsync(table.data(), starts, table.size() * sizeof(table[0]), cudaMemcpyDeviceToHost,
                                      stream_));
      HEAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
      const std::size_t total = table[std::size_t(chunks)];
      HEAT_CUDA_CHECK(cudaMemcpyAsync(host_, as<void>(output_), total, cudaMemcpyDeviceToHost, stream_));
      HEAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
      sink(EncodedChunks{std::int64_t(first_row) * along_y, chunks, static_cast<unsigned char*>(host_), table.data(),
                         table.data() + most_chunks + 1});
    }
    return true;
  }

  template <typename T>
  double largest_magnitude_of(const T* values, std::size_t count) {
    if (count == 0) return 0;
    HEAT_CUDA_CHECK(cudaSetDevice(device_));
    using Bits = BitsOf<T>;
    HEAT_CUDA_CHECK(cudaMemsetAsync(as<Bits>(largest_), 0, sizeof(Bits), stream_));
    largest_magnitude_bits<<<grid_stride_blocks(count, 256, 4096), 256, 0, stream_>>>(values, count, as<Bits>(largest_));
    HEAT_CUDA_CHECK_LAUNCH();
    Bits bits = 0;
    HEAT_CUDA_CHECK(cudaMemcpyAsync(&bits, as<Bits>(largest_), sizeof bits, cudaMemcpyDeviceToHost, stream_));
    HEAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
    T largest;
    std::memcpy(&largest, &bits, sizeof largest);
    return double(largest);
  }

  // Buffers for batches of at most `planes` planes, `blocks` blocks and `chunks` chunks; false
  // when the GPU (or the host's page-locked memory) has no room for them.
  template <typename T>
  bool reserve(const ChunkedPlanes<T>& p, int planes, std::size_t blocks, int chunks, std::size_t output_bytes) {
    std::size_t scan_bytes = 0;
    HEAT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<unsigned long long*>(nullptr),
                                                  static_cast<unsigned long long*>(nullptr), blocks + 1, stream_));
    scan_bytes_ = std::max(scan_bytes_, scan_bytes);
    const std::size_t input_bytes = p.on_device ? 0 : std::size_t(std::min(planes, p.planes)) * p.nx * p.ny * sizeof(T);
    const bool room = input_.reserve(input_bytes) &&
                      blocks_.reserve(2 * (blocks + 1) * sizeof(unsigned long long)) &&
                      scan_.reserve(scan_bytes_) &&
                      table_.reserve(2 * (std::size_t(chunks) + 1) * sizeof(unsigned long long)) &&
                      output_.reserve(output_bytes);
    if (!room) return false;
    if (output_bytes > host_bytes_) {
      if (host_) HEAT_CUDA_CHECK(cudaFreeHost(host_));
      host_ = nullptr;
      host_bytes_ = 0;
      if (cudaMallocHost(&host_, output_bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        host_ = nullptr;
        return false;
      }
      host_bytes_ = output_bytes;
    }
    return true;
  }

  int device_;
  std::size_t batch_bytes_;
  cudaStream_t stream_ = nullptr;
  Scratch input_, blocks_, scan_, table_, output_, largest_;
  std::size_t scan_bytes_ = 0;
  void* host_ = nullptr;  // page-locked: the compressed bytes come back at the copy engine's speed
  std::size_t host_bytes_ = 0;
};

}  // namespace

std::unique_ptr<GpuZfpEncoder> make_gpu_zfp_encoder(int device, std::size_t batch_bytes) {
  return std::make_unique<CudaZfpEncoder>(device, batch_bytes);
}

}  // namespace heat
