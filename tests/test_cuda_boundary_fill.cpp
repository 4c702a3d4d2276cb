// Every CUDA backend fills the faces' conditions as the cpu reference does (docs/design.md §1,
// "Boundary"): each kind on every face, all kinds mixed and beside layer faces
// (check/boundary_cases.hpp), at every order, in float and double, on grids of odd and even row
// length with unequal spacings, from a smooth random field over several steps, within verify's
// tolerances; the fill of a field as it is set gives the host fill's bits, and so does the fill
// after the last step; a temperature face holds T exactly. Skipped (and reported so) on a machine
// without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#if defined(HEAT_HAVE_CUDA)
#include "backends/cuda/boundary_fill.cuh"
#include "backends/cuda/device_buffer.cuh"
#endif

#include "backends/cpu/boundary_fill.hpp"
#include "backends/registry.hpp"
#include "check/boundary_cases.hpp"
#include "check/reference.hpp"
#include "core/time_loop.hpp"
#include "backend_physics.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

// Rows of odd and even length (the tiled kernels' scalar and pair accesses), spacings all unequal,
// every axis at least 3r + 1 = 13 points at order 8. Spacings of a domain about a unit wide, so
// that the cases' Q and H give the corrections and Biot numbers H h / K of such a domain.
const Grid kGrids[] = {{23, 19, 29, 0.035, 0.065, 0.045}, {24, 20, 17, 0.05, 0.04, 0.06}};

// 1 plus three plane waves of random direction, phase and amplitude, each a few points long at
// the least: smooth, and zero nowhere.
Field<double> smooth_random_field(const Grid& g, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  struct Wave {
    double k[3], phase, amplitude;
  } waves[3];
  for (Wave& w : waves) {
    for (double& k : w.k) k = 0.6 * uniform(random);
    w.phase = 3 * uniform(random);
    w.amplitude = 0.2 * uniform(random);
  }
  Field<double> u(g);
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        double value = 1;
        for (const Wave& w : waves) value += w.amplitude * std::sin(w.k[0] * i + w.k[1] * j + w.k[2] * k + w.phase);
        u(i, j, k) = value;
      }
  return u;
}

Problem problem_with(const Grid& g, int order, const Boundaries& faces) {
  Problem p = test::gpu_test_problem(g, order);
  p.conductivity = 1.5;
  p.heat_capacity = p.conductivity / p.alpha;
  p.boundaries = faces;
  return p;
}

class CudaBoundaryFill : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

constexpr int kSteps = 6;

// On the points the conditions' ghosts are made from (compare_interiors says why), within verify's
// tolerances; and the field as downloaded has its ghosts filled after the last step, the host's
// fill of its own interior bit for bit.
// Radiation faces (radiation_case, stepped in the stage form) on temperatures about 300 K.
template <typename T>
void expect_matches_reference(const std::string& name) {
  const double tol = default_tolerance<T>();
  std::vector<BoundaryCase> cases = boundary_cases();
  cases.push_back(radiation_case());
  for (const Grid& g : kGrids)
    for (int order : {2, 4, 6, 8})
      for (const BoundaryCase& faces : cases) {
        const std::string where = name + " " + faces.name + " order " + std::to_string(order) + " " +
                                  std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz);
        const Problem p = problem_with(g, order, faces.faces);
        const Field<double> smooth = smooth_random_field(g, 40 + order);
        const Field<T> start = field_cast<T>(any_radiation(p.boundaries) ? radiating_field(smooth) : smooth);
        Field<T> u = start;
        advance(*default_registry().find(name)->make<T>(p, BackendOptions{}), u, kSteps);
        const Field<double> reference = cpu_reference(p, field_cast<double>(start), kSteps);
        const FieldDifference d = compare_interiors(u, reference, p.radius(), tol, tol);
        EXPECT_TRUE(d.pass()) << where << ": " << describe(d);
        Field<T> filled = u;
        fill_boundaries(p, filled.data());
        EXPECT_EQ(std::memcmp(filled.data(), u.data(), u.size() * sizeof(T)), 0) << where << ": ghosts not filled";
      }
}

