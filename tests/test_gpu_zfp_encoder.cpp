// Snapshots whose ZFP chunks the GPU encodes (io/zfp/gpu_zfp_encoder.hpp) are the files the
// host's libzfp writes, chunk for chunk and byte for byte: float and double, smooth, random and
// wide-ranging fields with zeros of both signs, chunks partial on every axis and cut into rows, a
// field of two planes, bounds coarse and fine and reversible mode, in one batch of planes and in
// many (the last one partial). A field of one plane is left to libzfp and still written. Each
// also with the values held on the device, as the time loop keeps its snapshots there: the writer
// is handed a poisoned host field, which it reads only where libzfp must encode. The writer's side
// of the route (batches, offsets, checksums, chunk origins, the values' place) also runs without a
// GPU, fed by a host stand-in that places the same block coder's streams as the GPU does.
#include <gtest/gtest.h>
#ifdef HEAT_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "io/hdf5_support.hpp"
#include "io/zfp/zfp_chunks.hpp"
#include "io/zfp/gpu_zfp_encoder.hpp"
#include "test_support.hpp"
#include "zfp_block_stream.hpp"
#include "zfp_test_support.hpp"

namespace heat {
namespace {

// An encoder (the GPU's, or the stand-in below) counting the chunks it hands on, so a test knows
// which route wrote them.
class CountingEncoder final : public GpuZfpEncoder {
 public:
  CountingEncoder(std::unique_ptr<GpuZfpEncoder> inner, int& chunks) : inner_(std::move(inner)), chunks_(chunks) {}
  bool encode(const ChunkedPlanes<float>& p, const zfp_block::Mode& m, unsigned w,
              const ChunkStreamSink& sink) override {
    return inner_->encode(p, m, w, counted(sink));
  }
  bool encode(const ChunkedPlanes<double>& p, const zfp_block::Mode& m, unsigned w,
              const ChunkStreamSink& sink) override {
    return inner_->encode(p, m, w, counted(sink));
  }
  double largest_magnitude(const float* values, std::size_t count) override {
    return inner_->largest_magnitude(values, count);
  }
  double largest_magnitude(const double* values, std::size_t count) override {
    return inner_->largest_magnitude(values, count);
  }

 private:
  ChunkStreamSink counted(const ChunkStreamSink& sink) {
    return [this, sink](const EncodedChunks& batch) {
      chunks_ += batch.count;
      sink(batch);
    };
  }
  std::unique_ptr<GpuZfpEncoder> inner_;
  int& chunks_;
};

// The GPU encoder's contract kept on the host with the same block coder, one block after another:
// the chunks in order, `per_batch` at a time, each stream at an 8-byte boundary with room for its
// checksum after it. Lets a machine without a GPU run the writer's route for encoded chunks.
class HostStandInEncoder final : public GpuZfpEncoderOf<HostStandInEncoder> {
 public:
  explicit HostStandInEncoder(int per_batch) : per_batch_(per_batch) {}

