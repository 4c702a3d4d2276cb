// Which planes of a box each pass of a step writes when the step overlaps the exchange of its
// ghost planes (HaloOverlap::InteriorFirst, docs/design.md §7): first, while the exchange travels,
// the planes whose values read no ghost plane; then, once it has landed, the rest.
#pragma once

#include <algorithm>
#include <array>

#include "solver/ghost_exchange.hpp"

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
  Whole,           // every plane: a box without neighbours, or an exchange finished before the step
  AwayFromGhosts,  // between the exchange's start() and finish()
  BesideGhosts,    // after finish(): what AwayFromGhosts left
};

// The output planes of a box's passes, split by part. A launch whose last pass is pass s of the
// step (1 to 4; 1 for a backend that exchanges before every pass) writes the planes the rest of
// the step reads: its own planes, the boundary layer's r planes left alone on a side without a
// neighbour, and on a side with g ghost planes the inner min(g - r, (4 - s) r) of them (with
// PerStep's 4r, pass 1 writes 3r and pass 4 none; with PerStage's r, none). Through its passes
// the launch reads the input up to s*r planes from each plane it writes, so from s*r planes
// beyond a side's ghost planes on it reads none of them: those are its AwayFromGhosts planes.
// Where a launch has none, BesideGhosts is all of its planes.
//
// Running every launch's AwayFromGhosts planes, then every launch's BesideGhosts planes, each in
// the step's order, gives the bits of the whole launches in order where no launch overwrites, in
// its AwayFromGhosts part, what a launch before it reads in its BesideGhosts part. For the tiled
// backend's forms that holds with 4r ghost planes (test_step_planes checks them): a launch ending
// with pass s writes from 4r + s*r on, and what the launches before it read in their
// BesideGhosts part ends before that; the exchange reads the edge planes [4r, 8r) and writes the
// ghost planes, which no AwayFromGhosts part writes or reads.
class StepPlanes {
 public:
  // A box of nz planes at stencil radius r, with ghost planes on `sides`.
  StepPlanes(int nz, int radius, GhostSides sides = {}) : nz_(nz), r_(radius), sides_(sides) {}

  // The planes of `part` of the launch whose last pass is `pass`: up to two ranges, the unused
  // ones empty.
  std::array<PlaneRange, 2> of(StepPart part, int pass) const {
    const PlaneRange all = written(pass);
    const PlaneRange away = away_from_ghosts(pass);
    switch (part) {
      case StepPart::Whole:
        return {all, PlaneRange{}};
      case StepPart::AwayFromGhosts:
        return {away, PlaneRange{}};
      case StepPart::BesideGhosts:
        break;
    }
    if (away.empty()) return {all, PlaneRange{}};
    return {PlaneRange{all.first, away.first}, PlaneRange{away.last, all.last}};
  }

  // The box's planes that are not ghost planes: what the rank steps for the whole field.
  PlaneRange own() const {
    return PlaneRange{sides_.lower ? sides_.planes : 0, sides_.upper ? nz_ - sides_.planes : nz_};
  }

 private:
  static constexpr int kPassesPerStep = 4;

  // On a ghost side the rest of the step reads pass `pass`'s output from (kPassesPerStep - pass) r
  // planes before the own planes on; the outer planes, never fewer than r, are left as they are.
  PlaneRange written(int pass) const {
    const int left = std::max(r_, sides_.planes - (kPassesPerStep - pass) * r_);
    return PlaneRange{sides_.lower ? left : r_, sides_.upper ? nz_ - left : nz_ - r_};
  }

  PlaneRange away_from_ghosts(int pass) const {
    const int reach = pass * r_;
    const PlaneRange away{sides_.lower ? sides_.planes + reach : r_,
                          sides_.upper ? nz_ - sides_.planes - reach : nz_ - r_};
    return away.empty() ? PlaneRange{} : away;
  }

  int nz_, r_;
  GhostSides sides_;
};

}  // namespace heat
