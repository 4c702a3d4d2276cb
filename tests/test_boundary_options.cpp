// The boundary-condition and material options through the heatrk4 binary (docs/design.md §3):
// every bad value is exit 2 naming it before any work, every backend fills them (the CUDA ones where
// there is a GPU), --bc and a face's option combine, TOML gives the same run, and a restart carries
// the conditions on.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

// A small double run, 14 points an axis (3r + 1 = 13 at order 8), that writes nothing unless
// asked; `extra` may give any of these itself.
std::vector<std::string> bc_run(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--quiet", "--precision", "double"};
  const auto unless_given = [&](const char* option, const char* value) {
    if (std::find(extra.begin(), extra.end(), option) == extra.end()) args.insert(args.end(), {option, value});
  };
  unless_given("--steps", "2");
  unless_given("--format", "none");
  if (std::find(extra.begin(), extra.end(), "--nx") == extra.end()) args.insert(args.end(), {"--n", "14"});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

struct Refusal {
  std::vector<std::string> args;
  std::string message;
};

class BoundaryRefused : public ::testing::TestWithParam<Refusal> {};

TEST_P(BoundaryRefused, ExitsTwoNamingTheValue) {
  const auto r = run_heatrk4(bc_run(GetParam().args));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(GetParam().message), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Options, BoundaryRefused,
    ::testing::Values(
        Refusal{{"--bc", "adiabatic"}, "--bc adiabatic is not a boundary condition: give layer, temperature:T"},
        Refusal{{"--bc-x-low", "temperature:nan"}, "--bc-x-low temperature:nan: nan is not a finite number"},
        Refusal{{"--bc-y-high", "temperature"}, "--bc-y-high temperature: (nothing) is not a finite number"},
        Refusal{{"--bc-z-low", "convective:-1,20"}, "the heat transfer coefficient H -1 must be 0 or more"},
        Refusal{{"--bc-z-low", "convective:5"}, "--bc-z-low convective:5 has 1 numbers: the form is convective:H,T_INF"},
        Refusal{{"--bc-x-high", "insulated:3"}, "--bc-x-high insulated:3: insulated takes no value"},
        Refusal{{"--bc-x-low", "periodic"}, "--bc-x-low periodic needs --bc-x-high periodic too (it is layer)"},
        Refusal{{"--bc", "periodic", "--bc-z-high", "insulated"}, "--bc-z-low periodic needs --bc-z-high periodic"},
        Refusal{{"--bc", "insulated", "--nx", "12", "--ny", "14", "--nz", "14"}, "nx 12 is too small for insulated at order 8: a reflected face "
                                                      "needs at least 3r+1 = 13 points"},
        Refusal{{"--conductivity", "-2"}, "--conductivity -2 must be a positive number"},
        Refusal{{"--heat-capacity", "0"}, "--heat-capacity 0 must be a positive number"},
        Refusal{{"--alpha", "1", "--conductivity", "2", "--heat-capacity", "3"},
                "--alpha, --conductivity and --heat-capacity all given"},
        Refusal{{"--bc-x-low", "radiation:1.5,300"}, "--bc-x-low radiation:1.5,300: the emissivity EPS 1.5 must lie in [0, 1]"},
        Refusal{{"--bc-x-low", "radiation:-0.5,300"}, "the emissivity EPS -0.5 must lie in [0, 1]"},
        Refusal{{"--bc-y-low", "radiation:0.5,-10"}, "--bc-y-low radiation:0.5,-10: the surroundings' temperature T_INF -10 "
                                                     "must be 0 or more"},
        Refusal{{"--bc-y-low", "radiation:0.5,inf"}, "--bc-y-low radiation:0.5,inf: inf is not a finite number"},
        Refusal{{"--bc-z-high", "radiation:0.5"}, "has 1 numbers: the form is radiation:EPS,T_INF"},
        Refusal{{"--bc", "radiation:0.5,300", "--source", "uniform:5"},
                "--source uniform:5 cannot run beside --bc-x-low radiation:0.5,300"},
        // h_rad = 4 sigma 2000^3 = 1814 W/m^2/K, a cell Biot number of 139.6 at h = 1/13 and K = 1:
        // order 2's face row bound 4 + 2 Bi.
        Refusal{{"--bc", "radiation:1,300", "--init", "uniform:2000", "--order", "2"},
                "is unstable with --bc-x-low radiation:1,300 (Biot number h_rad*h/K = 139.57"}));

// Every CUDA backend steps radiation faces (in the stage form, backends/cuda/stage_form.hpp) and
// auto takes tiled where there is a GPU: a run with radiation beside the other kinds passes
// --check, against the cpu backend in double, from 350 K.
TEST(BoundaryOptions, CudaBackendsStepRadiationAndAutoTakesTiled) {
  HEAT_REQUIRE_GPU();
  const std::string json = test::temp_directory("bc_radiation_cuda") + "/run.json";
  for (const char* backend : {"naive", "reuse", "tiled", "auto"}) {
    const auto r = run_heatrk4(bc_run({"--bc", "insulated", "--bc-y-high", "radiation:0.3,300", "--bc-x-low",
                                       "radiation:0.5,400", "--bc-z-low", "temperature:330", "--init",
                                       "uniform:350", "--check", "--backend", backend, "--json", json}));
    EXPECT_EQ(r.exit_code, 0) << backend << ":\n" << r.output;
    const std::string ran = backend == std::string("auto") ? "tiled" : backend;
    EXPECT_NE(test::read_text(json).find("\"backend\": \"" + ran + "\""), std::string::npos) << test::read_text(json);
  }
}

// Runs `conditions` for bc_run's 2 steps into dir/parts, restarts from its last snapshot for 2
// more, and expects step 4 bitwise the whole run's in dir/whole.
void expect_restart_goes_on_as_the_whole_run(const std::string& dir, const std::vector<std::string>& conditions) {
  auto half = conditions;
  half.insert(half.end(), {"--format", "hdf5", "--output", dir + "/parts"});
  ASSERT_EQ(run_heatrk4(bc_run(half)).exit_code, 0);
  const auto restarted = run_heatrk4({"--restart", dir + "/parts/heat_000002.hdf", "--steps", "2", "--quiet"});
  ASSERT_EQ(restarted.exit_code, 0) << restarted.output;
  EXPECT_EQ(run_heatrk4({"compare", dir + "/whole/heat_000004.hdf", dir + "/parts/heat_000004.hdf", "--rtol", "0",
                         "--atol", "0"})
                .exit_code,
            0);
}

// Radiation faces from TOML are the command line's run, --check holds cpu to the reference, a
// restart goes on with them (2 + 2 steps are 4), and a restart from a file hot enough to make a
// face unstable is refused once its values are read.
TEST(BoundaryOptions, RadiationFromTomlAndRestartIsTheSameRun) {
  const std::string dir = test::temp_directory("bc_radiation");
  const std::vector<std::string> conditions = {"--bc", "insulated", "--bc-x-low", "radiation:0.8,300", "--bc-z-high",
                                               "radiation:0.3,500", "--conductivity", "2", "--init", "uniform:400"};
  auto whole = conditions;
  whole.insert(whole.end(), {"--steps", "4", "--format", "hdf5", "--output", dir + "/whole", "--check"});
  const auto ran = run_heatrk4(bc_run(whole));
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const std::string config = dir + "/bc.toml";
  std::ofstream(config) << "bc = \"insulated\"\nbc-x-low = \"radiation:0.8,300\"\nbc-z-high = \"radiation:0.3,500\"\n"
                           "conductivity = 2\ninit = \"uniform:400\"\n";
  const auto toml = run_heatrk4(bc_run({"--config", config, "--steps", "4", "--format", "hdf5", "--output", dir + "/toml"}));
  ASSERT_EQ(toml.exit_code, 0) << toml.output;
  EXPECT_EQ(run_heatrk4({"compare", dir + "/whole/heat_000004.hdf", dir + "/toml/heat_000004.hdf", "--rtol", "0",
                         "--atol", "0"})
                .exit_code,
            0);
  expect_restart_goes_on_as_the_whole_run(dir, conditions);
  // T_INF 0: the plan's bound is 0 K, the file's 2000 K (a cell Biot number of 140).
  const auto hot = run_heatrk4(bc_run({"--bc", "radiation:1,0", "--init", "uniform:2000", "--order", "2",
                                       "--allow-unstable", "--steps", "1", "--format", "hdf5", "--output", dir + "/hot"}));
  ASSERT_EQ(hot.exit_code, 0) << hot.output;
  const auto refused = run_heatrk4({"--restart", dir + "/hot/heat_000001.hdf", "--steps", "1", "--quiet"});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("is unstable with --bc-x-low radiation:1,0 (Biot number h_rad*h/K = "),
            std::string::npos)
      << refused.output;
}