 private:
  friend class GpuZfpEncoderOf<HostStandInEncoder>;
  template <typename T>
  bool encode_planes(const ChunkedPlanes<T>& p, const zfp_block::Mode& mode, unsigned word_bits,
                     const ChunkStreamSink& sink) {
    const int cz = int(p.chunk[0]), cy = int(p.chunk[1]);
    const int along_y = (p.ny + cy - 1) / cy;
    const std::int64_t chunks = std::int64_t((p.planes + cz - 1) / cz) * along_y;
    for (std::int64_t first = 0; first < chunks; first += per_batch_) {
      const int count = int(std::min<std::int64_t>(per_batch_, chunks - first));
      std::vector<unsigned long long> words;
      std::vector<unsigned long long> offsets, sizes;
      for (std::int64_t c = first; c < first + count; ++c) {
        const int z0 = int(c / along_y) * cz, y0 = int(c % along_y) * cy;
        const auto value = [&](int x, int y, int z) {
          const int gz = std::min(z0 + z, p.planes - 1), gy = std::min(y0 + y, p.ny - 1);
          return p.values[(std::size_t(gz) * p.ny + gy) * p.nx + x];
        };
        offsets.push_back(8 * words.size());
        const std::uint64_t bits = test::append_block_stream<T>(words, p.nx, cy, cz, mode, value);
        words.push_back(0);  // room for the checksum
        sizes.push_back((bits + word_bits - 1) / word_bits * word_bits / 8);
      }
      sink(EncodedChunks{first, count, reinterpret_cast<unsigned char*>(words.data()), offsets.data(), sizes.data()});
    }
    return true;
  }
  template <typename T>
  double largest_magnitude_of(const T* values, std::size_t count) {
    T largest = 0;
    for (std::size_t n = 0; n < count; ++n) largest = std::max(largest, std::abs(values[n]));
    return double(largest);
  }
  int per_batch_;
};

// A snapshot held on the device: in device memory of GPU 0 for the GPU's encoder, in host memory
// for the stand-in, which reads it there.
template <typename T>
class HeldSnapshot final : public DeviceSnapshot {
 public:
  HeldSnapshot(const Field<T>& u, bool on_gpu) : bytes_(u.size() * sizeof(T)), on_gpu_(on_gpu) {
    if (!on_gpu_) {
      host_.assign(u.data(), u.data() + u.size());
      return;
    }
#ifdef HEAT_HAVE_CUDA
    EXPECT_EQ(cudaMalloc(&device_, bytes_), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(device_, u.data(), bytes_, cudaMemcpyHostToDevice), cudaSuccess);
    // A copy from pageable memory may still be landing when cudaMemcpy returns, and the encoder's
    // stream does not wait for it: held, as the loop's snapshot is, only once it has landed.
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
#endif
  }
  ~HeldSnapshot() override {
#ifdef HEAT_HAVE_CUDA
    if (device_) cudaFree(device_);
#endif
  }
  void wait() override {}
  const void* values() const override { return on_gpu_ ? device_ : static_cast<const void*>(host_.data()); }
  void fetch(void* host) override {
    if (!on_gpu_) {
      std::memcpy(host, host_.data(), bytes_);
      return;
    }
#ifdef HEAT_HAVE_CUDA
    EXPECT_EQ(cudaMemcpy(host, device_, bytes_, cudaMemcpyDeviceToHost), cudaSuccess);
#endif
  }

