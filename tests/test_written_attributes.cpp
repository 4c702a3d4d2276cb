// Every attribute a run writes, read back without the product's readers and without any
// optional tool: the VTKHDF image's attributes and values and the /heatrk4 group through HDF5's
// C API, the .vti through VTK's own vtkXMLImageDataReader (when the build has VTK), and the
// .hdf.series and .pvd entries as text. The grid's sizes and spacings differ on every axis, so a
// swap of two axes anywhere is seen. Attributes added later do not disturb these checks.
#ifdef HEAT_HAVE_HDF5
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "core/initial_conditions.hpp"
#include "test_support.hpp"

#ifdef HEAT_HAVE_VTK
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataReader.h>
#endif

namespace heat {
namespace {

// The run every test here reads: 13 x 9 x 7 points, spacings 0.5, 0.25, 2, snapshots at steps 0, 2, 4.
constexpr int kNx = 13, kNy = 9, kNz = 7;
constexpr double kHx = 0.5, kHy = 0.25, kHz = 2.0;
constexpr double kDt = 0.01, kAlpha = 0.7;
constexpr std::uint64_t kSeed = 11;
const std::vector<int> kSnapshotSteps = {0, 2, 4};
#ifdef HEAT_HAVE_VTK
constexpr const char* kFormats = "hdf5,vtk";
#else
constexpr const char* kFormats = "hdf5";  // a build without VTK refuses vtk
#endif

const std::string& run_directory() {
  static const std::string dir = [] {
    const std::string out = test::temp_directory("attributes") + "/run";
    const auto r = test::run_heatrk4({"--nx", "13", "--ny", "9", "--nz", "7", "--hx", "0.5", "--hy", "0.25", "--hz", "2",
                                      "--order", "2", "--alpha", "0.7", "--dt", "0.01", "--init", "randn", "--seed", "11",
                                      "--steps", "4", "--output-every", "2", "--format", kFormats, "--backend", "cpu",
                                      "--precision", "double", "--quiet", "--output", out});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return out;
  }();
  return dir;
}

std::string snapshot_path(int step, const char* extension) {
  char name[32];
  std::snprintf(name, sizeof name, "/heat_%06d.%s", step, extension);
  return run_directory() + name;
}

// HDF5 through its C API only, each handle closed as it goes out of scope.
struct H5Id {
  hid_t id;
  herr_t (*close)(hid_t);
  ~H5Id() {
    if (id >= 0) close(id);
  }
};

std::vector<double> read_doubles(hid_t location, const char* name) {
  H5Id attribute{H5Aopen(location, name, H5P_DEFAULT), H5Aclose};
  if (attribute.id < 0) return {};
  H5Id space{H5Aget_space(attribute.id), H5Sclose};
  std::vector<double> values(std::size_t(H5Sget_simple_extent_npoints(space.id)));
  if (H5Aread(attribute.id, H5T_NATIVE_DOUBLE, values.data()) < 0) return {};
  return values;
}

std::vector<long long> read_integers(hid_t location, const char* name) {
  H5Id attribute{H5Aopen(location, name, H5P_DEFAULT), H5Aclose};
  if (attribute.id < 0) return {};
  H5Id space{H5Aget_space(attribute.id), H5Sclose};
  std::vector<long long> values(std::size_t(H5Sget_simple_extent_npoints(space.id)));
  if (H5Aread(attribute.id, H5T_NATIVE_LLONG, values.data()) < 0) return {};
  return values;
}

std::string read_string(hid_t location, const char* name) {
  H5Id attribute{H5Aopen(location, name, H5P_DEFAULT), H5Aclose};
  if (attribute.id < 0) return "<missing>";
  H5Id type{H5Aget_type(attribute.id), H5Tclose};
  std::string value(H5Tget_size(type.id), '\0');
  if (H5Aread(attribute.id, type.id, value.data()) < 0) return "<unreadable>";
  return value.substr(0, value.find('\0'));
}

std::vector<double> read_dataset(hid_t file, const char* path, std::vector<hsize_t>& dims) {
  H5Id dataset{H5Dopen2(file, path, H5P_DEFAULT), H5Dclose};
  if (dataset.id < 0) return {};
  H5Id space{H5Dget_space(dataset.id), H5Sclose};
  dims.assign(std::size_t(H5Sget_simple_extent_ndims(space.id)), 0);
  H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
  std::vector<double> values(std::size_t(H5Sget_simple_extent_npoints(space.id)));
  if (H5Dread(dataset.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) return {};
  return values;
}

// The field the run started from, by the documented seed (x fastest, then y, then z).
std::vector<double> initial_field() {
  const Field<double> u = randn_field<double>(Grid{kNx, kNy, kNz, kHx, kHy, kHz}, kSeed);
  return std::vector<double>(u.data(), u.data() + u.size());
}

TEST(WrittenAttributes, VtkhdfImageAttributes) {
  for (int step : kSnapshotSteps) {
    H5Id file{H5Fopen(snapshot_path(step, "hdf").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    ASSERT_GE(file.id, 0) << snapshot_path(step, "hdf");
    H5Id vtkhdf{H5Gopen2(file.id, "VTKHDF", H5P_DEFAULT), H5Gclose};
    ASSERT_GE(vtkhdf.id, 0);
    EXPECT_EQ(read_integers(vtkhdf.id, "WholeExtent"), (std::vector<long long>{0, 12, 0, 8, 0, 6}));
    EXPECT_EQ(read_doubles(vtkhdf.id, "Spacing"), (std::vector<double>{0.5, 0.25, 2.0}));
    EXPECT_EQ(read_doubles(vtkhdf.id, "Origin"), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(read_doubles(vtkhdf.id, "Direction"), (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    EXPECT_EQ(read_integers(vtkhdf.id, "Version"), (std::vector<long long>{1, 0}));
    EXPECT_EQ(read_string(vtkhdf.id, "Type"), "ImageData");
  }
}

TEST(WrittenAttributes, VtkhdfValuesAreShapedZYX) {
  H5Id file{H5Fopen(snapshot_path(0, "hdf").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  std::vector<hsize_t> dims;
  const std::vector<double> u = read_dataset(file.id, "/VTKHDF/PointData/u", dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{kNz, kNy, kNx}));
  EXPECT_EQ(u, initial_field()) << "step 0 is not the randn field of seed 11 in x-fastest order";
}

TEST(WrittenAttributes, RunGroupHoldsTheRunsSettings) {
  for (int step : kSnapshotSteps) {
    H5Id file{H5Fopen(snapshot_path(step, "hdf").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    ASSERT_GE(file.id, 0);
    H5Id run{H5Gopen2(file.id, "heatrk4", H5P_DEFAULT), H5Gclose};
    ASSERT_GE(run.id, 0);
    const auto integer = [&](const char* name) {
      const auto v = read_integers(run.id, name);
      return v.size() == 1 ? v[0] : -999;
    };
    const auto number = [&](const char* name) {
      const auto v = read_doubles(run.id, name);
      return v.size() == 1 ? v[0] : -999.0;
    };
    EXPECT_EQ(integer("step"), step);
    EXPECT_NEAR(number("time"), step * kDt, 1e-15) << "step " << step;
    EXPECT_EQ(integer("nx"), kNx);
    EXPECT_EQ(integer("ny"), kNy);
    EXPECT_EQ(integer("nz"), kNz);
    EXPECT_EQ(number("hx"), kHx);
    EXPECT_EQ(number("hy"), kHy);
    EXPECT_EQ(number("hz"), kHz);
    EXPECT_EQ(integer("order"), 2);
    EXPECT_EQ(number("alpha"), kAlpha);
    EXPECT_EQ(number("dt"), kDt);
    // 0.01 * 0.7 * (4 + 16 + 0.25) = 0.14175
    EXPECT_NEAR(number("cfl"), 0.14175, 1e-15);
    EXPECT_EQ(integer("total_steps"), 4);
    EXPECT_EQ(integer("seed"), 11);
    EXPECT_EQ(read_string(run.id, "precision"), "double");
    EXPECT_EQ(read_string(run.id, "backend"), "cpu");
    EXPECT_EQ(read_string(run.id, "init"), "randn");
  }
}

// The entries of a series file: (name, time) in the file's order.
std::vector<std::pair<std::string, double>> entries(const std::string& text, const std::string& pattern,
                                                    int name_group, int time_group) {
  std::vector<std::pair<std::string, double>> out;
  const std::regex entry(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it)
    out.emplace_back((*it)[name_group], std::stod((*it)[time_group]));
  return out;
}

void expect_series(const std::vector<std::pair<std::string, double>>& got, const char* extension) {
  ASSERT_EQ(got.size(), kSnapshotSteps.size()) << extension;
  for (std::size_t n = 0; n < got.size(); ++n) {
    char name[32];
    std::snprintf(name, sizeof name, "heat_%06d.%s", kSnapshotSteps[n], extension);
    EXPECT_EQ(got[n].first, name);
    EXPECT_NEAR(got[n].second, kSnapshotSteps[n] * kDt, 1e-15) << name;
  }
}

TEST(WrittenAttributes, HdfSeriesEntries) {
  const std::string text = test::read_text(run_directory() + "/heat.hdf.series");
  EXPECT_NE(text.find("\"file-series-version\": \"1.0\""), std::string::npos) << text;
  expect_series(entries(text, "\\{\"name\": \"([^\"]+)\", \"time\": ([-+0-9.eE]+)\\}", 1, 2), "hdf");
}

#ifdef HEAT_HAVE_VTK
TEST(WrittenAttributes, PvdEntries) {
  const std::string text = test::read_text(run_directory() + "/heat.pvd");
  EXPECT_NE(text.find("type=\"Collection\""), std::string::npos) << text;
  expect_series(entries(text, "<DataSet timestep=\"([-+0-9.eE]+)\"[^>]* file=\"([^\"]+)\"", 2, 1), "vti");
}

TEST(WrittenAttributes, VtiThroughVtksReader) {
  for (int step : kSnapshotSteps) {
    vtkNew<vtkXMLImageDataReader> reader;
    reader->SetFileName(snapshot_path(step, "vti").c_str());
    reader->Update();
    vtkImageData* image = reader->GetOutput();
    ASSERT_NE(image, nullptr);
    double spacing[3], origin[3];
    int extent[6];
    image->GetSpacing(spacing);
    image->GetOrigin(origin);
    image->GetExtent(extent);
    EXPECT_EQ(std::vector<double>(spacing, spacing + 3), (std::vector<double>{0.5, 0.25, 2.0})) << step;
    EXPECT_EQ(std::vector<double>(origin, origin + 3), (std::vector<double>{0, 0, 0})) << step;
    EXPECT_EQ(std::vector<int>(extent, extent + 6), (std::vector<int>{0, 12, 0, 8, 0, 6})) << step;
    vtkDataArray* values = image->GetPointData()->GetArray("u");
    ASSERT_NE(values, nullptr);
    ASSERT_EQ(values->GetNumberOfTuples(), kNx * kNy * kNz);
    std::vector<double> u(std::size_t(values->GetNumberOfTuples()));
    for (vtkIdType n = 0; n < values->GetNumberOfTuples(); ++n) u[std::size_t(n)] = values->GetTuple1(n);
    // The same values as the .hdf of the same step, and at step 0 the initial field.
    H5Id file{H5Fopen(snapshot_path(step, "hdf").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    std::vector<hsize_t> dims;
    EXPECT_EQ(u, read_dataset(file.id, "/VTKHDF/PointData/u", dims)) << "step " << step;
    if (step == 0) EXPECT_EQ(u, initial_field());
    vtkDataArray* time = image->GetFieldData()->GetArray("TimeValue");
    ASSERT_NE(time, nullptr);
    EXPECT_NEAR(time->GetTuple1(0), step * kDt, 1e-15);
    vtkDataArray* step_value = image->GetFieldData()->GetArray("step");
    ASSERT_NE(step_value, nullptr);
    EXPECT_EQ(step_value->GetTuple1(0), step);
  }
}
#else
TEST(WrittenAttributes, PvdEntries) { GTEST_SKIP() << "this build has no VTK"; }
TEST(WrittenAttributes, VtiThroughVtksReader) { GTEST_SKIP() << "this build has no VTK"; }
#endif

}  // namespace
// --seed takes 0 to 2^64-1: the largest is stored and reported as given, not wrapped to -1.
TEST(WrittenAttributes, TheLargestSeedIsStoredAndReportedUnwrapped) {
  const std::string out = test::temp_directory("seed") + "/run";
  const auto r = test::run_heatrk4({"--n", "8", "--order", "2", "--steps", "1", "--init", "randn", "--seed",
                                    "18446744073709551615", "--backend", "cpu", "--quiet", "--output", out, "--json",
                                    out + "/../run.json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = test::read_text(out + "/../run.json");
  EXPECT_NE(json.find("\"seed\": 18446744073709551615"), std::string::npos) << json;
  H5Id file{H5Fopen((out + "/heat_000001.hdf").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  ASSERT_GE(file.id, 0);
  H5Id seed{H5Aopen_by_name(file.id, "heatrk4", "seed", H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
  ASSERT_GE(seed.id, 0);
  unsigned long long stored = 0;
  ASSERT_GE(H5Aread(seed.id, H5T_NATIVE_ULLONG, &stored), 0);
  EXPECT_EQ(stored, 18446744073709551615ull);
}

}  // namespace heat
#endif
