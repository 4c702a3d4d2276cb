// Any HDF5 reader with the H5Z-ZFP plugin reads heatrk4's ZFP snapshots, and they are what the
// plugin itself would store: zfp_plugin_tool (HDF5 alone, the plugin from HDF5_PLUGIN_PATH) reads
// them bitwise as heatrk4's in-process codec does, and writes the same values through the plugin
// into a file whose cd_values and whole chunks are byte for byte heatrk4's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/hdf5_support.hpp"
#include "io/input_file.hpp"
#include "io/zfp/zfp_chunks.hpp"
#include "test_support.hpp"
#include "zfp_test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

int run_tool(const std::string& args) {
  // The plugin finds libzfp where the build found it (a folder of unpacked packages, too).
  const std::string command = std::string("HDF5_PLUGIN_PATH=") + HEAT_ZFP_PLUGIN_DIR +
                              " LD_LIBRARY_PATH=" + HEAT_ZFP_LIBRARY_DIR + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} " +
                              ZFP_PLUGIN_TOOL + " " + args + " > /dev/null 2>&1";
  return std::system(command.c_str());
}

std::vector<double> read_raw(const std::string& path, std::size_t count) {
  std::vector<double> values(count);
  std::ifstream(path, std::ios::binary).read(reinterpret_cast<char*>(values.data()), std::streamsize(count * 8));
  return values;
}

struct StoredDataset {
  std::vector<unsigned> cd_values;
  hsize_t chunk[3] = {0, 0, 0};
  std::vector<std::vector<unsigned char>> chunks;  // whole chunks only (edge chunks hold padding)
};

StoredDataset stored(const std::string& path, const char* name, const Grid& g) {
  h5::initialize_library();
  StoredDataset out;
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  h5::Handle dataset(H5Dopen2(file.get(), name, H5P_DEFAULT), H5Dclose);
  h5::Handle layout(H5Dget_create_plist(dataset.get()), H5Pclose);
  unsigned flags = 0, config = 0, values[16];
  std::size_t count = 16;
  EXPECT_GE(H5Pget_filter_by_id2(layout.get(), kZfpFilterId, &flags, &count, values, 0, nullptr, &config), 0);
  // Mandatory: a reader without the plugin fails to read the dataset instead of taking the
  // compressed bytes for values.
  EXPECT_EQ(flags & H5Z_FLAG_OPTIONAL, 0u) << "the ZFP filter is optional in " << path;
  out.cd_values.assign(values, values + count);
  H5Pget_chunk(layout.get(), 3, out.chunk);
  for (hsize_t z = 0; z + out.chunk[0] <= hsize_t(g.nz); z += out.chunk[0])
    for (hsize_t y = 0; y + out.chunk[1] <= hsize_t(g.ny); y += out.chunk[1]) {
      const hsize_t origin[3] = {z, y, 0};
      hsize_t size = 0;
      H5Dget_chunk_storage_size(dataset.get(), origin, &size);
      std::vector<unsigned char> bytes(size);
      std::uint32_t mask = 0;
      EXPECT_GE(H5Dread_chunk(dataset.get(), H5P_DEFAULT, origin, &mask, bytes.data()), 0);
      out.chunks.push_back(bytes);
    }
  return out;
}

template <typename T>
class ZfpPlugin : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ZfpPlugin, Precisions);

TYPED_TEST(ZfpPlugin, ReadsHeatrk4sChunksAndStoresTheSameBytes) {
  using T = TypeParam;
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  if (!fs::exists(std::string(HEAT_ZFP_PLUGIN_DIR) + "/libh5zzfp.so"))
    GTEST_SKIP() << "no H5Z-ZFP plugin in " << HEAT_ZFP_PLUGIN_DIR << " (Debian: hdf5-filter-plugin-zfp-serial)";
  const bool is_float = sizeof(T) == 4;
  const Grid g = test::partial_chunk_grid();
  const std::string dir = test::temp_directory("zfp-plugin");
  for (const char* codec : {"zfp:1e-5", "zfp:reversible"}) {
    const std::string label = std::string(codec) + (is_float ? " float" : " double");
    const Compression c = parse_compression(codec);
    const Field<T> u = test::test_field<T>(g, true);
    const std::string ours = dir + "/ours.hdf";
    write_vtkhdf_file<T>(ours, u, test::zfp_run(g, is_float), 5, 0.5, c);

    ASSERT_EQ(run_tool("read " + ours + " /VTKHDF/PointData/u " + dir + "/plugin.raw"), 0) << label;
    const std::vector<double> plugin = read_raw(dir + "/plugin.raw", u.size());
    const Field<double> heatrk4 = read_initial_field(ours).values;
    EXPECT_EQ(std::memcmp(plugin.data(), heatrk4.data(), u.size() * sizeof(double)), 0)
        << label << ": the plugin decodes other values than heatrk4";
    EXPECT_LE(test::max_difference(u, heatrk4), c.lossless() ? 0.0 : c.bound) << label;

    // The same values through the plugin itself, chunked as heatrk4 chunks them.
    const StoredDataset mine = stored(ours, "/VTKHDF/PointData/u", g);
    const Field<double> wide = field_cast<double>(u);
    std::ofstream(dir + "/u.raw", std::ios::binary)
        .write(reinterpret_cast<const char*>(wide.data()), std::streamsize(wide.size() * sizeof(double)));
    const std::string shape = std::to_string(g.nz) + " " + std::to_string(g.ny) + " " + std::to_string(g.nx) + " " +
                              std::to_string(mine.chunk[0]) + " " + std::to_string(mine.chunk[1]) + " " +
                              std::to_string(mine.chunk[2]);
    const std::string how = c.lossless() ? "reversible reversible" : "accuracy " + std::string(codec + 4);
    ASSERT_EQ(run_tool("write " + dir + "/plugin.h5 " + (is_float ? "float " : "double ") + shape + " " + how + " " +
                       dir + "/u.raw"),
              0)
        << label;
    const StoredDataset theirs = stored(dir + "/plugin.h5", "/u", g);
    EXPECT_EQ(mine.cd_values, theirs.cd_values) << label << ": the dataset's cd_values differ from H5Z-ZFP's";
    ASSERT_EQ(mine.chunks.size(), theirs.chunks.size());
    ASSERT_GT(mine.chunks.size(), 0u);
    for (std::size_t n = 0; n < mine.chunks.size(); ++n)
      EXPECT_EQ(mine.chunks[n], theirs.chunks[n]) << label << ": whole chunk " << n << " differs from H5Z-ZFP's";
  }
}

}  // namespace
}  // namespace heat
