// tiled's kernels of material fields against each other: the single passes in shared-memory tiles
// (backends/tiled/material_pass.cuh; tiled:factors/shared-memory, the registry's tiled) against the
// global-memory kernel of the same four passes (tiled:factors/global-memory, which naive and reuse
// run too), and at order 2 all four passes in one kernel (material_four_passes.cuh;
// tiled:all4/shared-memory/c2x1) against the single passes: each point's sum is
// apply_conductance_stencil's, in its order, from the same values (the 1/K star or each plane's
// harmonic means, the stored pairs' M, and 1/C), in the quadratic factors' form, so all give the
// same bits. On random smooth and piecewise K and C, float and double, with a random source (the
// last pass's kernel that adds it) and, for the fused step, without; the single passes at every
// order with periodic, insulated and convective faces (each pass's operand filled first), the fused
// step with layer faces, which it alone takes; on rows of odd length (the kernels' single-column
// accesses) and of even length (their pairs), grids of several tiles with a partial last one and,
// for the fused step, one smaller than its tile (56x16 columns written in float, 24x16 in double).
// All are held to cpu_reference by test_cuda_materials and verify. Skipped (and reported so) on a
// machine without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "apps/material_fields.hpp"
#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "check/boundary_cases.hpp"
#include "check/material_cases.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "core/materials.hpp"
#include "backend_physics.hpp"
#include "test_support.hpp"

#if defined(HEAT_HAVE_CUDA)
#include "backends/tiled/material_passes.hpp"
#include "backends/tiled/tiled.hpp"