// Every CUDA backend fills them, and auto takes tiled where there is a GPU (as for layer faces): a
// run with each kind of condition passes --check, against the cpu backend in double.
TEST(BoundaryOptions, EveryCudaBackendFillsThemAndAutoTakesTiled) {
  HEAT_REQUIRE_GPU();
  const std::string json = test::temp_directory("bc_cuda") + "/run.json";
  for (const char* backend : {"naive", "reuse", "tiled", "auto"}) {
    const auto r = run_heatrk4(bc_run({"--bc-x-low", "temperature:1", "--bc-x-high", "flux:2", "--bc-y-low",
                                       "convective:3,0.5", "--bc-y-high", "insulated", "--bc-z-low", "periodic",
                                       "--bc-z-high", "periodic", "--init", "randn", "--check", "--backend", backend,
                                       "--json", json}));
    EXPECT_EQ(r.exit_code, 0) << backend << ":\n" << r.output;
    const std::string ran = backend == std::string("auto") ? "tiled" : backend;
    EXPECT_NE(test::read_text(json).find("\"backend\": \"" + ran + "\""), std::string::npos) << test::read_text(json);
  }
}

TEST(BoundaryOptions, LayerEverywhereIsTheDefaultBitForBit) {
  const std::string dir = test::temp_directory("bc_layer");
  ASSERT_EQ(run_heatrk4({"--n", "14", "--steps", "3", "--quiet", "--output", dir + "/plain"}).exit_code, 0);
  ASSERT_EQ(run_heatrk4({"--n", "14", "--steps", "3", "--quiet", "--bc", "layer", "--alpha", "1", "--output", dir + "/layer"})
                .exit_code,
            0);
  const std::string file = "/heat_000003.hdf";
  EXPECT_EQ(run_heatrk4({"compare", dir + "/plain" + file, dir + "/layer" + file, "--rtol", "0", "--atol", "0"}).exit_code, 0);
}