TEST_P(CudaBoundaryFill, MatchesCpuReferenceOnEveryConditionFloat) { expect_matches_reference<float>(GetParam()); }
TEST_P(CudaBoundaryFill, MatchesCpuReferenceOnEveryConditionDouble) { expect_matches_reference<double>(GetParam()); }

// The device fill computes each ghost as the host's does, without contracted multiply-adds: the
// same bits, and so every difference the steps show is the stencil kernels' rounding.
template <typename T>
void expect_fill_bitwise_the_hosts(const std::string& name) {
  for (const Grid& g : kGrids)
    for (int order : {2, 8})
      for (const BoundaryCase& faces : boundary_cases()) {
        const Problem p = problem_with(g, order, faces.faces);
        const Field<T> start = field_cast<T>(smooth_random_field(g, 7));
        const Field<T> device = test::uploaded(name, p, start), host = test::uploaded(kCpuReferenceName, p, start);
        EXPECT_EQ(std::memcmp(device.data(), host.data(), device.size() * sizeof(T)), 0)
            << name << " " << faces.name << " order " << order << " " << g.nx << "x" << g.ny << "x" << g.nz;
      }
}

TEST_P(CudaBoundaryFill, FillsAsTheHostBitwise) {
  expect_fill_bitwise_the_hosts<float>(GetParam());
  expect_fill_bitwise_the_hosts<double>(GetParam());
}

// z-low held at 2.5 and x-high at -1.25 (both exact in float), the rest insulated: after the steps
// their face points hold T exactly, z-low's on the edge they share (the later axis sets it).
template <typename T>
void expect_temperature_held(const std::string& name) {
  for (int order : {2, 4, 6, 8}) {
    Boundaries faces;
    faces.fill({BoundaryKind::Insulated});
    faces[1] = {BoundaryKind::Temperature, -1.25};
    faces[4] = {BoundaryKind::Temperature, 2.5};
    const Problem p = problem_with(kGrids[0], order, faces);
    Field<T> u = field_cast<T>(smooth_random_field(p.grid, 5));
    advance(*default_registry().find(name)->make<T>(p, BackendOptions{}), u, 7);
    const Grid& g = p.grid;
    const int r = p.radius();
    for (int j = r; j < g.ny - r; ++j)
      for (int i = r; i < g.nx - r; ++i)
        ASSERT_EQ(u(i, j, r), T(2.5)) << name << " order " << order << " " << i << "," << j;
    for (int k = r + 1; k < g.nz - r; ++k)
      for (int j = r; j < g.ny - r; ++j)
        ASSERT_EQ(u(g.nx - 1 - r, j, k), T(-1.25)) << name << " order " << order << " " << j << "," << k;
  }
}

TEST_P(CudaBoundaryFill, TemperatureFacesHoldTheirValueExactly) {
  expect_temperature_held<float>(GetParam());
  expect_temperature_held<double>(GetParam());
}

#if defined(HEAT_HAVE_CUDA)
// An axis's faces (low, high): every kind on each side, a periodic pair, and temperature beside
// temperature and beside other kinds, with values that differ from axis to axis; the product over
// the axes holds every edge of two temperature faces and periodic rows across every kind's ghosts.
std::vector<std::pair<BoundaryCondition, BoundaryCondition>> axis_faces(int axis) {
  using K = BoundaryKind;
  const double a = axis;
  const BoundaryCondition layer{}, periodic{K::Periodic}, insulated{K::Insulated}, flux{K::Flux, 2.0 - a},
      convective{K::Convective, 1.5 + 0.25 * a, 0.75 - a}, held_low{K::Temperature, 1.5 + a},
      held_high{K::Temperature, -0.5 - a};
  return {{layer, layer},     {periodic, periodic},    {held_low, held_high}, {insulated, flux},
          {flux, convective}, {convective, held_high}, {held_low, insulated}, {layer, convective}};
}

std::string faces_text(const Boundaries& faces) {
  std::string text;
  for (int face = 0; face < kFaces; ++face)
    text += std::string(face_name(face)) + " " + boundary_condition_text(faces[face]) + " ";
  return text;
}

// Whether a point lies outside [r, n - r) on two axes or three: the edges that only a periodic
// face's whole rows (FillRows::Whole) write.
bool on_an_edge(const Grid& g, int r, int i, int j, int k) {
  auto outside = [r](int at, int n) { return at < r || at >= n - r ? 1 : 0; };
  return outside(i, g.nx) + outside(j, g.ny) + outside(k, g.nz) >= 2;
}

