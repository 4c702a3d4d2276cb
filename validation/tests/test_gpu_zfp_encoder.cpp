// Snapshots whose ZFP chunks the GPU encodes (solver/gpu_zfp_encoder.hpp) are the files the
// host's libzfp writes, chunk for chunk and byte for byte: float and double, smooth, random and
// wide-ranging fields with zeros of both signs, chunks partial on every axis and cut into rows, a
// field of two planes, bounds coarse and fine and reversible mode, in one batch of planes and in
// many (the last one partial). A field of one plane is left to libzfp and still written.
#include <gtest/gtest.h>

#include <vector>

#include "io/hdf5_support.hpp"
#include "io/zfp_chunks.hpp"
#include "solver/gpu_zfp_encoder.hpp"
#include "test_support.hpp"
#include "zfp_test_support.hpp"

namespace heat {
namespace {

// The GPU's encoder, counting the chunks it hands on, so a test knows the GPU wrote them.
class CountingEncoder final : public GpuZfpEncoder {
 public:
  CountingEncoder(int& chunks, std::size_t batch_bytes) : gpu_(make_gpu_zfp_encoder(0, batch_bytes)), chunks_(chunks) {}
  bool encode(const ChunkedPlanes<float>& p, const zfp_block::Mode& a, unsigned w,
              const ChunkStreamSink& sink) override {
    return gpu_->encode(p, a, w, counted(sink));
  }
  bool encode(const ChunkedPlanes<double>& p, const zfp_block::Mode& a, unsigned w,
              const ChunkStreamSink& sink) override {
    return gpu_->encode(p, a, w, counted(sink));
  }

 private:
  ChunkStreamSink counted(const ChunkStreamSink& sink) {
    return [this, sink](const EncodedChunks& batch) {
      chunks_ += batch.count;
      sink(batch);
    };
  }
  std::unique_ptr<GpuZfpEncoder> gpu_;
  int& chunks_;
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

template <typename T>
void expect_gpu_file_is_libzfps(const std::string& what, const Field<T>& u, const std::string& codec, bool gpu_expected,
                                std::size_t batch_bytes = kZfpBatchBytes) {
  const Grid g{u.nx(), u.ny(), u.nz(), 0.1, 0.1, 0.1};
  const std::string label = std::string(sizeof(T) == 4 ? "float " : "double ") + what + " " + std::to_string(g.nx) +
                            "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) + " " + codec + " batch " +
                            std::to_string(batch_bytes);
  const Compression c = parse_compression(codec);
  const std::string dir = test::temp_directory("gpu-zfp");
  write_vtkhdf_file(dir + "/host.hdf", u, test::zfp_run(g, sizeof(T) == 4), 5, 0.5, c);
  int gpu_chunks = 0;
  {
    const SnapshotEncoderScope scope(std::make_unique<CountingEncoder>(gpu_chunks, batch_bytes));
    write_vtkhdf_file(dir + "/gpu.hdf", u, test::zfp_run(g, sizeof(T) == 4), 5, 0.5, c);
  }
  const auto host = stored_chunks(dir + "/host.hdf"), gpu = stored_chunks(dir + "/gpu.hdf");
  EXPECT_EQ(std::size_t(gpu_chunks), gpu_expected ? host.size() : 0) << label << ": chunks from the GPU";
  ASSERT_EQ(gpu.size(), host.size()) << label;
  for (std::size_t n = 0; n < host.size(); ++n) EXPECT_TRUE(gpu[n] == host[n]) << label << ": chunk " << n << " differs";
}

template <typename T>
void expect_every_field_and_codec(const Grid& g, std::size_t batch_bytes) {
  for (bool smooth : {true, false})
    for (const char* codec : {"zfp:1e-6", "zfp:0.001", "zfp:reversible"})
      expect_gpu_file_is_libzfps<T>(smooth ? "smooth" : "random", test::test_field<T>(g, smooth), codec, true,
                                    batch_bytes);
  // Lossy bounds this fine cannot be held at 1e30 (the writer refuses them): reversible alone.
  expect_gpu_file_is_libzfps<T>("wide", test::wide_field<T>(g), "zfp:reversible", true, batch_bytes);
}

TEST(GpuZfpEncoder, ChunksAreLibzfpsByteForByte) {
  HEAT_REQUIRE_GPU();
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  for (const Grid& g : {test::partial_chunk_grid(), Grid{37, 29, 23, 0.1, 0.1, 0.1}, Grid{61, 45, 2, 0.1, 0.1, 0.1}}) {
    expect_every_field_and_codec<float>(g, kZfpBatchBytes);
    expect_every_field_and_codec<double>(g, kZfpBatchBytes);
  }
}

// One row of chunks a batch: partial_chunk_grid's 7 planes are two rows of 4-plane chunks, the
// second reaching past the field's last plane.
TEST(GpuZfpEncoder, ChunksEncodedInManyBatchesAreLibzfpsByteForByte) {
  HEAT_REQUIRE_GPU();
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  expect_every_field_and_codec<float>(test::partial_chunk_grid(), 1);
  expect_every_field_and_codec<double>(test::partial_chunk_grid(), 1);
}

TEST(GpuZfpEncoder, FlatChunksAreLeftToLibzfp) {
  HEAT_REQUIRE_GPU();
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  // One plane: H5Z-ZFP stores its chunks as 2-D fields, which the GPU does not encode.
  expect_gpu_file_is_libzfps<float>("smooth", test::test_field<float>(Grid{37, 29, 1, 0.1, 0.1, 0.1}, true), "zfp:1e-6",
                                    false);
}

}  // namespace
}  // namespace heat