// --bc sets six faces, a face's option overrides it; the same in TOML; conductivity and heat
// capacity give alpha = K/C, and --check holds the run to the double reference.
TEST(BoundaryOptions, CommandLineAndTomlGiveTheSameRun) {
  const std::string dir = test::temp_directory("bc_toml");
  const std::vector<std::string> conditions = {"--bc", "insulated", "--bc-z-high", "temperature:1", "--bc-x-low",
                                               "convective:2,0.5", "--bc-y-low", "flux:3", "--conductivity", "2",
                                               "--heat-capacity", "4"};
  auto cli_args = conditions;
  cli_args.insert(cli_args.end(), {"--format", "hdf5", "--output", dir + "/cli", "--check"});
  cli_args = bc_run(cli_args);
  const auto cli = run_heatrk4(cli_args);
  ASSERT_EQ(cli.exit_code, 0) << cli.output;
  const std::string config = dir + "/bc.toml";
  std::ofstream(config) << "bc = \"insulated\"\nbc-z-high = \"temperature:1\"\nbc-x-low = \"convective:2,0.5\"\n"
                           "bc-y-low = \"flux:3\"\nconductivity = 2\nheat-capacity = 4\nalpha = 0.5\n";
  auto toml_args = bc_run({"--config", config, "--format", "hdf5", "--output", dir + "/toml"});
  // alpha with both K and C is refused, from the file too.
  const auto refused = run_heatrk4(toml_args);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  std::ofstream(config) << "bc = \"insulated\"\nbc-z-high = \"temperature:1\"\nbc-x-low = \"convective:2,0.5\"\n"
                           "bc-y-low = \"flux:3\"\nconductivity = 2\nheat-capacity = 4\n";
  const auto toml = run_heatrk4(toml_args);
  ASSERT_EQ(toml.exit_code, 0) << toml.output;
  const std::string file = "/heat_000002.hdf";
  EXPECT_EQ(run_heatrk4({"compare", dir + "/cli" + file, dir + "/toml" + file, "--rtol", "0", "--atol", "0"}).exit_code, 0);
  // And the conditions matter: all insulated is another field.
  const auto plain = run_heatrk4(bc_run({"--bc", "insulated", "--conductivity", "2", "--heat-capacity", "4",
                                         "--format", "hdf5", "--output", dir + "/plain"}));
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(run_heatrk4({"compare", dir + "/cli" + file, dir + "/plain" + file}).exit_code, 1);
}

