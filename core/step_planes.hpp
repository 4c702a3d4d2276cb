// Which planes of a box each pass of a step writes when the step overlaps the exchange of its
// ghost planes (docs/design.md §7). HaloOverlap::InteriorFirst: first, while the exchange travels,
// the planes whose values read no ghost plane; then, once it has landed, the rest.
// HaloOverlap::EdgesFirst: the step's launches up to an exchange whole, but the one before it; of
// that one first the planes that the neighbours' ghost planes copy, then the rest while they
// travel.
#pragma once

#include <algorithm>
#include <array>

#include "core/ghost_exchange.hpp"

namespace heat {

// Planes [first, last) of a box along z.
struct PlaneRange {
  int first = 0;
  int last = 0;
  bool empty() const { return last <= first; }
  int size() const { return empty() ? 0 : last - first; }
};

// The parts a step runs in.
enum class StepPart {
  Whole,            // every plane: a box without neighbours, or an exchange finished before the step
  AwayFromGhosts,   // InteriorFirst, between the exchange's start() and finish()
  BesideGhosts,     // InteriorFirst, after finish(): what AwayFromGhosts left
  LeadingLaunches,  // EdgesFirst: a segment's launches but its last, whole
  Edges,            // EdgesFirst: the segment's last launch's planes that the neighbours' ghost planes copy
  Inside,           // EdgesFirst, between start() and finish(): what Edges left of that launch
};

// The output planes of a box's passes, split by part. With g ghost planes a side, the ghost planes
// are exchanged every E = g / r passes (GhostScheme: PerStep's 4r once a step, PerHalfStep's 2r
// after passes 2 and 4, PerStage's r before every pass), the step's passes falling in 4 / E
// segments that each end with an exchange. A launch whose last pass is pass s of the step (1 to
// 4) writes the planes the rest of its segment reads: its own planes, the boundary layer's r
// planes left alone on a side without a neighbour, and on a side with ghost planes the inner
// (passes left in the segment) * r of them (with PerStep pass 1 writes 3r and pass 4 none; with
// PerHalfStep passes 1 and 3 write r). Through its passes since the exchange the launch reads the
// input up to that many r planes from each plane it writes, so from there on beyond a side's
// ghost planes it reads none of them: those are its AwayFromGhosts planes. Where a launch has
// none, BesideGhosts is all of its planes.
//
// InteriorFirst (one exchange a step): running every launch's AwayFromGhosts planes, then every
// launch's BesideGhosts planes, each in the step's order, gives the bits of the whole launches in
// order where no launch overwrites, in its AwayFromGhosts part, what a launch before it reads in
// its BesideGhosts part. For the tiled backend's forms that holds with 4r ghost planes
// (test_step_planes checks them): a launch ending with pass s writes from 4r + s*r on, and what
// the launches before it read in their BesideGhosts part ends before that; the exchange reads the
// edge planes [4r, 8r) and writes the ghost planes, which no AwayFromGhosts part writes or reads.
//
// EdgesFirst: a segment's last launch writes, in its Edges part, the own planes [g, 2g) beside
// each ghost side, which the exchange sends; its Inside part writes the rest and reads no ghost
// plane of the field it writes, which the exchange fills. So the exchange of the segment's output
// travels while its Inside part runs, and the next segment (or step) finds its ghost planes filled.
class StepPlanes {
 public:
  // A box of nz planes at stencil radius r, with ghost planes on `sides` (a multiple of r: 1, 2 or
  // 4 times it).
  StepPlanes(int nz, int radius, GhostSides sides = {})
      : nz_(nz), r_(radius), sides_(sides), every_(sides.planes > 0 ? sides.planes / radius : kPassesPerStep) {}

  // The planes of `part` of the launch whose last pass is `pass`: up to two ranges, the unused
  // ones empty. EdgesFirst's parts are of `segment`: launches of the other segments write nothing.
  std::array<PlaneRange, 2> of(StepPart part, int pass, int segment = 0) const {
    const PlaneRange all = written(pass);
    const PlaneRange away = away_from_ghosts(pass);
    const bool mine = (pass - 1) / every_ == segment, ends_segment = pass % every_ == 0;
    switch (part) {
      case StepPart::Whole:
        return {all, PlaneRange{}};
      case StepPart::AwayFromGhosts:
        return {away, PlaneRange{}};
      case StepPart::BesideGhosts:
        break;
      case StepPart::LeadingLaunches:
        return {mine && !ends_segment ? all : PlaneRange{}, PlaneRange{}};
      case StepPart::Edges:
        return mine && ends_segment ? edges() : std::array<PlaneRange, 2>{};
      case StepPart::Inside:
        return {mine && ends_segment ? inside() : PlaneRange{}, PlaneRange{}};
    }
    if (away.empty()) return {all, PlaneRange{}};
    return {PlaneRange{all.first, away.first}, PlaneRange{away.last, all.last}};
  }

  // The exchanges a step makes (EdgesFirst's segments): 4 / E.
  int segments() const { return kPassesPerStep / every_; }
  // The last pass of `segment`, whose output its exchange sends.
  int last_pass_of(int segment) const { return (segment + 1) * every_; }

  // The box's planes that are not ghost planes: what the rank steps for the whole field.
  PlaneRange own() const {
    return PlaneRange{sides_.lower ? sides_.planes : 0, sides_.upper ? nz_ - sides_.planes : nz_};
  }

 private:
  static constexpr int kPassesPerStep = 4;

  // On a ghost side the rest of the segment reads pass `pass`'s output from (passes left in it) r
  // planes before the own planes on; the outer planes, never fewer than r, are left as they are.
  PlaneRange written(int pass) const {
    const int passes_left = every_ - 1 - (pass - 1) % every_;
    const int left = std::max(r_, sides_.planes - passes_left * r_);
    return PlaneRange{sides_.lower ? left : r_, sides_.upper ? nz_ - left : nz_ - r_};
  }

  PlaneRange away_from_ghosts(int pass) const {
    const int reach = ((pass - 1) % every_ + 1) * r_;
    const PlaneRange away{sides_.lower ? sides_.planes + reach : r_,
                          sides_.upper ? nz_ - sides_.planes - reach : nz_ - r_};
    return away.empty() ? PlaneRange{} : away;
  }

  // The own planes a neighbour's ghost planes copy: the first and last g on ghost sides, one
  // range where they meet.
  std::array<PlaneRange, 2> edges() const {
    const PlaneRange mine = own();
    const PlaneRange lower{mine.first, sides_.lower ? std::min(mine.first + sides_.planes, mine.last) : mine.first};
    const PlaneRange upper{sides_.upper ? std::max(mine.last - sides_.planes, mine.first) : mine.last, mine.last};
    if (!lower.empty() && !upper.empty() && upper.first <= lower.last) return {PlaneRange{lower.first, upper.last}, {}};
    return {lower.empty() ? PlaneRange{} : lower, upper.empty() ? PlaneRange{} : upper};
  }

  // The segment's last launch writes the own planes and the boundary layer's inner side; less the edges.
  PlaneRange inside() const {
    const PlaneRange all = written(every_);
    const PlaneRange in{sides_.lower ? all.first + sides_.planes : all.first,
                        sides_.upper ? all.last - sides_.planes : all.last};
    return in.empty() ? PlaneRange{} : in;
  }

  int nz_, r_;
  GhostSides sides_;
  int every_;  // passes between exchanges
};

}  // namespace heat
