// StepPlanes (core/step_planes.hpp): a step run in parts around its exchanges gives the bits
// of the whole step: edges first for each way the tiled backend groups the passes into launches,
// interior first for the cpu backend's single passes. The check runs the forms along z alone (one
// value per plane, a three-point-per-side stencil of any radius): the planes each launch writes and reads, and
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

#include "core/step_planes.hpp"

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
using Operand = Planes Fields::*;
// A launch on its planes of a part, in a segment (StepPlanes::of), and the field it writes.
struct Launch {
  std::function<void(Fields&, StepPart, int segment)> run;
  int last_pass;
  Operand out;
  void operator()(Fields& f, StepPart part, int segment = 0) const { run(f, part, segment); }
};
struct StepLaunches {
  std::vector<Launch> launches;
  bool swaps = false;
};
using Step = StepLaunches (*)(const Box&);

// A launch of `passes` chained passes from `in` on `base` into `out`, its last pass `last_pass`.
Launch passes(const Box& box, Operand in, Operand base, std::vector<double> c, Operand out, int last_pass) {
  return Launch{[=](Fields& f, StepPart part, int segment) {
                  for (PlaneRange p : StepPlanes(box.nz, box.r, box.sides).of(part, last_pass, segment))
                    launch(box, f.*in, f.*base, c, f.*out, p);
                },
                last_pass, out};
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

// Interior first: three steps whole after each exchange, and three in parts around it, every
// AwayFromGhosts launch first: the box's own planes (and every plane it would give a neighbour)
// equal to the last bit. The ghost planes land just before the first BesideGhosts launch.
void expect_parts_equal_whole(const Box& box, Step step) {
  const StepLaunches launches = step(box);
  std::vector<bool> order(launches.launches.size(), false);
  order.resize(2 * launches.launches.size(), true);
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

struct Form {
  const char* name;
  Step step;
};

const Form kTiledForms[] = {{"single passes", single_passes}, {"factor pairs", factor_pairs}, {"four passes", four_passes}};

// The cpu backend's passes, r ghost planes exchanged before each (PerStage).
TEST(StepPlanes, InteriorFirstGivesTheWholePassesBitsForEveryRadiusAndSide) {
  for (int r = 1; r <= 4; ++r)
    for (int own : {1, 2, 3, 5, 8, 16, 40})
      for (int sides = 1; sides < 4; ++sides) {
        const GhostSides ghost{(sides & 1) != 0, (sides & 2) != 0, r};
        const Box box{own * r + 2 * r, r, ghost};  // r ghost planes or the boundary layer a side
        SCOPED_TRACE("r " + std::to_string(r) + ", nz " + std::to_string(box.nz) + ", sides " + std::to_string(sides));
        expect_parts_equal_whole(box, one_pass);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

TEST(StepPlanes, InteriorFirstPartsCoverEveryPlaneOnceAndAwayReadsNoGhost) {
  for (int r = 1; r <= 4; ++r)
    for (int nz : {3 * r, 17 * r + 1, 40 * r + 3})
      for (int sides = 0; sides < 4; ++sides) {
        const GhostSides ghost{(sides & 1) != 0, (sides & 2) != 0, sides ? r : 0};
        const StepPlanes planes(nz, r, ghost);
        std::vector<int> written(std::size_t(nz), 0);
        for (StepPart part : {StepPart::AwayFromGhosts, StepPart::BesideGhosts})
          for (PlaneRange p : planes.of(part, 1))
            for (int z = p.first; z < p.last; ++z) ++written[std::size_t(z)];
        // The pass writes every plane but the outer r: the ghost planes or the boundary layer.
        for (int z = 0; z < nz; ++z)
          EXPECT_EQ(written[std::size_t(z)], z >= r && z < nz - r ? 1 : 0) << "plane " << z << " sides " << sides;
        for (PlaneRange p : planes.of(StepPart::AwayFromGhosts, 1)) {
          if (p.empty()) continue;
          if (ghost.lower) EXPECT_GE(p.first - r, r);
          if (ghost.upper) EXPECT_LE(p.last + r, nz - r);
        }
        const auto whole = planes.of(StepPart::Whole, 1);
        EXPECT_EQ(whole[0].first, r);
        EXPECT_EQ(whole[0].last, nz - r);
        EXPECT_TRUE(whole[1].empty());
      }
}

// A line of planes split into boxes with g ghost planes, the ghosts filled from the neighbours' own
// planes and the step run in parts around each exchange: every box's own planes equal to the
// whole line's, bit for bit. The fields a pass writes start as NaN inside the boundary layer (as
// the backends poison them), so a plane a pass reads that no earlier pass wrote shows.
struct LineBox {
  int begin;  // the line's index of the box's first plane
  Box box;
  Fields f;
};

std::vector<LineBox> split_line(const Planes& line, int r, int ranks, int g) {
  const int interior = int(line.size()) - 2 * r;
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

// The exchange of `field`'s ghost planes.
void fill_from_neighbours(std::vector<LineBox>& boxes, Operand field = &Fields::u) {
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    LineBox& b = boxes[i];
    const int g = b.box.sides.planes;
    for (int z = 0; z < g; ++z) {
      if (b.box.sides.lower) {
        const LineBox& n = boxes[i - 1];
        (b.f.*field)[std::size_t(z)] = (n.f.*field)[std::size_t(b.begin + z - n.begin)];
      }
      if (b.box.sides.upper) {
        const LineBox& n = boxes[i + 1];
        const int at = b.begin + b.box.nz - g + z;
        (b.f.*field)[std::size_t(b.box.nz - g + z)] = (n.f.*field)[std::size_t(at - n.begin)];
      }
    }
  }
}

void expect_own_planes_equal_line(const std::vector<LineBox>& boxes, const Fields& line, int r) {
  for (const LineBox& b : boxes) {
    const PlaneRange own = StepPlanes(b.box.nz, r, b.box.sides).own();
    for (int z = own.first; z < own.last; ++z)
      ASSERT_TRUE(same_bits(b.f.u[std::size_t(z)], line.u[std::size_t(b.begin + z)]))
          << "line plane " << b.begin + z << ": " << b.f.u[std::size_t(z)] << " vs " << line.u[std::size_t(b.begin + z)];
  }
}

Fields random_line(int n) {
  std::mt19937_64 random{std::uint64_t(n)};
  std::uniform_real_distribution<double> value(-1, 1);
  Fields line{Planes(std::size_t(n)), {}, {}};
  for (double& v : line.u) v = value(random);
  return line;
}

// Edges first (HaloOverlap::EdgesFirst): each segment's launches but its last whole, then that
// one's Edges part, then its Inside part while the exchange of its output travels: the exchanged
// field's ghost planes hold NaN from the Edges part's end until the exchange fills them, and its
// edge planes stay as the Edges part left them. The forms whose launches end with passes 2 and 4
// exchange after each (2r ghost planes, PerHalfStep) or once a step (4r, PerStep).
TEST(StepPlanes, EdgesFirstBoxesStepTheirOwnPlanesAsTheWholeLineDoes) {
  struct Scheme {
    const Form* form;
    int ghosts_per_radius;
  };
  std::vector<Scheme> schemes;
  for (const Form& form : kTiledForms) {
    schemes.push_back({&form, 4});
    if (form.step != four_passes) schemes.push_back({&form, 2});
  }
  for (const Scheme& scheme : schemes)
    for (int r = 1; r <= 4; ++r)
      for (int ranks : {2, 3})
        for (int own : {4, 5, 9}) {
          const int g = scheme.ghosts_per_radius * r;
          SCOPED_TRACE(std::string(scheme.form->name) + ", ghosts " + std::to_string(g) + ", r " + std::to_string(r) +
                       ", ranks " + std::to_string(ranks) + ", own " + std::to_string(own));
          const int n = ranks * own * r + 2 * r;
          Fields line = random_line(n);
          std::vector<LineBox> boxes = split_line(line.u, r, ranks, g);
          line.a = line.b = line.u;
          fill_from_neighbours(boxes);
          const int segments = StepPlanes(boxes[0].box.nz, r, boxes[0].box.sides).segments();
          ASSERT_EQ(segments, 4 / scheme.ghosts_per_radius);
          for (int step = 0; step < 3; ++step) {
            run(Box{n, r, {}}, scheme.form->step, line, StepPart::Whole);
            for (int segment = 0; segment < segments; ++segment) {
              const int last_pass = StepPlanes(boxes[0].box.nz, r, boxes[0].box.sides).last_pass_of(segment);
              const StepLaunches launches = scheme.form->step(boxes[0].box);
              Operand exchanged = nullptr;
              for (const Launch& l : launches.launches)
                if (l.last_pass == last_pass) exchanged = l.out;
              ASSERT_NE(exchanged, nullptr) << "no launch ends with pass " << last_pass;
              std::vector<Planes> sent;
              for (LineBox& b : boxes) {
                const StepLaunches mine = scheme.form->step(b.box);
                for (const Launch& l : mine.launches) l(b.f, StepPart::LeadingLaunches, segment);
                for (const Launch& l : mine.launches) l(b.f, StepPart::Edges, segment);
                sent.push_back(edges(b.box, b.f.*exchanged));
                poison_ghosts(b.box, b.f.*exchanged);
                for (const Launch& l : mine.launches) l(b.f, StepPart::Inside, segment);
              }
              for (std::size_t i = 0; i < boxes.size(); ++i)
                ASSERT_EQ(edges(boxes[i].box, boxes[i].f.*exchanged), sent[i])
                    << "an edge plane was written while the exchange travelled";
              fill_from_neighbours(boxes, exchanged);
              if (launches.swaps && segment + 1 == segments)
                for (LineBox& b : boxes) std::swap(b.f.u, b.f.a);
            }
          }
          expect_own_planes_equal_line(boxes, line, r);
          if (::testing::Test::HasFatalFailure()) return;
        }
}

TEST(StepPlanes, EdgesFirstPartsCoverEveryWrittenPlaneOnceAndEdgesAreTheSentPlanes) {
  for (int every : {1, 2, 4})
    for (int r = 1; r <= 4; ++r)
      for (int nz : {9 * r, 17 * r + 1, 40 * r + 3})
        for (int sides = 0; sides < 4; ++sides) {
          const GhostSides ghost{(sides & 1) != 0, (sides & 2) != 0, sides ? every * r : 0};
          if (nz < 2 * ghost.planes + 2 * r) continue;
          const StepPlanes planes(nz, r, ghost);
          for (int pass = 1; pass <= 4; ++pass) {
            std::vector<int> written(std::size_t(nz), 0);
            for (int segment = 0; segment < planes.segments(); ++segment)
              for (StepPart part : {StepPart::LeadingLaunches, StepPart::Edges, StepPart::Inside})
                for (PlaneRange p : planes.of(part, pass, segment))
                  for (int z = p.first; z < p.last; ++z) ++written[std::size_t(z)];
            const PlaneRange whole = planes.of(StepPart::Whole, pass)[0];
            for (int z = 0; z < nz; ++z)
              EXPECT_EQ(written[std::size_t(z)], z >= whole.first && z < whole.last ? 1 : 0)
                  << "plane " << z << " pass " << pass << " every " << every;
            for (int segment = 0; segment < planes.segments(); ++segment)
              for (PlaneRange p : planes.of(StepPart::Edges, pass, segment)) {
                if (p.empty()) continue;
                const PlaneRange own = planes.own();
                EXPECT_TRUE((ghost.lower && p.first == own.first) || (ghost.upper && p.last == own.last));
                EXPECT_LE(p.size(), std::max(2 * ghost.planes, own.size()));
              }
          }
        }
}

}  // namespace
}  // namespace heat
