// Heat sources, monitors and material fields on cpu ranks under mpirun (docs/design.md §7, "Sources
// on ranks", "Monitors on ranks" and "Materials on ranks"): the same run on 1, 2 and 3 ranks writes
// bitwise the same snapshots with a source (its step increment computed once over the whole grid,
// each rank stepping its planes of it), a shortened last step (--t-end) included, and with random
// piecewise K and C (each rank's planes of them), and byte for byte the same monitors.csv: probes
// spread along z across the ranks' boundaries (one in a wrapped period's last cell), the extremes,
// the mean, the total heat and each face's heat.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "material_files.hpp"
#include "mpirun_support.hpp"

namespace heat {
namespace {

using test::run_on;

constexpr double kSpacing = 0.1;
constexpr double kDt = 2e-4;  // alpha dt / h^2 = 0.015: stable at every order

// Faces with a temperature face on z (the rank that holds it measures its heat, reading the planes
// inward of it), and periodic z wrapping the ranks beside flux, convective and temperature faces.
const std::vector<std::vector<std::string>> kFaceSets = {
    {"--bc-z-low", "temperature:0.75", "--bc-z-high", "convective:3,-0.5", "--bc-x-low", "flux:2", "--bc-x-high",
     "insulated", "--bc-y-low", "periodic", "--bc-y-high", "periodic"},
    {"--bc-z-low", "periodic", "--bc-z-high", "periodic", "--bc-x-low", "temperature:0.25", "--bc-x-high",
     "convective:2,0.5", "--bc-y-low", "flux:-1.5", "--bc-y-high", "insulated"},
};

struct Grid3 {
  int nx, ny, nz;
};

// An odd grid with planes for 3 ranks of r ghost planes and a few over.
Grid3 grid_of(int order) {
  const int r = order / 2;
  return {3 * r + 2, 3 * r + 3, (5 * r + 3) | 1};
}

std::string number(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// A Gaussian source inside the body and a uniform one, spacing kSpacing.
std::vector<std::string> source_args(int order) {
  const int r = order / 2;
  const Grid3 g = grid_of(order);
  const double centre_z = (r + 0.4 * (g.nz - 1 - 2 * r)) * kSpacing;
  return {"--source",
          "gaussian:" + number((g.nx - 1) * kSpacing / 2) + "," + number((g.ny - 1) * kSpacing / 2) + "," +
              number(centre_z) + "," + number(2 * kSpacing) + ",3",
          "--source", "uniform:0.5"};
}

// Probes at odd fractions of a cell, spread along z from the low face point to the high one's
// cell (on a periodic z, the wrapped cell from the last interior point to the low face point's
// image).
std::vector<std::string> probe_args(int order) {
  const int r = order / 2;
  const Grid3 g = grid_of(order);
  std::vector<std::string> args;
  const int interior = g.nz - 1 - 2 * r;
  for (int k = 0; k < 5; ++k) {
    const double z = (r + 0.37 + k * (interior - 0.37) / 4.6) * kSpacing;
    args.insert(args.end(), {"--probe", number((r + 0.3) * kSpacing) + "," + number((r + 1.7) * kSpacing) + "," +
                                            number(z)});
  }
  return args;
}

// `step`: how dt is set.
std::vector<std::string> run_args(const std::string& backend, int order, const std::string& precision,
                                  const std::vector<std::string>& faces, const std::string& output,
                                  const std::vector<std::string>& step = {"--dt", number(kDt)}) {
  const Grid3 g = grid_of(order);
  std::vector<std::string> args = {"--backend", backend, "--order", std::to_string(order), "--precision", precision,
                                   "--nx", std::to_string(g.nx), "--ny", std::to_string(g.ny), "--nz",
                                   std::to_string(g.nz), "--h", number(kSpacing), "--conductivity", "1.5",
                                   "--heat-capacity", "2", "--init", "randn", "--output", output, "--quiet"};
  args.insert(args.end(), step.begin(), step.end());
  args.insert(args.end(), faces.begin(), faces.end());
  return args;
}

// `args_of(output)` on 1, 2 and 3 ranks: `check(one, out, label)` compares each run's output
// directory with the one-rank run's.
template <typename ArgsOf, typename Check>
void expect_same_on_1_2_and_3_ranks(const ArgsOf& args_of, const std::string& label, const Check& check) {
  std::string one;
  for (int ranks : {1, 2, 3}) {
    const std::string out = test::temp_directory("src-mon-ranks" + std::to_string(ranks));
    const auto result = run_on(ranks, args_of(out));
    ASSERT_EQ(result.exit_code, 0) << label << " on " << ranks << " ranks:\n" << result.output;
    if (ranks == 1) one = out;
    else check(one, out, label + " on " + std::to_string(ranks) + " ranks");
  }
}

void expect_same_snapshots(const std::string& one, const std::string& out, const std::string& label) {
  test::expect_same_snapshots(one, out, label);
}

void expect_same_monitors(const std::string& one, const std::string& out, const std::string& label) {
  const std::string expected = test::read_text(one + "/monitors.csv");
  EXPECT_GT(expected.size(), 0u) << label;
  EXPECT_EQ(test::read_text(out + "/monitors.csv"), expected) << label;
}

// Sources with each face set, cpu and cpu_reference, float and double, orders 2 and 8: 20 steps and
// a last one shortened to land on --t-end.
TEST(MpirunSources, BitwiseEqualOn1To3Ranks) {
  for (const char* backend : {"cpu", "cpu_reference"})
    for (const char* precision : {"float", "double"})
      for (int order : {2, 8})
        for (std::size_t set = 0; set < kFaceSets.size(); ++set) {
          const std::string label = std::string(backend) + " " + precision + " order " + std::to_string(order) +
                                    " faces " + std::to_string(set);
          expect_same_on_1_2_and_3_ranks(
              [&](const std::string& out) {
                std::vector<std::string> args = run_args(backend, order, precision, kFaceSets[set], out);
                const std::vector<std::string> sources = source_args(order);
                args.insert(args.end(), sources.begin(), sources.end());
                args.insert(args.end(), {"--steps", "20", "--output-every", "10"});
                return args;
              },
              label, expect_same_snapshots);
        }
}

// --t-end past a whole number of steps: the last step is shortened, and takes the increment set-up
// computed for it over the whole grid.
TEST(MpirunSources, ShortenedLastStepBitwiseEqualOn1To3Ranks) {
  for (const char* backend : {"cpu", "cpu_reference"})
    for (std::size_t set = 0; set < kFaceSets.size(); ++set) {
      const std::string label = std::string(backend) + " faces " + std::to_string(set) + " to --t-end";
      expect_same_on_1_2_and_3_ranks(
          [&](const std::string& out) {
            std::vector<std::string> args = run_args(backend, 4, "double", kFaceSets[set], out);
            const std::vector<std::string> sources = source_args(4);
            args.insert(args.end(), sources.begin(), sources.end());
            args.insert(args.end(), {"--t-end", number(7.5 * kDt),
                                     "--output-every", "3", "--probe",
                                     number(2.5 * kSpacing) + "," + number(2.5 * kSpacing) + "," +
                                         number(5.5 * kSpacing)});
            return args;
          },
          label, [](const std::string& one, const std::string& out, const std::string& l) {
            expect_same_snapshots(one, out, l);
            expect_same_monitors(one, out, l);
          });
    }
}

// The monitors' CSV of each face set, with a source, probes across the ranks' boundaries, every
// 3 steps and the last, and no snapshots (a run without a writer measures on every rank too).
TEST(MpirunMonitors, CsvByteForByteEqualOn1To3Ranks) {
  for (const char* backend : {"cpu", "cpu_reference"})
    for (int order : {2, 8})
      for (std::size_t set = 0; set < kFaceSets.size(); ++set) {
        const std::string precision = order == 2 ? "float" : "double";
        const std::string label = std::string(backend) + " " + precision + " order " + std::to_string(order) +
                                  " faces " + std::to_string(set);
        expect_same_on_1_2_and_3_ranks(
            [&](const std::string& out) {
              std::vector<std::string> args = run_args(backend, order, precision, kFaceSets[set], out);
              const std::vector<std::string> sources = source_args(order), probes = probe_args(order);
              args.insert(args.end(), sources.begin(), sources.end());
              args.insert(args.end(), probes.begin(), probes.end());
              args.insert(args.end(), {"--steps", "10", "--monitor-every", "3", "--format", "none"});
              return args;
            },
            label, expect_same_monitors);
      }
}

// Layer faces (the default): the ghost planes are stale between steps, so a probe beside a rank's
// last plane must not read them; probes in the layer's planes too.
TEST(MpirunMonitors, LayerFacesCsvByteForByteEqualOn1To3Ranks) {
  const Grid3 g = grid_of(2);
  std::vector<std::string> probes;
  for (int k = 0; k < g.nz - 1; ++k)
    probes.insert(probes.end(), {"--probe", number(0.5 * kSpacing) + "," + number(1.25 * kSpacing) + "," +
                                                number((k + 0.6) * kSpacing)});
  expect_same_on_1_2_and_3_ranks(
      [&](const std::string& out) {
        std::vector<std::string> args = run_args("cpu", 2, "double", {}, out);
        args.insert(args.end(), probes.begin(), probes.end());
        args.insert(args.end(), {"--steps", "6", "--monitor-every", "2", "--output-every", "3"});
        return args;
      },
      "layer faces", [](const std::string& one, const std::string& out, const std::string& label) {
        expect_same_snapshots(one, out, label);
        expect_same_monitors(one, out, label);
      });
}

// grid_of(order) with spacing kSpacing, the grid of the material files.
Grid material_grid(int order) {
  const Grid3 g = grid_of(order);
  return {g.nx, g.ny, g.nz, kSpacing, kSpacing, kSpacing};
}

// Random piecewise K (over 1.5 decades) and C (over one) split over the ranks as the field is,
// with each face set and layer faces everywhere (whose ranks exchange without a fill), a source,
// probes across the ranks' boundaries: the same snapshots and monitors.csv on 1, 2 and 3 ranks.
TEST(MpirunMaterials, RandomPiecewiseFieldsBitwiseEqualOn1To3Ranks) {
  std::vector<std::vector<std::string>> face_sets = kFaceSets;
  face_sets.push_back({});
  for (int order : {2, 8}) {
    const std::string files = test::temp_directory("materials-order" + std::to_string(order));
    const Grid g = material_grid(order);
    const std::string conductivity = test::array_file(files + "/k", g, test::random_blocks(g, 0.5, 16, 7));
    const std::string heat_capacity = test::array_file(files + "/c", g, test::random_blocks(g, 1, 10, 8));
    for (const char* backend : {"cpu", "cpu_reference"})
      for (std::size_t set = 0; set < face_sets.size(); ++set) {
        const std::string precision = order == 2 ? "float" : "double";
        const std::string label = std::string(backend) + " " + precision + " order " + std::to_string(order) +
                                  " faces " + std::to_string(set) + " with material fields";
        expect_same_on_1_2_and_3_ranks(
            [&](const std::string& out) {
              std::vector<std::string> args =
                  run_args(backend, order, precision, face_sets[set], out, {"--cfl", "0.15"});
              const std::vector<std::string> sources = source_args(order), probes = probe_args(order);
              args.insert(args.end(), sources.begin(), sources.end());
              args.insert(args.end(), probes.begin(), probes.end());
              args.insert(args.end(), {"--conductivity-file", conductivity, "--conductivity-array", "u",
                                       "--heat-capacity-file", heat_capacity, "--heat-capacity-array", "u", "--steps",
                                       "12", "--output-every", "6", "--monitor-every", "4"});
              return args;
            },
            label, [](const std::string& one, const std::string& out, const std::string& l) {
              EXPECT_TRUE(std::filesystem::exists(out + "/materials.hdf")) << l;
              expect_same_snapshots(one, out, l);
              expect_same_monitors(one, out, l);
            });
      }
  }
}

// Bad material fields are exit 2 on ranks too, before any work: every rank reads the whole grid's.
TEST(MpirunMaterials, AZeroConductivityIsRefusedOnRanks) {
  const std::string files = test::temp_directory("materials-bad");
  Field<double> conductivity = test::random_blocks(material_grid(2), 0.5, 16, 9);
  conductivity(3, 2, 7) = 0;
  const std::string bad = test::array_file(files + "/k", material_grid(2), conductivity);
  const std::string out = files + "/out";
  std::vector<std::string> args = run_args("cpu", 2, "double", {}, out, {"--cfl", "0.15"});
  args.insert(args.end(), {"--conductivity-file", bad, "--conductivity-array", "u", "--steps", "2"});
  const auto refused = run_on(2, args);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("at (3,2,7)"), std::string::npos) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(out)) << "a refused run wrote its output";
}

}  // namespace
}  // namespace heat