 private:
  std::size_t bytes_;
  bool on_gpu_;
  std::vector<T> host_;
  void* device_ = nullptr;
};

// Every chunk of /VTKHDF/PointData/u as stored: its bytes, checksum included, in chunk order.
std::vector<std::vector<unsigned char>> stored_chunks(const std::string& path) {
  h5::initialize_library();
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  h5::Handle dataset(H5Dopen2(file.get(), "/VTKHDF/PointData/u", H5P_DEFAULT), H5Dclose);
  h5::Handle space(H5Dget_space(dataset.get()), H5Sclose);
  hsize_t count = 0;
  H5Dget_num_chunks(dataset.get(), space.get(), &count);
  std::vector<std::vector<unsigned char>> chunks;
  for (hsize_t n = 0; n < count; ++n) {
    hsize_t origin[3], size = 0;
    haddr_t address = 0;
    unsigned mask = 0;
    EXPECT_GE(H5Dget_chunk_info(dataset.get(), space.get(), n, origin, &mask, &address, &size), 0);
    std::vector<unsigned char> bytes(size);
    std::uint32_t filters = 0;
    EXPECT_GE(H5Dread_chunk(dataset.get(), H5P_DEFAULT, origin, &filters, bytes.data()), 0);
    chunks.push_back(std::move(bytes));
  }
  return chunks;
}

// An encoder, and whether it reads device memory (so values held on the device are in a GPU's).
struct EncoderRoute {
  std::function<std::unique_ptr<GpuZfpEncoder>()> make;
  bool on_gpu;
};

EncoderRoute gpu_encoder(std::size_t batch_bytes = kZfpBatchBytes) {
  return {[batch_bytes] { return make_gpu_zfp_encoder(0, batch_bytes); }, true};
}

EncoderRoute stand_in_encoder(int per_batch) {
  return {[per_batch] { return std::make_unique<HostStandInEncoder>(per_batch); }, false};
}

// Writes u with `codec` through libzfp on the host and through the route's encoder, from u or
// (`held_on_device`) from u's values held on the device with a NaN-filled field handed to the
// writer: the files' chunks must be equal byte for byte, and (where expected) every chunk must have
// come from the encoder.
template <typename T>
void expect_file_is_libzfps(const std::string& what, const Field<T>& u, const std::string& codec, bool encoder_expected,
                            const EncoderRoute& route, bool held_on_device = false) {
  const Grid g{u.nx(), u.ny(), u.nz(), 0.1, 0.1, 0.1};
  const std::string label = std::string(sizeof(T) == 4 ? "float " : "double ") + what + " " + std::to_string(g.nx) +
                            "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) + " " + codec +
                            (held_on_device ? " held on the device" : "");
  const Compression c = parse_compression(codec);
  const std::string dir = test::temp_directory("gpu-zfp");
  write_vtkhdf_file<T>(dir + "/host.hdf", u, test::zfp_run(g, sizeof(T) == 4), 5, 0.5, c);
  int encoded = 0;
  {
    CountingEncoder encoder(route.make(), encoded);
    if (!held_on_device) {
      write_vtkhdf_file<T>(dir + "/encoded.hdf", u, test::zfp_run(g, sizeof(T) == 4), 5, 0.5, c, &encoder);
    } else {
      HeldSnapshot<T> held(u, route.on_gpu);
      Field<T> handed(g, std::numeric_limits<T>::quiet_NaN());
      write_vtkhdf_file(dir + "/encoded.hdf", SnapshotSource<T>(handed, held), test::zfp_run(g, sizeof(T) == 4), 5, 0.5,
                        c, &encoder);
    }
  }
  const auto host = stored_chunks(dir + "/host.hdf"), other = stored_chunks(dir + "/encoded.hdf");
  EXPECT_EQ(std::size_t(encoded), encoder_expected ? host.size() : 0) << label << ": chunks from the encoder";
  ASSERT_EQ(other.size(), host.size()) << label;
  for (std::size_t n = 0; n < host.size(); ++n) EXPECT_TRUE(other[n] == host[n]) << label << ": chunk " << n << " differs";
}

template <typename T>
void expect_every_field_and_codec(const Grid& g, const EncoderRoute& route, bool held_on_device = false) {
  for (bool smooth : {true, false})
    for (const char* codec : {"zfp:1e-6", "zfp:0.001", "zfp:reversible"})
      expect_file_is_libzfps<T>(smooth ? "smooth" : "random", test::test_field<T>(g, smooth), codec, true, route,
                                held_on_device);
  // Lossy bounds this fine cannot be held at 1e30 (the writer refuses them): reversible alone.
  expect_file_is_libzfps<T>("wide", test::wide_field<T>(g), "zfp:reversible", true, route, held_on_device);
}

// A flat field's chunks go to libzfp: from u, or from the values held on the device brought to
// the handed host field first.
void expect_flat_field_left_to_libzfp(const EncoderRoute& route) {
  for (bool held_on_device : {false, true})
    expect_file_is_libzfps<float>("smooth", test::test_field<float>(Grid{37, 29, 1, 0.1, 0.1, 0.1}, true), "zfp:1e-6",
                                  false, route, held_on_device);
}

// The writer's route for encoded chunks, on any machine: batches of one chunk and of three, the
// stand-in's streams placed as the GPU places them.
TEST(EncodedZfpChunks, TheWriterStoresAnEncodersBatchesAsLibzfpWould) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (int per_batch : {1, 3})
    for (bool held_on_device : {false, true}) {
      expect_every_field_and_codec<float>(test::partial_chunk_grid(), stand_in_encoder(per_batch), held_on_device);
      expect_every_field_and_codec<double>(Grid{37, 29, 23, 0.1, 0.1, 0.1}, stand_in_encoder(per_batch),
                                           held_on_device);
    }
  expect_flat_field_left_to_libzfp(stand_in_encoder(1));
}

TEST(GpuZfpEncoder, ChunksAreLibzfpsByteForByte) {
  HEAT_REQUIRE_GPU();
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (const Grid& g : {test::partial_chunk_grid(), Grid{37, 29, 23, 0.1, 0.1, 0.1}, Grid{61, 45, 2, 0.1, 0.1, 0.1}})
    for (bool held_on_device : {false, true}) {
      expect_every_field_and_codec<float>(g, gpu_encoder(), held_on_device);
      expect_every_field_and_codec<double>(g, gpu_encoder(), held_on_device);
    }
}

// One row of chunks a batch: partial_chunk_grid's 7 planes are two rows of 4-plane chunks, the
// second reaching past the field's last plane.
TEST(GpuZfpEncoder, ChunksEncodedInManyBatchesAreLibzfpsByteForByte) {
  HEAT_REQUIRE_GPU();
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (bool held_on_device : {false, true}) {
    expect_every_field_and_codec<float>(test::partial_chunk_grid(), gpu_encoder(1), held_on_device);
    expect_every_field_and_codec<double>(test::partial_chunk_grid(), gpu_encoder(1), held_on_device);
  }
}

// The largest |value| the bound is checked against, found on the GPU: the host's, for fields
// with values of both signs, zeros of both signs, values spread over many decades and subnormals.
template <typename T>
void expect_largest_magnitude_is_the_hosts(const Field<T>& u, const std::string& what) {
  HeldSnapshot<T> held(u, true);
  const auto encoder = make_gpu_zfp_encoder(0);
  T host = 0;
  for (std::size_t n = 0; n < u.size(); ++n) {
    ASSERT_TRUE(std::isfinite(u.data()[n])) << what << ": the test's own field";
    host = std::max(host, std::abs(u.data()[n]));
  }
  EXPECT_EQ(encoder->largest_magnitude(static_cast<const T*>(held.values()), u.size()), double(host)) << what;
  // A part of the field: the planes from the second on, as a rank's slab is written.
  const std::size_t plane = std::size_t(u.nx()) * u.ny();
  T tail = 0;
  for (std::size_t n = plane; n < u.size(); ++n) tail = std::max(tail, std::abs(u.data()[n]));
  EXPECT_EQ(encoder->largest_magnitude(static_cast<const T*>(held.values()) + plane, u.size() - plane), double(tail))
      << what << ", from the second plane";
}

TEST(GpuZfpEncoder, TheLargestMagnitudeIsTheHostsOnEveryField) {
  HEAT_REQUIRE_GPU();
  for (const Grid& g : {test::partial_chunk_grid(), Grid{37, 29, 23, 0.1, 0.1, 0.1}, Grid{37, 29, 1, 0.1, 0.1, 0.1}}) {
    for (bool smooth : {true, false}) {
      expect_largest_magnitude_is_the_hosts(test::test_field<float>(g, smooth), smooth ? "smooth float" : "random float");
      expect_largest_magnitude_is_the_hosts(test::test_field<double>(g, smooth), smooth ? "smooth double" : "random double");
    }
    expect_largest_magnitude_is_the_hosts(test::wide_field<float>(g), "wide float");
    expect_largest_magnitude_is_the_hosts(test::wide_field<double>(g), "wide double");
  }
}

TEST(GpuZfpEncoder, FlatChunksAreLeftToLibzfp) {
  HEAT_REQUIRE_GPU();
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  // One plane: H5Z-ZFP stores its chunks as 2-D fields, which the GPU does not encode.
  expect_flat_field_left_to_libzfp(gpu_encoder());
}

}  // namespace
}  // namespace heat