namespace heat {
namespace {

// Odd sizes but one: every grid's last tile partial, and rows of odd and even length.
const std::vector<Grid> kGrids = {{23, 19, 29, 0.035, 0.065, 0.045}, {70, 37, 21, 0.02, 0.03, 0.05}};
// Beside them for the fused step: a grid smaller than its tile, and one of several tiles each way
// (in float 3 by 3, the last partial) whose rows are even.
const std::vector<Grid> kFusedGrids = {kGrids[0], kGrids[1], {9, 7, 6, 0.1, 0.12, 0.11},
                                       {130, 41, 35, 0.01, 0.02, 0.03}};

constexpr int kSteps = 4;

Boundaries mixed_faces() {
  using K = BoundaryKind;
  const BoundaryCondition periodic{K::Periodic}, insulated{K::Insulated};
  return {{periodic, periodic, insulated, {K::Convective, 1.5, 0.25}, {K::Convective, 0.8, -0.5}, insulated}};
}

template <typename T>
Field<T> stepped(const Problem& p, const std::string& configuration, const Field<T>& start) {
  auto backend = configuration.empty() ? default_registry().find("tiled")->make<T>(p, BackendOptions{})
                                       : make_tiled_backend<T>(p, BackendOptions{}, configuration);
  backend->upload(start);
  backend->step(kSteps);
  Field<T> u(p.grid, T(-12345));
  backend->download(u);
  return u;
}

// Two of tiled's configurations of material fields, and where they are held to the same bits.
struct SameBits {
  const char* label;
  Boundaries faces;
  std::string first, second;  // "": the registry's tiled
  std::vector<int> orders;
  std::vector<Grid> grids;
  std::vector<bool> sources;  // with a source, without, or both
};

// Where faces are not layer each step ends with u's ghosts filled, and a tile's pair that straddles
// the boundary layer writes its base's value there: the points compared are the interior's, which
// every pass reads; with layer faces, every point.
template <typename T>
void expect_same_bits(const SameBits& c) {
  const bool layer = c.faces == Boundaries{};
  for (const Grid& g : c.grids)
    for (const MaterialCase& m : material_cases(g, 93))
      for (int order : c.orders)
        for (bool with_source : c.sources) {
          Problem p = test::material_problem(g, order, c.faces, m, kSteps, 70 + order);
          if (!with_source) p.source = nullptr;
          const Field<T> start = field_cast<T>(randn_field(g, 30 + order));
          const Field<T> first = stepped<T>(p, c.first, start), second = stepped<T>(p, c.second, start);
          std::size_t differ = 0, changed = 0, finite = 0, compared = 0, interior = 0;
          for (int k = 0; k < g.nz; ++k)
            for (int j = 0; j < g.ny; ++j)
              for (int i = 0; i < g.nx; ++i) {
                const bool inside = p.in_interior(i, j, k);
                if (!layer && !inside) continue;
                ++compared;
                differ += std::memcmp(&first(i, j, k), &second(i, j, k), sizeof(T)) != 0;
                finite += std::isfinite(first(i, j, k));
                // The layer's points keep their values: the interior's are the ones a step changes.
                interior += inside;
                changed += inside && first(i, j, k) != start(i, j, k);
              }
          const std::string where = std::string(c.label) + " " + m.name + " order " + std::to_string(order) +
                                    (with_source ? " with a source " : " ") + std::to_string(g.nx) + "x" +
                                    std::to_string(g.ny) + "x" + std::to_string(g.nz);
          EXPECT_EQ(differ, 0u) << where << ": points whose bits differ";
          EXPECT_EQ(finite, compared) << where;
          EXPECT_GT(changed, interior / 2) << where << ": barely stepped";
        }
}

// The single passes, in shared-memory tiles and as the global-memory kernel, every order.
template <typename T>
void expect_tiles_give_the_global_kernels_bits() {
  for (const char* label : {"mixed", "layer"})
    expect_same_bits<T>({label, label == std::string("mixed") ? mixed_faces() : Boundaries{}, "",
                         kGlobalMaterialConfiguration, {2, 4, 6, 8}, kGrids, {true}});
}

// At order 2 the fused step in each shape against the single passes, by name (the registry's tiled
// may run either).
template <typename T>
void expect_fused_step_gives_the_single_passes_bits() {
  const std::string& fused = kFusedMaterialConfiguration;
  expect_same_bits<T>({fused.c_str(), Boundaries{}, fused, kTiledMaterialConfiguration, {2}, kFusedGrids, {true, false}});
}

class TiledMaterials : public ::testing::Test {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

TEST_F(TiledMaterials, TilesGiveTheGlobalKernelsBitsFloat) { expect_tiles_give_the_global_kernels_bits<float>(); }

TEST_F(TiledMaterials, TilesGiveTheGlobalKernelsBitsDouble) { expect_tiles_give_the_global_kernels_bits<double>(); }

TEST_F(TiledMaterials, FusedStepGivesTheSinglePassesBitsFloat) { expect_fused_step_gives_the_single_passes_bits<float>(); }

TEST_F(TiledMaterials, FusedStepGivesTheSinglePassesBitsDouble) {
  expect_fused_step_gives_the_single_passes_bits<double>();
}

// Its four passes have no fill between them, and its harmonic means are order 2's alone.
TEST_F(TiledMaterials, FusedStepRefusesFacesThatAreNotLayerAndOtherOrders) {
  const MaterialCase m = material_cases(kGrids[0], 93).front();
  const Problem faces = test::material_problem(kGrids[0], 2, mixed_faces(), m, kSteps, 72);
  const Problem order4 = test::material_problem(kGrids[0], 4, Boundaries{}, m, kSteps, 74);
  EXPECT_THROW(make_tiled_backend<float>(faces, BackendOptions{}, kFusedMaterialConfiguration), InputError);
  EXPECT_THROW(make_tiled_backend<double>(order4, BackendOptions{}, kFusedMaterialConfiguration), InputError);
}

// Without material fields the material passes are no configuration to run.
TEST_F(TiledMaterials, MaterialConfigurationsRefuseConstantCoefficients) {
  const Problem p = test::gpu_test_problem(kGrids[0], 2);
  for (const std::string& name : {kTiledMaterialConfiguration, kGlobalMaterialConfiguration, kFusedMaterialConfiguration})
    EXPECT_THROW(make_tiled_backend<float>(p, BackendOptions{}, name), InputError) << name;
}

}  // namespace
}  // namespace heat

#else

TEST(TiledMaterials, NeedsCuda) { GTEST_SKIP() << "this build has no CUDA backends"; }

#endif
