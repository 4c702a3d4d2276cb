// Every CUDA backend steps material fields K(x), C(x) as the cpu reference does (docs/design.md §1,
// "Materials"): naive's and reuse's stage form, tiled's single passes of the flux form. On random
// smooth and random piecewise fields (check/material_cases.hpp), with every kind of face and a
// random source, at orders 2 and 8 in float and double on grids of odd sizes, within verify's
// tolerances; the device's fill of faces that read K, C or a convective face's row weights is the
// host's bits; and by their physics, an insulated box of random materials keeps its total heat
// sum(w C u) dV to rounding. Skipped (and reported so) on a machine without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "apps/material_fields.hpp"
#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "check/boundary_cases.hpp"
#include "check/material_cases.hpp"
#include "check/reference.hpp"
#include "core/body_quadrature.hpp"
#include "core/materials.hpp"
#include "core/time_loop.hpp"
#include "backend_physics.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

// Odd sizes along every axis (the tiled and global kernels' partial blocks), spacings unequal,
// every axis at least 3r + 1 = 13 points at order 8, a domain about a unit wide.
const Grid kGrids[] = {{23, 19, 29, 0.035, 0.065, 0.045}, {27, 21, 17, 0.04, 0.05, 0.06}};

constexpr int kSteps = 6;

// Every face kind: layer faces alone and each of the boundary cases.
std::vector<BoundaryCase> every_face_kind() {
  std::vector<BoundaryCase> cases{{"layer", Boundaries{}}};
  for (const BoundaryCase& c : boundary_cases()) cases.push_back(c);
  return cases;
}

class CudaMaterials : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

template <typename T>
void expect_matches_reference(const std::string& name) {
  const double tol = default_tolerance<T>();
  for (const Grid& g : kGrids)
    for (const MaterialCase& m : material_cases(g, 90))
      for (int order : {2, 8})
        for (const BoundaryCase& faces : every_face_kind()) {
          const Problem p = test::material_problem(g, order, faces.faces, m, kSteps, 60 + order);
          const FieldDifference d = check_against_reference<T>(name, p, randn_field(g, 50 + order), kSteps, tol, tol);
          EXPECT_TRUE(d.pass()) << name << " " << m.name << " " << faces.name << " order " << order << " " << g.nx
                                << "x" << g.ny << "x" << g.nz << ": " << describe(d);
        }
}

TEST_P(CudaMaterials, MatchCpuReferenceFloat) { expect_matches_reference<float>(GetParam()); }
TEST_P(CudaMaterials, MatchCpuReferenceDouble) { expect_matches_reference<double>(GetParam()); }

// The faces whose ghosts read the materials (a flux face's -Q/K, a convective face's row weights,
// a temperature face's curvature -q/K with a source) take them from the device's copies: the
// host's bits.
template <typename T>
void expect_fill_bitwise_the_hosts(const std::string& name) {
  const Grid& g = kGrids[0];
  for (const MaterialCase& m : material_cases(g, 91))
    for (int order : {2, 8})
      for (const char* faces : {"flux", "convective", "temperature", "mixed"}) {
        const Problem p = test::material_problem(g, order, boundary_case(faces).faces, m, kSteps, 3);
        const Field<T> start = field_cast<T>(randn_field(g, 4));
        const Field<T> device = test::uploaded(name, p, start), host = test::uploaded(kCpuReferenceName, p, start);
        EXPECT_EQ(std::memcmp(device.data(), host.data(), device.size() * sizeof(T)), 0)
            << name << " " << m.name << " " << faces << " order " << order;
      }
}

TEST_P(CudaMaterials, FillFacesThatReadTheMaterialsAsTheHostBitwise) {
  expect_fill_bitwise_the_hosts<float>(GetParam());
  expect_fill_bitwise_the_hosts<double>(GetParam());
}

// Each pair's flux enters its two points with opposite signs, and the insulated faces mirror u
// and the materials: sum(w C u) dV does not move, over 300 steps at 0.9 of the stable limit in
// double, to 1e-13 of the summed terms (as the cpu backends hold it, test_materials).
TEST_P(CudaMaterials, AnInsulatedBoxOfRandomMaterialsKeepsItsTotalHeat) {
  const std::string& name = GetParam();
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    for (const MaterialCase& m : material_cases(p.grid, 92)) {
      p.materials = make_materials(p, m.conductivity, m.heat_capacity);
      p.alpha = largest_diffusivity(p, *p.materials);
      p.dt = dt_from_cfl(p.grid, p.alpha, 0.9 * material_cfl_limit(p));
      const Field<double> start = randn_field<double>(p.grid, 8);
      const double* c = p.materials->heat_capacity.data();
      const auto total_heat = [&](const Field<double>& u) {
        Field<double> heat = u;
        for (std::size_t n = 0; n < heat.size(); ++n) heat.data()[n] *= c[n];
        return body_integral(p, heat);
      };
      double scale = 0;  // the size of the terms summed
      for (std::size_t n = 0; n < start.size(); ++n) scale += std::abs(start.data()[n]) * c[n];
      scale *= p.grid.hx * p.grid.hy * p.grid.hz;
      Field<double> u = start;
      advance(*default_registry().find(name)->make<double>(p, BackendOptions{}), u, 300);
      const double before = total_heat(start), after = total_heat(u);
      std::printf("%s, %s, order %d: total heat %.17g before, %.17g after 300 steps\n", name.c_str(), m.name, order,
                  before, after);
      EXPECT_NEAR(after, before, 1e-13 * scale) << name << " " << m.name << " order " << order;
      const int middle = p.grid.nx / 2;
      EXPECT_GT(std::abs(u(middle, middle, middle) - start(middle, middle, middle)), 1e-6) << name << " barely stepped";
    }
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaMaterials);
INSTANTIATE_TEST_SUITE_P(Registry, CudaMaterials, ::testing::ValuesIn(test::cuda_backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace heat