// The host's fill of `start`; with FillRows::StencilRead, the edges kept as they were.
template <typename T>
Field<T> host_fill(const Problem& p, const Field<T>& start, FillPart part, FillRows rows) {
  Field<T> filled = start;
  fill_boundaries<T>(p, filled.data(), nullptr, part);
  if (rows == FillRows::Whole) return filled;
  const Grid& g = p.grid;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i)
        if (on_an_edge(g, p.radius(), i, j, k)) filled(i, j, k) = start(i, j, k);
  return filled;
}

// The device field starts `offset` values into its buffer (cudaMalloc's are 256-byte aligned), so
// that an x face's ghost sectors lie at another place in its rows (the fill writes whole sectors
// where it can).
template <typename T>
bool device_fill_gives_the_hosts_bits(const Problem& p, const DeviceBoundaryFill& fill, FillPart part, FillRows rows,
                                      const Field<double>& random, std::size_t offset) {
  const Field<T> start = field_cast<T>(random);
  DeviceBuffer<T> on_device(start.size() + offset);
  T* field = on_device.get() + offset;
  HEAT_CUDA_CHECK(cudaMemcpy(field, start.data(), start.size() * sizeof(T), cudaMemcpyHostToDevice));
  fill(field);
  Field<T> filled(p.grid);
  HEAT_CUDA_CHECK(cudaMemcpy(filled.data(), field, filled.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const Field<T> expected = host_fill(p, start, part, rows);
  return std::memcmp(filled.data(), expected.data(), filled.size() * sizeof(T)) == 0;
}

// DeviceBoundaryFill against the host's fill_boundaries, bit for bit on every point, on fields
// random everywhere (their boundary layers too, so a ghost left unwritten shows, and a point that
// an x face's whole-sector write rewrote wrongly): both parts, both row sets, float and double,
// orders 2 and 8, on grids whose axes are, at order 8, exactly 3r + 1 = 13 points (a convective
// face reads the other face's point), more, or fewer (where only periodic or layer faces are
// allowed), and every combination of axis_faces. Rows of odd length start at every place in a
// 32-byte sector; the third grid's rows (16 values) each start on one, so that every x face's row
// is written in whole sectors; the second grid's field starts a value past a sector.
TEST(DeviceBoundaryFill, GivesTheHostFillsBitsOnEveryFaceCombination) {
  HEAT_REQUIRE_GPU();
  const Grid grids[] = {{13, 17, 11, 0.05, 0.04, 0.06}, {17, 13, 15, 0.045, 0.055, 0.035}, {16, 13, 12, 0.04, 0.05, 0.06}};
  const std::size_t offsets[] = {0, 1, 0};
  std::vector<std::string> failures;
  int problems = 0;
  for (int grid = 0; grid < 3; ++grid)
    for (int order : {2, 8})
      for (const auto& x : axis_faces(0))
        for (const auto& y : axis_faces(1))
          for (const auto& z : axis_faces(2)) {
            const Grid& g = grids[grid];
            Problem p = problem_with(g, order, {x.first, x.second, y.first, y.second, z.first, z.second});
            try {
              require_consistent_boundaries(p.boundaries, {g.nx, g.ny, g.nz}, p.radius());
            } catch (const InputError&) {
              continue;  // a reflected face on an axis shorter than 3r + 1
            }
            std::mt19937 generator{unsigned(problems)};
            std::uniform_real_distribution<double> between(1.0, 2.0);
            Field<double> values(g);
            for (std::size_t n = 0; n < values.size(); ++n) values.data()[n] = between(generator);
            for (FillPart part : {FillPart::Full, FillPart::Homogeneous})
              for (FillRows rows : {FillRows::Whole, FillRows::StencilRead}) {
                const DeviceBoundaryFill fill(p, part, rows);
                EXPECT_EQ(fill.fills(), !all_layer(p.boundaries));
                for (bool single : {true, false}) {
                  const bool same =
                      single ? device_fill_gives_the_hosts_bits<float>(p, fill, part, rows, values, offsets[grid])
                             : device_fill_gives_the_hosts_bits<double>(p, fill, part, rows, values, offsets[grid]);
                  if (!same)
                    failures.push_back(faces_text(p.boundaries) + " order " + std::to_string(order) + " " +
                                       std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) +
                                       (single ? " float" : " double") +
                                       (part == FillPart::Full ? " full" : " homogeneous") +
                                       (rows == FillRows::Whole ? " whole rows" : " stencil rows"));
                }
              }
            ++problems;
          }
  EXPECT_GT(problems, 1000);
  EXPECT_TRUE(failures.empty()) << failures.size() << " fills differ from the host's, the first: " << failures[0];
}

// A radiation face's device fill (a kernel of its own, fill_face_row a row) against the host's,
// bit for bit: the same function, compiled without contracted multiply-adds on the device (the
// host's x86-64 code has no fused ones), its divisions IEEE on both. Radiation on both faces of
// each axis beside every combination of axis_faces on the other two, on temperatures between
// 250 and 400 K (random everywhere, the boundary layer too), both row sets, float and double,
// orders 2 and 8, on odd rows starting at every place in a sector; and its fill has no
// homogeneous part.
TEST(DeviceBoundaryFill, FillsRadiationFacesAsTheHostBitwise) {
  HEAT_REQUIRE_GPU();
  const Grid grids[] = {{13, 17, 15, 0.05, 0.04, 0.06}, {17, 13, 15, 0.045, 0.055, 0.035}};
  const std::size_t offsets[] = {0, 1};
  std::vector<std::string> failures;
  int problems = 0;
  for (int grid = 0; grid < 2; ++grid)
    for (int order : {2, 8})
      for (int axis = 0; axis < 3; ++axis) {
        const int other[2] = {lower_other_axis(axis), higher_other_axis(axis)};
        for (const auto& lower : axis_faces(other[0]))
          for (const auto& higher : axis_faces(other[1])) {
            const Grid& g = grids[grid];
            Boundaries faces;
            faces[2 * axis] = {BoundaryKind::Radiation, 0.9 - 0.2 * axis, 250.0 + 20 * axis};
            faces[2 * axis + 1] = {BoundaryKind::Radiation, 0.4 + 0.1 * axis, 420.0 - 30 * axis};
            faces[2 * other[0]] = lower.first, faces[2 * other[0] + 1] = lower.second;
            faces[2 * other[1]] = higher.first, faces[2 * other[1] + 1] = higher.second;
            const Problem p = problem_with(g, order, faces);
            try {
              require_consistent_boundaries(p.boundaries, {g.nx, g.ny, g.nz}, p.radius());
            } catch (const InputError&) {
              continue;  // a reflected face on an axis shorter than 3r + 1
            }
            EXPECT_THROW(DeviceBoundaryFill(p, FillPart::Homogeneous), std::logic_error);
            std::mt19937 generator{unsigned(problems)};
            std::uniform_real_distribution<double> between(250.0, 400.0);
            Field<double> values(g);
            for (std::size_t n = 0; n < values.size(); ++n) values.data()[n] = between(generator);
            for (FillRows rows : {FillRows::Whole, FillRows::StencilRead}) {
              const DeviceBoundaryFill fill(p, FillPart::Full, rows);
              for (bool single : {true, false}) {
                const bool same =
                    single ? device_fill_gives_the_hosts_bits<float>(p, fill, FillPart::Full, rows, values, offsets[grid])
                           : device_fill_gives_the_hosts_bits<double>(p, fill, FillPart::Full, rows, values, offsets[grid]);
                if (!same)
                  failures.push_back(faces_text(p.boundaries) + " order " + std::to_string(order) + " " +
                                     std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) +
                                     (single ? " float" : " double") +
                                     (rows == FillRows::Whole ? " whole rows" : " stencil rows"));
              }
            }
            ++problems;
          }
      }
  EXPECT_GT(problems, 300);
  EXPECT_TRUE(failures.empty()) << failures.size() << " fills differ from the host's, the first: " << failures[0];
}
#endif

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaBoundaryFill);
INSTANTIATE_TEST_SUITE_P(Registry, CudaBoundaryFill, ::testing::ValuesIn(test::cuda_backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace heat
