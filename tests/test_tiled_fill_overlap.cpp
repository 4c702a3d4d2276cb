// tiled on one GPU fills each pass's operand beside the pass where an x or y face is not layer
// (backends/tiled/backends.cuh, OnePassBackend::launch_beside_fill): the tiles clear of the rim run
// while the x and y faces' ghosts fill, and a call's steps but the last leave u's fill to the next
// step's first pass. The same tiles and the same ghosts, so the same bits as the fill before each
// pass (--halo-overlap off): checked on every boundary case of verify's, faces on one axis alone,
// orders 2 and 8, float and double, grids with rows shorter than a tile, of odd length and wide
// enough for tiles clear of the rim on both axes, from a field random everywhere (ghosts and edges
// too), over steps in calls of several sizes. The backend poisons its scratch fields before the first
// pass, so a point no tile writes shows as NaN. Skipped (and reported so) without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "bitwise.hpp"
#include "check/boundary_cases.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

// verify's cases, and faces on one axis alone: x (overlapped), y (overlapped), z (the serial fill).
std::vector<BoundaryCase> overlap_cases() {
  using K = BoundaryKind;
  std::vector<BoundaryCase> cases = boundary_cases();
  const BoundaryCondition layer{}, insulated{K::Insulated};
  cases.push_back({"x-only", {{{K::Periodic}, {K::Periodic}, layer, layer, layer, layer}}});
  cases.push_back({"y-low-only", {{layer, layer, {K::Convective, 1.5, 0.25}, layer, layer, layer}}});
  cases.push_back({"z-only", {{layer, layer, layer, layer, insulated, {K::Temperature, 0.5}}}});
  return cases;
}

// Every point random in [1, 2): a ghost or edge left unwritten, or written wrongly, shows.
template <typename T>
Field<T> random_field(const Grid& g, unsigned seed) {
  std::mt19937 generator{seed};
  std::uniform_real_distribution<double> between(1.0, 2.0);
  Field<T> u(g);
  for (std::size_t n = 0; n < u.size(); ++n) u.data()[n] = T(between(generator));
  return u;
}

// tiled's field after steps in calls of `calls` steps each, with the fill beside the passes or not.
template <typename T>
Field<T> stepped(const Problem& p, const Field<T>& start, HaloOverlap overlap, const std::vector<int>& calls) {
  BackendOptions options;
  options.halo_overlap = overlap;
  const std::unique_ptr<Backend<T>> backend = default_registry().find("tiled")->make<T>(p, options);
  backend->upload(start);
  for (int steps : calls) backend->step(steps);
  Field<T> u(p.grid);
  backend->download(u);
  return u;
}

template <typename T>
void expect_overlap_bitwise_the_serial_fill() {
  const Grid grids[] = {{37, 29, 23, 0.035, 0.065, 0.045}, {99, 97, 21, 0.05, 0.04, 0.06}, {150, 90, 17, 0.04, 0.05, 0.03}};
  for (const Grid& g : grids)
    for (int order : {2, 8})
      for (const BoundaryCase& faces : overlap_cases()) {
        Problem p = test::gpu_test_problem(g, order);
        p.conductivity = 1.5;
        p.heat_capacity = p.conductivity / p.alpha;
        p.boundaries = faces.faces;
        const std::string where = std::string(sizeof(T) == 4 ? "float " : "double ") + faces.name + " order " +
                                  std::to_string(order) + " " + std::to_string(g.nx) + "x" + std::to_string(g.ny) +
                                  "x" + std::to_string(g.nz);
        const Field<T> start = random_field<T>(g, unsigned(g.nx + order));
        const Field<T> serial = stepped(p, start, HaloOverlap::Off, {5});
        const Field<T> beside = stepped(p, start, HaloOverlap::EdgesFirst, {2, 1, 2});
        EXPECT_EQ(test::bitwise_differences(beside, serial), 0) << where;
        EXPECT_NE(std::memcmp(serial.data(), start.data(), start.size() * sizeof(T)), 0) << where << ": nothing stepped";
      }
}

TEST(TiledFillOverlap, FillBesideThePassesGivesTheSerialFillsBitsFloat) {
  HEAT_REQUIRE_GPU();
  expect_overlap_bitwise_the_serial_fill<float>();
}

TEST(TiledFillOverlap, FillBesideThePassesGivesTheSerialFillsBitsDouble) {
  HEAT_REQUIRE_GPU();
  expect_overlap_bitwise_the_serial_fill<double>();
}

}  // namespace
}  // namespace heat
