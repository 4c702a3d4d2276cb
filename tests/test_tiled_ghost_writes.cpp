// tiled's single passes write the ghosts of their outputs themselves where every face that is not
// layer is insulated, flux, temperature without a source or periodic (backends/tiled/
// ghost_writes.cuh): the run must be bit for bit the run that fills each pass's operand in a launch
// of its own (OperandGhosts::FilledApart), whose ghosts are core/boundary_ghosts.hpp's. Each kind
// on every face, the kinds mixed and beside layer faces, a periodic pair on each axis alone, at
// every order, in float and double, on grids of odd and even row length (the passes' scalar and
// pair stores; a pair half ghost, half computed, stores its computed column alone), small enough
// that a periodic axis's period is shorter than r at order 8 (ghosts that wrap more than once), and
// grids of one z chunk and of several. The field compared is the downloaded one: its interior is
// what the passes computed from the ghosts; its ghosts are u's fill after the step. Skipped (and
// reported so) on a machine without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "check/boundary_cases.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"

#if defined(HEAT_HAVE_CUDA)
#include "backends/tiled/tiled.hpp"

namespace heat {
namespace {

std::vector<BoundaryCase> ghost_writing_cases() {
  using K = BoundaryKind;
  const BoundaryCondition periodic{K::Periodic}, insulated{K::Insulated};
  std::vector<BoundaryCase> cases = {
      boundary_case("temperature"),
      boundary_case("insulated"),
      boundary_case("flux"),
      boundary_case("periodic"),
      {"mirror-family-mixed",
       {{{K::Temperature, 0.5}, {K::Flux, -2.0}, periodic, periodic, insulated, {K::Temperature, -0.75}}}},
      {"temperature-edges", {{{K::Temperature, 1.5}, insulated, {K::Temperature, -0.5}, {K::Flux, 1.0}, {}, {}}}},
      {"beside-layer", {{{}, {K::Flux, 3.0}, {}, {}, periodic, periodic}}},
  };
  for (int axis = 0; axis < 3; ++axis) {
    BoundaryCase pair{nullptr, Boundaries{}};
    pair.name = axis == 0 ? "periodic-x" : axis == 1 ? "periodic-y" : "periodic-z";
    pair.faces[2 * axis] = pair.faces[2 * axis + 1] = periodic;
    cases.push_back(pair);
  }
  return cases;
}

// Odd rows (scalar stores) and even rows (pairs), all spacings unequal; 13x17x11 is under 3r + 1
// along z at order 8, where only periodic z faces can run (period 3: ghosts wrap more than once).
const Grid kGrids[] = {{37, 29, 23, 0.035, 0.065, 0.045}, {13, 17, 11, 0.05, 0.04, 0.06},
                       {24, 20, 17, 0.05, 0.04, 0.06}, {66, 21, 90, 0.03, 0.05, 0.02}};

Problem problem_with(const Grid& g, int order, const Boundaries& faces) {
  Problem p = test::gpu_test_problem(g, order);
  p.conductivity = 1.5;
  p.heat_capacity = p.conductivity / p.alpha;
  p.boundaries = faces;
  return p;
}

template <typename T>
Field<T> stepped(const Problem& p, const Field<T>& start, OperandGhosts ghosts) {
  const Precision precision = sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double;
  auto backend = make_tiled_backend<T>(p, BackendOptions{}, tiled_boundary_configuration(p.order, precision), nullptr,
                                       ghosts);
  backend->upload(start);
  backend->step(4);
  Field<T> u(p.grid, T(-12345));  // poison the host copy: download must overwrite every point
  backend->download(u);
  return u;
}

template <typename T>
void expect_passes_write_the_fills_ghosts() {
  int compared = 0;
  for (const Grid& g : kGrids)
    for (int order : {2, 4, 6, 8})
      for (const BoundaryCase& faces : ghost_writing_cases()) {
        const int r = order / 2;
        try {
          require_consistent_boundaries(faces.faces, {g.nx, g.ny, g.nz}, r);
        } catch (const InputError&) {
          continue;  // a reflected face on an axis under 3r + 1 points
        }
        const Problem p = problem_with(g, order, faces.faces);
        const Field<T> start = field_cast<T>(randn_field(g, 90 + order));
        const Field<T> written = stepped(p, start, OperandGhosts::WrittenByPasses);
        const Field<T> filled = stepped(p, start, OperandGhosts::FilledApart);
        EXPECT_EQ(std::memcmp(written.data(), filled.data(), written.size() * sizeof(T)), 0)
            << faces.name << " order " << order << " " << g.nx << "x" << g.ny << "x" << g.nz;
        ++compared;
      }
  EXPECT_GT(compared, 100);  // the skipped combinations are a few
}

TEST(TiledGhostWrites, PassesWriteTheFillsGhostsBitwiseFloat) {
  HEAT_REQUIRE_GPU();
  expect_passes_write_the_fills_ghosts<float>();
}
TEST(TiledGhostWrites, PassesWriteTheFillsGhostsBitwiseDouble) {
  HEAT_REQUIRE_GPU();
  expect_passes_write_the_fills_ghosts<double>();
}

}  // namespace
}  // namespace heat

#else

TEST(TiledGhostWrites, NeedsCuda) { GTEST_SKIP() << "this build has no CUDA backends"; }

#endif
