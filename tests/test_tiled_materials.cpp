// tiled's shared-memory kernel of material fields (backends/tiled/material_pass.cuh) against the
// global-memory kernel of the same four passes (tiled:factors/global-memory, which naive and reuse
// run too): each point's sum is apply_conductance_stencil's, in its order, from the same values
// (the 1/K star, or the stored pairs' M, and 1/C), so the two give the same bits. On random smooth
// and piecewise K and C, every order, float and double, with periodic, insulated and convective
// faces (each pass's operand filled first) and a random source (the last pass's kernel that adds
// it), on rows of odd length (the kernel's single-column accesses) and of even length (its pairs).
// Both are held to cpu_reference by test_cuda_materials and verify. Skipped (and reported so) on a
// machine without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

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
const Grid kGrids[] = {{23, 19, 29, 0.035, 0.065, 0.045}, {70, 37, 21, 0.02, 0.03, 0.05}};

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

// Where faces are not layer each step ends with u's ghosts filled, and a tile's pair that straddles
// the boundary layer writes its base's value there: the points compared are the interior's, which
// every pass reads; with layer faces, every point.
template <typename T>
void expect_same_bits(const Boundaries& faces, const char* label) {
  for (const Grid& g : kGrids)
    for (const MaterialCase& m : material_cases(g, 93))
      for (int order : {2, 4, 6, 8}) {
        const Problem p = test::material_problem(g, order, faces, m, kSteps, 70 + order);
        const Field<T> start = field_cast<T>(randn_field(g, 30 + order));
        const Field<T> tiles = stepped<T>(p, "", start), global = stepped<T>(p, kGlobalMaterialConfiguration, start);
        std::size_t differ = 0, changed = 0, finite = 0, compared = 0, interior = 0;
        for (int k = 0; k < g.nz; ++k)
          for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
              const bool inside = p.in_interior(i, j, k);
              if (label != std::string("layer") && !inside) continue;
              ++compared;
              differ += std::memcmp(&tiles(i, j, k), &global(i, j, k), sizeof(T)) != 0;
              finite += std::isfinite(tiles(i, j, k));
              // The layer's points keep their values: the interior's are the ones a step changes.
              interior += inside;
              changed += inside && tiles(i, j, k) != start(i, j, k);
            }
        const std::string where = std::string(label) + " " + m.name + " order " + std::to_string(order) + " " +
                                  std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz);
        EXPECT_EQ(differ, 0u) << where << ": points whose bits differ";
        EXPECT_EQ(finite, compared) << where;
        EXPECT_GT(changed, interior / 2) << where << ": barely stepped";
      }
}

class TiledMaterials : public ::testing::Test {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

TEST_F(TiledMaterials, TilesGiveTheGlobalKernelsBitsFloat) {
  expect_same_bits<float>(mixed_faces(), "mixed");
  expect_same_bits<float>(Boundaries{}, "layer");
}

TEST_F(TiledMaterials, TilesGiveTheGlobalKernelsBitsDouble) {
  expect_same_bits<double>(mixed_faces(), "mixed");
  expect_same_bits<double>(Boundaries{}, "layer");
}

// Without material fields the global-memory passes are no configuration to run.
TEST_F(TiledMaterials, GlobalMemoryPassesRefuseConstantCoefficients) {
  const Problem p = test::gpu_test_problem(kGrids[0], 4);
  EXPECT_THROW(make_tiled_backend<float>(p, BackendOptions{}, kGlobalMaterialConfiguration), InputError);
}

}  // namespace
}  // namespace heat

#else

TEST(TiledMaterials, NeedsCuda) { GTEST_SKIP() << "this build has no CUDA backends"; }

#endif
