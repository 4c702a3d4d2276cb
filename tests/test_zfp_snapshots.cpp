// ZFP-compressed snapshots (--compress zfp:BOUND and zfp:reversible, io/compression.hpp): the
// codec's names and the values refused; every value read back within the bound (reversible and
// gzip: bitwise) for smooth and random fields, float and double, on chunks partial on every axis;
// runs of orders 2 and 8 against the uncompressed run; the codec recorded in /heatrk4 and --json.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "io/hdf5_chunks.hpp"
#include "io/hdf5_support.hpp"
#include "io/input_file.hpp"
#include "io/vtk_snapshot.hpp"
#include "io/zfp/zfp_chunks.hpp"
#include "core/errors.hpp"
#include "test_support.hpp"
#include "zfp_test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::max_difference;

#define HEAT_REQUIRE_ZFP() \
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp"

TEST(CompressionNames, EveryFormReadsAndNamesItselfBack) {
  EXPECT_EQ(parse_compression("0").codec, Codec::None);
  EXPECT_EQ(parse_compression("6").level, 6);
  EXPECT_EQ(parse_compression("gzip:9").codec, Codec::Gzip);
  EXPECT_EQ(parse_compression("zfp:reversible").codec, Codec::ZfpReversible);
  EXPECT_EQ(parse_compression("zfp:1e-6").bound, 1e-6);
  EXPECT_EQ(parse_compression("zfp:0.25").bound, 0.25);
  for (const char* text : {"none", "gzip:1", "gzip:9", "zfp:1e-06", "zfp:0.001", "zfp:0.1", "zfp:reversible"}) {
    const std::string given = std::string(text) == "none" ? "0" : text;
    EXPECT_EQ(compression_name(parse_compression(given)), text);
  }
}

TEST(CompressionNames, UnknownCodecsAndBoundsNotPositiveOrFiniteAreRefusedNamingTheValue) {
  for (const char* text :
       {"10",       "-1",    "01",        "gzip",        "gzip:",   "gzip:10",   "gzip:0x1",  "zfp",
        "zfp:",     "zfp:0", "zfp:-1e-6", "zfp:nan",     "zfp:inf", "zfp:1e400", "zfp:1e-6x", "zfp:reversable",
        "ZFP:1e-6", "lz4",   "blosc:1",   "zfp:0x1p-20", ""}) {
    try {
      parse_compression(text);
      ADD_FAILURE() << "'" << text << "' was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--compress " + std::string(text)), std::string::npos) << e.what();
    }
  }
}

// Writes u with `codec`, reads it back as a restart would; the chunks of the dataset are partial.
template <typename T>
Field<double> write_and_read(const Field<T>& u, const Grid& g, const std::string& codec, const std::string& path) {
  const Compression c = parse_compression(codec);
  write_vtkhdf_file<T>(path, u, test::zfp_run(g, sizeof(T) == 4), 5, 0.5, c);
  return read_initial_field(path).values;
}

template <typename T>
class ZfpRoundTrip : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ZfpRoundTrip, Precisions);

TYPED_TEST(ZfpRoundTrip, EveryValueWithinTheBoundOnPartialChunksSmoothAndRandom) {
  using T = TypeParam;
  HEAT_REQUIRE_ZFP();
  const Grid g = test::partial_chunk_grid();
  const std::string dir = test::temp_directory("zfp-bound");
  for (bool smooth : {true, false}) {
    const Field<T> u = test::test_field<T>(g, smooth);
    for (const char* codec : {"zfp:1e-6", "zfp:1e-3"}) {
      const std::string label = std::string(codec) + (smooth ? " smooth" : " random");
      const std::string path = dir + "/u.hdf";
      const Field<double> back = write_and_read(u, g, codec, path);
      const double error = max_difference(u, back);
      EXPECT_LE(error, parse_compression(codec).bound) << label;
      // Lossy indeed (a codec that stored every bit would pass the bound trivially).
      EXPECT_GT(error, 0.0) << label;
      if (smooth) EXPECT_LT(fs::file_size(path), u.size() * sizeof(T) / 4) << label << ": barely compressed";
    }
  }
}

