// Material fields through the heatrk4 binary (docs/design.md §1 "Materials", §3): every bad field,
// label or table is exit 2 naming it before any work, the fields run by file and by region, and a
// restart carries them on with the checksum of what they gave.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "io/input_file.hpp"
#include "io/snapshots.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

#ifdef HEAT_HAVE_HDF5
constexpr int kPoints = 12;

void expect_refused(const test::CommandResult& r, const std::string& text) {
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

// A small double run on the 12^3 unit cube at order 4 that writes nothing (`output`: into there).
std::vector<std::string> material_run(std::vector<std::string> extra, const std::string& steps = "3",
                                      const std::string& output = "") {
  std::vector<std::string> args = {"--quiet", "--precision", "double",    "--steps", steps, "--n", "12", "--order",
                                   "4",       "--bc",        "insulated", "--format"};
  if (output.empty()) args.push_back("none");
  else args.insert(args.end(), {"hdf5", "--output", output});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// A heatrk4 snapshot of `values` on the 12^3 unit cube: a file with the point array "u".
std::string array_file(const std::string& dir, const Field<double>& values) {
  OutputSpec spec;
  spec.directory = dir;
  RunDescription run;
  run.problem.grid = {values.nx(), values.ny(), values.nz(), 1.0 / 11, 1.0 / 11, 1.0 / 11};
  run.cfl = 0.05;
  run.problem.dt = dt_from_cfl(run.problem.grid, run.problem.alpha, run.cfl);
  run.precision = "double";
  run.formats = "hdf5";
  SnapshotWriter(spec, run).write(values, 0, 0.0);
  return dir + "/heat_000000.hdf";
}

std::string text_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// Labels 1 and 2, a block of 2 in a field of 1.
Field<double> two_labels() {
  Field<double> labels(kPoints, kPoints, kPoints, 1.0);
  for (int k = 4; k < 8; ++k)
    for (int j = 4; j < 8; ++j)
      for (int i = 3; i < 9; ++i) labels(i, j, k) = 2;
  return labels;
}

const char* const kTable = R"([materials.epoxy]
conductivity = 0.2
heat_capacity = 1.6e6
label = 1

[materials.copper]
conductivity = 400
heat_capacity = 3.45e6
label = 2
)";

TEST(MaterialOptions, BadFieldsAreRefusedNamingTheFirstBadPoint) {
  const std::string dir = test::temp_directory("material_refusals");
  Field<double> k = randn_field<double>(Grid{kPoints, kPoints, kPoints}, 3);
  for (double& v : k.values()) v = 2 + 0.5 * v * v;
  const std::string good = array_file(dir + "/good", k);
  for (const auto& [value, name] : {std::pair{0.0, "0"}, {-1.0, "-1"}, {NAN, "nan"}, {INFINITY, "inf"}}) {
    Field<double> bad = k;
    bad(5, 6, 7) = value;
    bad(8, 9, 10) = value;
    const std::string file = array_file(dir + "/bad_" + std::string(name), bad);
    expect_refused(run_heatrk4(material_run({"--conductivity-file", file, "--conductivity-array", "u"})),
                   "array u holds " + std::string(name) + " at (5,6,7): a conductivity or heat capacity must be "
                   "a positive number at every point");
    expect_refused(run_heatrk4(material_run({"--heat-capacity-file", file, "--heat-capacity-array", "u"})),
                   "--heat-capacity-file");
  }
  expect_refused(run_heatrk4(material_run({"--conductivity-file", good})), "has no point array 'conductivity'");
  expect_refused(run_heatrk4(material_run({"--nx", "13", "--conductivity-file", good, "--conductivity-array", "u"})),
                 "is on another grid (12 x 12 x 12 points");
  expect_refused(run_heatrk4(material_run({"--alpha", "2", "--conductivity-file", good, "--conductivity-array", "u"})),
                 "--alpha and --conductivity-file");
  // Six times the largest stable cfl of the constant stencil is unstable whatever the fields.
  expect_refused(run_heatrk4(material_run({"--cfl", "3", "--conductivity-file", good, "--conductivity-array", "u"})),
                 "is unstable with the material fields of --conductivity-file");
}

TEST(MaterialOptions, BadLabelsAndTablesAreRefused) {
  const std::string dir = test::temp_directory("material_table_refusals");
  const std::string labels = array_file(dir + "/labels", two_labels()) + ":u";
  const std::string table = text_file(dir + "/parts.toml", kTable);
  Field<double> stray = two_labels();
  stray(2, 3, 4) = 7;
  const std::string stray_labels = array_file(dir + "/stray", stray) + ":u";
  expect_refused(run_heatrk4(material_run({"--materials", table, "--material-labels", stray_labels})),
                 "label 7 at (2,3,4) has no material in --materials");
  expect_refused(run_heatrk4(material_run({"--materials", table})), "needs --material-labels F.hdf:ARRAY");
  expect_refused(run_heatrk4(material_run({"--material-labels", labels})), "needs --materials F.toml");
  expect_refused(run_heatrk4(material_run({"--materials", table, "--material-labels", labels, "--conductivity-file",
                                           labels.substr(0, labels.size() - 2)})),
                 "by region or K and C by file, not both");
  const std::pair<const char*, const char*> tables[] = {
      {"[materials.a]\nconductivity = 1\nlabel = 1\n", "[materials.a] has no heat_capacity"},
      {"[materials.a]\nconductivity = -1\nheat_capacity = 1\nlabel = 1\n", "conductivity = -1: must be a positive"},
      {"[materials.a]\nconductivity = 1\nheat_capacity = 1\nlabel = 1.5\n", "label must be an integer"},
      {"[materials.a]\nconductivity = 1\nheat_capacity = 1\nlabel = 1\ncolour = 3\n", "unknown key 'colour'"},
      {"[materials.a]\nconductivity = 1\nheat_capacity = 1\nlabel = 1\n[materials.b]\nconductivity = 2\n"
       "heat_capacity = 1\nlabel = 1\n",
       "has label 1, as [materials.a] has"},
      {"alpha = 3\n", "the file holds [materials.NAME] tables alone"},
  };
  for (const auto& [text, message] : tables)
    expect_refused(
        run_heatrk4(material_run({"--materials", text_file(dir + "/bad.toml", text), "--material-labels", labels})),
        message);
}

TEST(MaterialOptions, RegionsRunAndARestartCarriesThemOnOrRefusesAChangedFile) {
  const std::string dir = test::temp_directory("material_restart");
  const std::string labels = array_file(dir + "/labels", two_labels()) + ":u";
  const std::string table = text_file(dir + "/parts.toml", kTable);
  const std::vector<std::string> regions = {"--materials", table, "--material-labels", labels, "--cfl", "0.2"};
  const auto first = run_heatrk4(material_run(regions, "4", dir + "/whole"));
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto second = run_heatrk4(material_run(regions, "2", dir + "/first"));
  ASSERT_EQ(second.exit_code, 0) << second.output;
  const auto resumed = run_heatrk4({"--restart", dir + "/first/heat_000002.hdf", "--steps", "2", "--quiet"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  // Two steps and two more are the four steps of one run, bit for bit.
  const auto same = run_heatrk4({"compare", dir + "/whole/heat_000004.hdf", dir + "/first/heat_000004.hdf", "--rtol",
                                 "0", "--atol", "0"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
  // The restart wrote its materials again, the same fields.
  EXPECT_EQ(read_point_array(dir + "/first/materials.hdf", "conductivity").values.values(),
            read_point_array(dir + "/whole/materials.hdf", "conductivity").values.values());
  text_file(dir + "/parts.toml", std::string(kTable).replace(std::string(kTable).find("400"), 3, "390"));
  expect_refused(run_heatrk4({"--restart", dir + "/first/heat_000002.hdf", "--steps", "2", "--quiet"}),
                 "the fields it gives have changed since that run (checksum fnv1a64:");
}
// The summary's faces line gives each field's range and the option that gave it, not the constant
// K and C; the rate line's byte model is the material path's.
TEST(MaterialOptions, TheSummarySaysTheFieldsRangesAndTheirOption) {
  const std::string dir = test::temp_directory("material_summary");
  const std::string labels = array_file(dir + "/labels", two_labels()) + ":u";
  const std::string table = text_file(dir + "/parts.toml", kTable);
  std::vector<std::string> args =
      material_run({"--materials", table, "--material-labels", labels, "--cfl", "0.2", "--heat-capacity", "7"});
  args.erase(args.begin());  // --quiet
  const auto run = run_heatrk4(args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("faces     K 0.2 to 400 (--materials " + table + "), C 1.6e+06 to 3.45e+06 (--materials "),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("C 7"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("B/point/step, the material path's"), std::string::npos) << run.output;

  const std::string k_file = array_file(dir + "/k", Field<double>(kPoints, kPoints, kPoints, 3.0));
  args = material_run({"--conductivity-file", k_file, "--conductivity-array", "u", "--heat-capacity", "7"});
  args.erase(args.begin());
  const auto constant_c = run_heatrk4(args);
  ASSERT_EQ(constant_c.exit_code, 0) << constant_c.output;
  EXPECT_NE(constant_c.output.find("faces     K 3 to 3 (--conductivity-file " + k_file + "), C 7;"), std::string::npos)
      << constant_c.output;
}

// auto steps material fields where it steps constant ones: on tiled where there is a GPU, else on cpu.
TEST(MaterialOptions, AutoStepsThemOnTiledWhereThereIsAGpu) {
  const std::string dir = test::temp_directory("material_auto");
  const std::string labels = array_file(dir + "/labels", two_labels()) + ":u";
  const std::string table = text_file(dir + "/parts.toml", kTable);
  const std::string json = dir + "/run.json";
  const auto run = run_heatrk4(
      material_run({"--materials", table, "--material-labels", labels, "--cfl", "0.2", "--json", json}));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string chosen = gpu_count() > 0 ? "tiled" : "cpu";
  EXPECT_NE(test::read_text(json).find("\"backend\": \"" + chosen + "\""), std::string::npos) << test::read_text(json);
}

// The fields beside the series, once: materials.hdf's point arrays conductivity and heat_capacity
// hold each label's K and C, as ParaView shows them beside u. It is one of the run's files: a run
// that replaces the directory sets it aside, and a directory holding it alone is another run's.
TEST(MaterialOptions, TheSeriesHasItsMaterialsBesideItOnce) {
  const std::string dir = test::temp_directory("material_file");
  const std::string labels = array_file(dir + "/labels", two_labels()) + ":u";
  const std::string table = text_file(dir + "/parts.toml", kTable);
  const std::string out = dir + "/out";
  const auto run = run_heatrk4(material_run({"--materials", table, "--material-labels", labels, "--cfl", "0.2",
                                             "--output-every", "1"},
                                            "3", out));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const Field<double> placed = two_labels();
  const PointArray k = read_point_array(out + "/materials.hdf", "conductivity");
  const PointArray c = read_point_array(out + "/materials.hdf", "heat_capacity");
  EXPECT_FALSE(k.stored_as_float);
  const int r = 2;  // order 4: the body's points, whose K and C no face's ghosts replace
  for (int z = r; z < kPoints - r; ++z)
    for (int y = r; y < kPoints - r; ++y)
      for (int x = r; x < kPoints - r; ++x) {
        const bool copper = placed(x, y, z) == 2;
        ASSERT_EQ(k.values(x, y, z), copper ? 400 : 0.2) << x << "," << y << "," << z;
        ASSERT_EQ(c.values(x, y, z), copper ? 3.45e6 : 1.6e6) << x << "," << y << "," << z;
      }
  EXPECT_THROW(read_point_array(out + "/heat_000002.hdf", "conductivity"), InputError) << "a snapshot carries K";

  const auto plain = run_heatrk4({"--quiet", "--n", "12", "--steps", "1", "--output", out, "--overwrite"});
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_FALSE(std::filesystem::exists(out + "/materials.hdf")) << "another run's materials stayed";

  const std::string alone = dir + "/alone";
  std::filesystem::create_directories(alone);
  std::filesystem::copy_file(dir + "/labels/heat_000000.hdf", alone + "/materials.hdf");
  expect_refused(run_heatrk4({"--quiet", "--n", "12", "--steps", "1", "--output", alone}),
                 "holds another run's files (materials.hdf)");
}
#endif

}  // namespace
}  // namespace heat
