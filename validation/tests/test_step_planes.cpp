// StepPlanes (solver/step_planes.hpp): a step run in two parts around its exchange gives the bits
// of the whole step, for each way the tiled backend groups the passes into launches and for the
// cpu backend's single passes. The check runs the forms along z alone (one value per plane, a
// three-point-per-side stencil of any radius): the planes each launch writes and reads, and
// which buffers it overwrites, are those of the kernels. While the exchange travels the ghost
// planes hold NaN and the edge planes it sends must stay as they were.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "solver/step_planes.hpp"

namespace heat {
namespace {

using Planes = std::vector<double>;

struct Box {
  int nz, r;
  GhostSides sides;
};

// The pass's value at plane z: base + c * (the stencil of `in`) inside [r, nz - r), base outside
// (what the kernels give every plane they do not compute).
double pass_value(const Box& b, const Planes& in, const Planes& base, double c, int z) {
  if (z < b.r || z >= b.nz - b.r) return base[std::size_t(z)];
  double lap = -2.0 * b.r * in[std::size_t(z)];
  for (int d = 1; d <= b.r; ++d) lap += (in[std::size_t(z - d)] + in[std::size_t(z + d)]) / d;
  return base[std::size_t(z)] + c * lap;
}

// One launch of `passes` chained passes from `in` (each on `base`, like the kernels' u) into
// `out` on `planes`: the earlier passes recomputed on the planes the later ones read.
void launch(const Box& b, const Planes& in, const Planes& base, const std::vector<double>& c, Planes& out,
            PlaneRange planes) {
  if (planes.empty()) return;
  const int passes = int(c.size());
  Planes operand = in;
  for (int p = 0; p < passes; ++p) {
    const int halo = (passes - 1 - p) * b.r;
    Planes next = operand;
    for (int z = std::max(0, planes.first - halo); z < std::min(b.nz, planes.last + halo); ++z)
      next[std::size_t(z)] = pass_value(b, operand, base, c[std::size_t(p)], z);
    operand = std::move(next);
  }
  for (int z = planes.first; z < planes.last; ++z) out[std::size_t(z)] = operand[std::size_t(z)];
}

// The forms' buffers and launches: a step's launches in order, each with its last pass's number,
// and whether u and a swap once the step is whole.
struct Fields {
  Planes u, a, b;
};
using Launch = std::function<void(Fields&, StepPart)>;
struct StepLaunches {
  std::vector<Launch> launches;
  bool swaps = false;
};
using Step = StepLaunches (*)(const Box&);
using Operand = Planes Fields::*;

// A launch of `passes` chained passes from `in` on `base` into `out`, its last pass `last_pass`.
Launch passes(const Box& box, Operand in, Operand base, std::vector<double> c, Operand out, int last_pass) {
  return [=](Fields& f, StepPart part) {
    for (PlaneRange p : StepPlanes(box.nz, box.r, box.sides).of(part, last_pass))
      launch(box, f.*in, f.*base, c, f.*out, p);
  };
}

void run(const Box& box, Step step, Fields& f, StepPart part) {
  const StepLaunches s = step(box);
  for (const Launch& each : s.launches) each(f, part);
  if (s.swaps && part != StepPart::AwayFromGhosts) std::swap(f.u, f.a);
}

// The factors one pass per launch: u -> a, a -> b (on u), b -> a (on b), a -> u (on b).
StepLaunches single_passes(const Box& box) {
  return {{passes(box, &Fields::u, &Fields::u, {0.11}, &Fields::a, 1),
           passes(box, &Fields::a, &Fields::u, {0.07}, &Fields::b, 2),
           passes(box, &Fields::b, &Fields::b, {0.05}, &Fields::a, 3),
           passes(box, &Fields::a, &Fields::b, {0.03}, &Fields::u, 4)}};
}

// A factor per launch: u -> a (two passes on u), a -> u (two passes on a).
StepLaunches factor_pairs(const Box& box) {
  return {{passes(box, &Fields::u, &Fields::u, {0.11, 0.07}, &Fields::a, 2),
           passes(box, &Fields::a, &Fields::a, {0.05, 0.03}, &Fields::u, 4)}};
}

// All four passes in one launch, u -> a, then the two swapped once the step is whole.
StepLaunches four_passes(const Box& box) {
  return {{passes(box, &Fields::u, &Fields::u, {0.11, 0.07, 0.05, 0.03}, &Fields::a, 4)}, true};
}

// The cpu backend's passes exchange one operand each: a single pass, ghost planes of r.
StepLaunches one_pass(const Box& box) { return {{passes(box, &Fields::u, &Fields::u, {0.11}, &Fields::a, 1)}, true}; }

// The neighbours' planes for `step`, written into u's ghost planes.
void fill_ghosts(const Box& b, Planes& u, int step) {
  std::mt19937_64 random(std::uint64_t(1000 * step + b.nz));
  std::uniform_real_distribution<double> value(-1, 1);
  const int g = b.sides.planes;
  for (int z = 0; z < g; ++z) {
    if (b.sides.lower) u[std::size_t(z)] = value(random);
    if (b.sides.upper) u[std::size_t(b.nz - 1 - z)] = value(random);
  }
}

void poison_ghosts(const Box& b, Planes& u) {
  const int g = b.sides.planes;
  for (int z = 0; z < g; ++z) {
    if (b.sides.lower) u[std::size_t(z)] = std::numeric_limits<double>::quiet_NaN();
    if (b.sides.upper) u[std::size_t(b.nz - 1 - z)] = std::numeric_limits<double>::quiet_NaN();
  }
}

// The planes the exchange sends: the g own planes beside each ghost side.
Planes edges(const Box& b, const Planes& u) {
  Planes sent;
  const int g = b.sides.planes;
  for (int z = g; z < 2 * g; ++z) {
    if (b.sides.lower) sent.push_back(u[std::size_t(z)]);
    if (b.sides.upper) sent.push_back(u[std::size_t(b.nz - 1 - z)]);
  }
  return sent;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// Three steps whole after each exchange, and three in parts around it, the launches in `order`
// (which part's next launch runs, true for BesideGhosts; empty: every AwayFromGhosts launch first,
// as one stream runs them): the box's own planes (and every plane it would give a neighbour)
// equal to the last bit. The ghost planes land just before the first BesideGhosts launch.
void expect_parts_equal_whole(const Box& box, Step step, std::vector<bool> order = {}) {
  const StepLaunches launches = step(box);
  if (order.empty()) {
    order.assign(launches.launches.size(), false);
    order.resize(2 * launches.launches.size(), true);
  }
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-1, 1);
  Fields whole{Planes(std::size_t(box.nz)), Planes(std::size_t(box.nz)), Planes(std::size_t(box.nz))};
  for (double& v : whole.u) v = value(random);
  whole.a = whole.b = whole.u;  // the boundary layer in every field, as the backends prepare them
  Fields parts = whole;
  for (int n = 0; n < 3; ++n) {
    fill_ghosts(box, whole.u, n);
    run(box, step, whole, StepPart::Whole);

    const Planes sent = edges(box, parts.u);
    poison_ghosts(box, parts.u);
    std::size_t away = 0, beside = 0;
    for (bool next_beside : order) {
      if (!next_beside) {
        launches.launches[away++](parts, StepPart::AwayFromGhosts);
        continue;
      }
      if (beside == 0) {
        ASSERT_EQ(edges(box, parts.u), sent) << "a plane the exchange sends was written while it travelled";
        fill_ghosts(box, parts.u, n);
      }
      launches.launches[beside++](parts, StepPart::BesideGhosts);
    }
    if (launches.swaps) std::swap(parts.u, parts.a);
  }
  const int g = box.sides.planes;
  for (int z = box.sides.lower ? g : 0; z < (box.sides.upper ? box.nz - g : box.nz); ++z)
    ASSERT_TRUE(same_bits(parts.u[std::size_t(z)], whole.u[std::size_t(z)]))
        << "plane " << z << " of " << box.nz << " at r " << box.r << ": " << parts.u[std::size_t(z)] << " vs "
        << whole.u[std::size_t(z)];
}

// The orders of a step's `n` launches that PartStreams (solver/cuda/cuda_backend.cuh) allows,
// as in expect_parts_equal_whole: each part's launches in order, BesideGhosts launch i after
// AwayFromGhosts launch i - 1. Launches that may run at the same time give the same bits in
// either order (on random values) only if neither reads what the other writes.
std::vector<std::vector<bool>> overlapped_orders(int n) {
  std::vector<std::vector<bool>> orders;
  for (unsigned mask = 0; mask < (1u << (2 * n)); ++mask) {
    std::vector<bool> order;
    int away = 0, beside = 0;
    bool allowed = true;
    for (int i = 0; i < 2 * n; ++i) {
      const bool next_beside = (mask >> i) & 1u;
      order.push_back(next_beside);
      if (!next_beside) {
        ++away;
      } else {
        allowed = allowed && (beside == 0 || away >= beside);
        ++beside;
      }
    }
    if (allowed && away == n) orders.push_back(order);
  }
  return orders;
}

struct Form {
  const char* name;
  Step step;
  int ghosts_per_radius;  // 4 for the tiled forms (GhostScheme::PerStep), 1 for a pass per exchange
};

const Form kTiledForms[] = {
    {"single passes", single_passes, 4}, {"factor pairs", factor_pairs, 4}, {"four passes", four_passes, 4}};

// A box of `form`'s ghost planes at radius r on `sides` (bit 0 lower, bit 1 upper) with own * r
// own planes, but never fewer than the ghost planes (the decomposition's rule).
Box box_of(const Form& form, int r, int own, int sides) {
  const int g = form.ghosts_per_radius * r;
  const GhostSides ghost{(sides & 1) != 0, (sides & 2) != 0, g};
  const int nz = std::max(own * r, g) + (ghost.lower ? g : r) + (ghost.upper ? g : r);
  return Box{nz, r, ghost};
}

TEST(StepPlanes, PartsGiveTheWholeStepsBitsForEveryFormRadiusAndSide) {
  std::vector<Form> forms(std::begin(kTiledForms), std::end(kTiledForms));
  forms.push_back({"a pass per exchange", one_pass, 1});
  for (const Form& form : forms)
    for (int r = 1; r <= 4; ++r)
      for (int own : {1, 2, 3, 5, 8, 16, 40})
        for (int sides = 1; sides < 4; ++sides) {
          const Box box = box_of(form, r, own, sides);
          SCOPED_TRACE(std::string(form.name) + ", r " + std::to_string(r) + ", nz " + std::to_string(box.nz) +
                       ", sides " + std::to_string(sides));
          expect_parts_equal_whole(box, form.step);
          if (::testing::Test::HasFatalFailure()) return;
        }
}

TEST(StepPlanes, BesideGhostsLaunchesMayRunBesideTheAwayLaunchesAfterThem) {
  for (const Form& form : kTiledForms)
    for (int r = 1; r <= 4; ++r)
      for (int own : {1, 2, 5, 16})
        for (int sides = 1; sides < 4; ++sides) {
          const Box box = box_of(form, r, own, sides);
          const std::vector<std::vector<bool>> orders = overlapped_orders(int(form.step(box).launches.size()));
          ASSERT_GE(orders.size(), form.step(box).launches.size());
          for (const std::vector<bool>& order : orders) {
            std::string named;
            for (bool next_beside : order) named += next_beside ? 'B' : 'A';
            SCOPED_TRACE(std::string(form.name) + ", r " + std::to_string(r) + ", nz " + std::to_string(box.nz) +
                         ", sides " + std::to_string(sides) + ", order " + named);
            expect_parts_equal_whole(box, form.step, order);
            if (::testing::Test::HasFatalFailure()) return;
          }
        }
}

TEST(StepPlanes, PartsCoverEveryPlaneOnceAndAwayReadsNoGhost) {
  for (int r = 1; r <= 4; ++r)
    for (int nz : {9 * r, 17 * r + 1, 40 * r + 3})
      for (int sides = 0; sides < 4; ++sides) {
        const GhostSides ghost{(sides & 1) != 0, (sides & 2) != 0, 4 * r};
        const StepPlanes planes(nz, r, ghost);
        for (int pass = 1; pass <= 4; ++pass) {
          std::vector<int> written(std::size_t(nz), 0);
          for (StepPart part : {StepPart::AwayFromGhosts, StepPart::BesideGhosts})
            for (PlaneRange p : planes.of(part, pass))
              for (int z = p.first; z < p.last; ++z) ++written[std::size_t(z)];
          // The later passes read (4 - pass) r ghost planes of this one's output; the outer ones it leaves.
          const int left = 4 * r - (4 - pass) * r;
          const int first = ghost.lower ? left : r, last = ghost.upper ? nz - left : nz - r;
          for (int z = 0; z < nz; ++z)
            EXPECT_EQ(written[std::size_t(z)], z >= first && z < last ? 1 : 0) << "plane " << z << " pass " << pass;
          for (PlaneRange p : planes.of(StepPart::AwayFromGhosts, pass)) {
            if (p.empty()) continue;
            if (ghost.lower) EXPECT_GE(p.first - pass * r, 4 * r);
            if (ghost.upper) EXPECT_LE(p.last + pass * r, nz - 4 * r);
          }
          const auto whole = planes.of(StepPart::Whole, pass);
          EXPECT_EQ(whole[0].first, first);
          EXPECT_EQ(whole[0].last, last);
          EXPECT_TRUE(whole[1].empty());
        }
        const PlaneRange own = planes.own();
        EXPECT_EQ(own.first, ghost.lower ? 4 * r : 0);
        EXPECT_EQ(own.last, ghost.upper ? nz - 4 * r : nz);
      }
}

// A line of planes split into boxes with 4r ghost planes, each step's ghosts filled from the
// neighbours' own planes and the step run in parts around it: every box's own planes equal to the
// whole line's, bit for bit. The fields a pass writes start as NaN inside the boundary layer (as
// the backends poison them), so a plane a pass reads that no earlier pass wrote shows.
struct LineBox {
  int begin;  // the line's index of the box's first plane
  Box box;
  Fields f;
};

std::vector<LineBox> split_line(const Planes& line, int r, int ranks) {
  const int g = 4 * r, interior = int(line.size()) - 2 * r;
  std::vector<LineBox> boxes;
  for (int rank = 0; rank < ranks; ++rank) {
    const int own_begin = r + interior * rank / ranks, own_end = r + interior * (rank + 1) / ranks;
    const GhostSides sides{rank > 0, rank + 1 < ranks, g};
    const int begin = own_begin - (sides.lower ? g : r), end = own_end + (sides.upper ? g : r);
    LineBox b{begin, Box{end - begin, r, sides}, {}};
    b.f.u.assign(line.begin() + begin, line.begin() + end);
    b.f.a = b.f.b = b.f.u;
    for (int z = r; z < b.box.nz - r; ++z)
      b.f.a[std::size_t(z)] = b.f.b[std::size_t(z)] = std::numeric_limits<double>::quiet_NaN();
    boxes.push_back(std::move(b));
  }
  return boxes;
}

void fill_from_neighbours(std::vector<LineBox>& boxes) {
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    LineBox& b = boxes[i];
    const int g = b.box.sides.planes;
    for (int z = 0; z < g; ++z) {
      if (b.box.sides.lower) {
        const LineBox& n = boxes[i - 1];
        b.f.u[std::size_t(z)] = n.f.u[std::size_t(b.begin + z - n.begin)];
      }
      if (b.box.sides.upper) {
        const LineBox& n = boxes[i + 1];
        const int at = b.begin + b.box.nz - g + z;
        b.f.u[std::size_t(b.box.nz - g + z)] = n.f.u[std::size_t(at - n.begin)];
      }
    }
  }
}

TEST(StepPlanes, BoxesStepTheirOwnPlanesAsTheWholeLineDoes) {
  for (const Form& form : kTiledForms)
    for (int r = 1; r <= 4; ++r)
      for (int ranks : {2, 3})
        for (int own : {4, 5, 9}) {
          SCOPED_TRACE(std::string(form.name) + ", r " + std::to_string(r) + ", ranks " + std::to_string(ranks) +
                       ", own " + std::to_string(own));
          const int n = ranks * own * r + 2 * r;
          std::mt19937_64 random{std::uint64_t(n)};
          std::uniform_real_distribution<double> value(-1, 1);
          Fields line{Planes(std::size_t(n)), {}, {}};
          for (double& v : line.u) v = value(random);
          std::vector<LineBox> boxes = split_line(line.u, r, ranks);
          line.a = line.b = line.u;
          for (int step = 0; step < 3; ++step) {
            run(Box{n, r, {}}, form.step, line, StepPart::Whole);
            for (LineBox& b : boxes) poison_ghosts(b.box, b.f.u);
            for (LineBox& b : boxes) run(b.box, form.step, b.f, StepPart::AwayFromGhosts);
            fill_from_neighbours(boxes);
            for (LineBox& b : boxes) run(b.box, form.step, b.f, StepPart::BesideGhosts);
          }
          for (const LineBox& b : boxes) {
            const PlaneRange own = StepPlanes(b.box.nz, r, b.box.sides).own();
            for (int z = own.first; z < own.last; ++z)
              ASSERT_TRUE(same_bits(b.f.u[std::size_t(z)], line.u[std::size_t(b.begin + z)]))
                  << "line plane " << b.begin + z << ": " << b.f.u[std::size_t(z)] << " vs "
                  << line.u[std::size_t(b.begin + z)];
          }
        }
}

}  // namespace
}  // namespace heat