TYPED_TEST(ZfpRoundTrip, ReversibleAndGzipReadBackBitwiseOnPartialChunks) {
  using T = TypeParam;
  const Grid g = test::partial_chunk_grid();
  const std::string dir = test::temp_directory("zfp-lossless");
  for (const char* kind : {"smooth", "random", "wide"}) {
    const std::string name = kind;
    const Field<T> u = name == "wide" ? test::wide_field<T>(g) : test::test_field<T>(g, name == "smooth");
    for (const char* codec : {"zfp:reversible", "gzip:1"}) {
      if (parse_compression(codec).is_zfp() && !built_with_zfp()) continue;
      const Field<double> back = write_and_read(u, g, codec, dir + "/u.hdf");
      const Field<T> stored = field_cast<T>(back);
      EXPECT_EQ(std::memcmp(stored.data(), u.data(), u.size() * sizeof(T)), 0) << codec << " " << kind;
    }
  }
}

// The chunks the writer chose are partial on every axis, and the first is whole (or the tests above
// test less than they say): a whole chunk is compressed where it lies in the field, an edge chunk
// from a padded copy.
TEST(ZfpChunks, ChunksOfThePartialGridArePartialOnEveryAxisAndTheFirstIsWhole) {
  const Grid g = test::partial_chunk_grid();
  for (std::size_t bytes : {sizeof(float), sizeof(double)}) {
    const auto chunk = chunk_shape(g, bytes, parse_compression("zfp:1e-6"));
    EXPECT_EQ(chunk[0], 4u);
    EXPECT_EQ(chunk[1] % 4, 0u);
    EXPECT_NE(hsize_t(g.ny) % chunk[1], 0u) << "ny " << g.ny << " in rows of " << chunk[1];
    EXPECT_NE(hsize_t(g.nz) % chunk[0], 0u);
    EXPECT_EQ(chunk[2], hsize_t(g.nx));
    EXPECT_LT(chunk[0], hsize_t(g.nz));
    EXPECT_LT(chunk[1], hsize_t(g.ny));
  }
}

// A ZFP chunk is whole 4-plane blocks deep, unless one chunk holds every plane: small planes take
// several blocks a chunk (about 4 MiB of values), large ones one.
TEST(ZfpChunks, AChunkIsWholeBlocksDeep) {
  for (const Grid g : {Grid{130, 110, 400}, Grid{150, 110, 400}, Grid{200, 150, 41}, Grid{700, 700, 9}, Grid{9, 9, 30}})
    for (std::size_t bytes : {sizeof(float), sizeof(double)}) {
      const auto chunk = chunk_shape(g, bytes, parse_compression("zfp:1e-6"));
      EXPECT_TRUE(chunk[0] % 4 == 0 || chunk[0] == hsize_t(g.nz))
          << g.nx << " x " << g.ny << " x " << g.nz << ", " << bytes << "-byte values: " << chunk[0] << " planes a chunk";
    }
}

// Every codec's chunks split the axis they cut evenly: the padded edge chunk adds less than one
// plane or row per chunk (four for ZFP's blocks), so a file stores about its field's bytes.
TEST(SnapshotChunks, SplitTheirAxisEvenlySoEdgeChunksAddLittle) {
  for (int n : {23, 300, 1000, 1200, 2400})
    for (std::size_t bytes : {sizeof(float), sizeof(double)})
      for (const char* codec : {"0", "5", "zfp:1e-6"}) {
        Grid g;
        g.nx = g.ny = n;
        g.nz = n / 2 + 1;
        const Compression compression = parse_compression(codec);
        const auto chunk = chunk_shape(g, bytes, compression);
        const hsize_t unit = compression.is_zfp() ? 4 : 1;
        for (int axis : {0, 1}) {
          const hsize_t extent = axis == 0 ? hsize_t(g.nz) : hsize_t(g.ny);
          const hsize_t chunks = (extent + chunk[axis] - 1) / chunk[axis];
          EXPECT_LT(chunks * chunk[axis] - extent, chunks * unit)
              << codec << ", n " << n << ", " << bytes << "-byte values, axis " << axis << ": chunks of "
              << chunk[axis];
        }
      }
}