// alpha = K/C: K and C give the run --alpha K/C and K give; C scales only the heat, K only the
// flux faces' gradient.
TEST(BoundaryOptions, ConductivityOverHeatCapacityIsAlpha) {
  const std::string dir = test::temp_directory("bc_material");
  const auto run = [&](const std::string& name, std::vector<std::string> material) {
    material.insert(material.end(), {"--bc", "insulated", "--bc-x-low", "flux:3", "--init", "randn", "--format", "hdf5",
                                     "--output", dir + "/" + name});
    const auto r = run_heatrk4(bc_run(material));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return dir + "/" + name + "/heat_000002.hdf";
  };
  const std::string k_and_c = run("k_and_c", {"--conductivity", "2", "--heat-capacity", "4"});
  const std::string alpha_and_k = run("alpha_and_k", {"--alpha", "0.5", "--conductivity", "2"});
  const std::string alpha_and_c = run("alpha_and_c", {"--alpha", "0.5", "--heat-capacity", "4"});
  const std::string other_k = run("other_k", {"--alpha", "0.5", "--conductivity", "3"});
  EXPECT_EQ(run_heatrk4({"compare", k_and_c, alpha_and_k, "--rtol", "0", "--atol", "0"}).exit_code, 0);
  EXPECT_EQ(run_heatrk4({"compare", k_and_c, alpha_and_c, "--rtol", "0", "--atol", "0"}).exit_code, 0);
  EXPECT_EQ(run_heatrk4({"compare", k_and_c, other_k}).exit_code, 1);
}

// A restart goes on with the stored conditions and material: 2 + 2 steps are 4.
TEST(BoundaryOptions, RestartCarriesTheConditionsOn) {
  const std::string dir = test::temp_directory("bc_restart");
  const std::vector<std::string> conditions = {"--bc", "periodic", "--bc-x-low", "flux:2", "--bc-x-high",
                                               "convective:1,0.25", "--conductivity", "3", "--init", "randn"};
  auto whole = conditions;
  whole.insert(whole.end(), {"--steps", "4", "--format", "hdf5", "--output", dir + "/whole"});
  whole = bc_run(whole);
  ASSERT_EQ(run_heatrk4(whole).exit_code, 0);
  expect_restart_goes_on_as_the_whole_run(dir, conditions);
}

}  // namespace
}  // namespace heat