// HDF5's own Fletcher-32 filter stores the same four bytes after a chunk as fletcher32() computes.
TEST(ZfpChunks, Fletcher32IsHdf5s) {
  h5::initialize_library();
  const std::string path = test::temp_directory("fletcher") + "/f.h5";
  for (hsize_t count : {1u, 2u, 179u, 1000u}) {
    std::vector<unsigned char> bytes(count);
    for (hsize_t n = 0; n < count; ++n) bytes[n] = static_cast<unsigned char>(n * 37 + 11);
    h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    h5::Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    h5::Handle layout(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    ASSERT_GE(H5Pset_chunk(layout.get(), 1, &count), 0);
    ASSERT_GE(H5Pset_fletcher32(layout.get()), 0);
    h5::Handle dataset(
        H5Dcreate2(file.get(), "b", H5T_NATIVE_UCHAR, space.get(), H5P_DEFAULT, layout.get(), H5P_DEFAULT), H5Dclose);
    ASSERT_GE(H5Dwrite(dataset.get(), H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), 0);
    const hsize_t origin = 0;
    std::vector<unsigned char> stored(count + 4);
    std::uint32_t mask = 0;
    ASSERT_GE(H5Dread_chunk(dataset.get(), H5P_DEFAULT, &origin, &mask, stored.data()), 0);
    const std::uint32_t sum = fletcher32(bytes.data(), bytes.size());
    for (int b = 0; b < 4; ++b) EXPECT_EQ(stored[count + b], static_cast<unsigned char>(sum >> (8 * b))) << count;
  }
}

// heatrk4 runs of orders 2 and 8, float and double, from a smooth and a random start, on an odd
// grid: the snapshots of a ZFP run are the uncompressed run's within the bound (reversible:
// bitwise), and the summary, --json and /heatrk4 name the codec.
TEST(ZfpRuns, SnapshotsAreTheUncompressedRunsWithinTheBound) {
  HEAT_REQUIRE_ZFP();
  for (const char* order : {"2", "8"})
    for (const char* precision : {"float", "double"})
      for (const char* init : {"gaussian", "randn"}) {
        const std::string label = std::string("order ") + order + " " + precision + " " + init;
        std::string plain;
        for (const char* codec : {"0", "zfp:1e-5", "zfp:reversible"}) {
          const std::string out = test::temp_directory("zfp-run");
          const auto result = test::run_heatrk4(
              {"--backend",      "cpu", "--nx",        "37",      "--ny",     "29", "--nz",    "23",
               "--order",        order, "--precision", precision, "--init",   init, "--steps", "4",
               "--output-every", "2",   "--compress",  codec,     "--output", out,  "--json",  out + "/run.json"});
          ASSERT_EQ(result.exit_code, 0) << label << " " << codec << "\n" << result.output;
          if (std::string(codec) == "0") {
            plain = out;
            continue;
          }
          const Compression c = parse_compression(codec);
          EXPECT_NE(result.output.find("compression " + compression_name(c)), std::string::npos) << result.output;
          EXPECT_NE(test::read_text(out + "/run.json").find("\"codec\": \"" + compression_name(c) + "\""),
                    std::string::npos);
          for (const char* step : {"000000", "000002", "000004"}) {
            const PointArray a = read_point_array(plain + "/heat_" + step + ".hdf", "u");
            const PointArray b = read_point_array(out + "/heat_" + step + ".hdf", "u");
            if (c.lossless())
              EXPECT_EQ(max_difference(a.values, b.values), 0.0) << label << " " << codec << " step " << step;
            else
              EXPECT_LE(max_difference(a.values, b.values), c.bound) << label << " " << codec << " step " << step;
          }
          h5::Handle file(H5Fopen((out + "/heat_000004.hdf").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
          h5::Handle group(H5Gopen2(file.get(), "heatrk4", H5P_DEFAULT), H5Gclose);
          EXPECT_EQ(h5::read_string_attribute(group.get(), "compression"), compression_name(c));
          EXPECT_EQ(h5::read_number_attribute(group.get(), "compression_bound", 1)[0], c.lossless() ? 0.0 : c.bound);
        }
      }
}

TEST(ZfpRuns, ZfpForVtkFilesAndBadCodecsExitTwoBeforeAnyWork) {
  const std::string out = test::temp_directory("zfp-bad") + "/out";
  std::vector<std::vector<std::string>> cases = {
      {"--compress", "zfp:0"}, {"--compress", "zfp:-1"}, {"--compress", "zfp:inf"}, {"--compress", "snappy"}};
  // Without VTK, --format vtk is refused first, for want of VTK.
  // The message quotes the option as written (zfp:1e-3, not zfp:0.001).
  if (built_with_vtk()) cases.push_back({"--compress", "zfp:1e-3", "--format", "hdf5,vtk"});
  for (const std::vector<std::string>& bad : cases) {
    std::vector<std::string> args = {"--backend", "cpu", "--n", "16", "--steps", "2", "--output", out};
    args.insert(args.end(), bad.begin(), bad.end());
    const auto result = test::run_heatrk4(args);
    EXPECT_EQ(result.exit_code, 2) << bad[1] << "\n" << result.output;
    EXPECT_NE(result.output.find("--compress " + bad[1]), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(out)) << bad[1] << ": wrote before refusing";
  }
}

// A bound finer than float itself stores the field's values cannot be held: the run refuses it
// before any work (exit 2) with the smallest bound that holds, and writes nothing
// (tests/test_zfp_bound_checks.cpp holds the rule's edge for every kind of initial field).
TEST(ZfpRuns, ABoundFinerThanThePrecisionIsRefusedBeforeAnyWork) {
  HEAT_REQUIRE_ZFP();
  const std::string out = test::temp_directory("zfp-fine");
  const auto result =
      test::run_heatrk4({"--backend", "cpu", "--n", "16", "--steps", "2", "--output-every", "1", "--precision", "float",
                         "--init", "randn", "--compress", "zfp:1e-9", "--output", out});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(fs::is_empty(out)) << "a refused run wrote into its output directory";
  EXPECT_NE(result.output.find("--compress zfp:1e-09 cannot be held: float values as large as"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("--precision double"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(out + "/heat_000000.hdf"));
  // The same bound in double holds.
  const auto in_double =
      test::run_heatrk4({"--backend", "cpu", "--n", "16", "--steps", "2", "--precision", "double", "--init", "randn",
                         "--compress", "zfp:1e-9", "--output", test::temp_directory("zfp-fine-double")});
  EXPECT_EQ(in_double.exit_code, 0) << in_double.output;
}

// Without libzfp in the build, ZFP is refused with the package to install (io/zfp/no_zfp.cpp).
TEST(ZfpRuns, ABuildWithoutLibzfpRefusesZfpNamingThePackage) {
  if (built_with_zfp())
    GTEST_SKIP() << "this build has libzfp (the build without it is checked by configuring "
                    "with -DHEAT_WITH_ZFP=OFF)";
  const auto result = test::run_heatrk4({"--backend", "cpu", "--n", "16", "--steps", "2", "--compress", "zfp:1e-6",
                                         "--output", test::temp_directory("no-zfp") + "/out"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("libzfp-dev"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace heat
