// The seam between a backend and the ranks of a distributed run (docs/design.md §7): what fills a
// box's ghost planes, and how wide they are. A backend that steps one rank's box is made with a
// HaloExchange (BackendEntry::make) and calls it with each field it is about to read across z;
// the implementations (MPI between host buffers, NCCL or host staging between device buffers)
// live in parallel/, which depends on this header and never the other way round.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "core/boundary_conditions.hpp"

namespace heat {

// How the ghost planes are kept right (benchmarks/distributed_model.md models them). Each
// registry entry declares its own per order (BackendEntry::ghost_scheme), so it can be chosen by
// measurement.
enum class GhostScheme {
  // r ghost planes, exchanged before every RK4 stage (u, then each stage input).
  PerStage,
  // 4r ghost planes, exchanged once per step (u before the first stage). Stage s is right on all
  // but the outer s*r ghost planes, so after four stages every own plane is right: for backends
  // that fuse the stages into one kernel.
  PerStep,
  // 2r ghost planes, exchanged twice per step: u before the first stage, and the third stage's input
  // before it. The first and third stages are right on all but the outer r ghost planes: for
  // backends whose kernels end with the second and fourth stages.
  PerHalfStep,
};

// Ghost planes per side under a scheme at stencil radius r.
inline int ghost_planes(GhostScheme scheme, int radius) {
  switch (scheme) {
    case GhostScheme::PerStage:
      return radius;
    case GhostScheme::PerHalfStep:
      return 2 * radius;
    case GhostScheme::PerStep:
      break;
  }
  return 4 * radius;
}

// The sides of a rank's box that have a neighbour, and so ghost planes, and how many planes each
// (along z; across x and y where the rank grid splits them).
struct GhostSides {
  bool lower = false;
  bool upper = false;
  int planes = 0;
  // The ranks fill ghosts around every pass (fills_ghosts): a face's condition is not layer, or z
  // is periodic across ranks (the ghost planes beyond a grid's end are then planes of the field
  // a rank writes, which must hold the step's values after every step). The same on every rank.
  bool fills_ghosts = false;
  // A face of the whole grid radiates: every rank steps RK4's stage form (steps_stage_form), a
  // radiating face of its own box or not.
  bool radiates = false;
  // On a rank grid that splits x or y: whether the box has `planes` ghost points beside its lower
  // ([axis][0]) and upper ([axis][1]) side across x (axis 0) and y (1).
  std::array<std::array<bool, 2>, 2> across{};
};

// Whether a backend computes what reads no ghost plane while an exchange travels (between its
// start and finish), or exchanges first and computes after. Either gives the same bits.
enum class HaloOverlap {
  Off,            // exchange(), then the pass over every plane
  InteriorFirst,  // start(); the planes that read no ghost plane; finish(); the planes beside the ghosts
  // The step's last launch writes the planes its neighbours' ghost planes copy first; start(); the
  // rest of that launch; finish(), so that the next step finds its ghost planes filled.
  EdgesFirst,
};

// Fills a rank's ghost planes from its neighbours, split in two (AMReX's FillBoundary_nowait and
// FillBoundary_finish) so that a backend may compute what needs no ghost plane in between:
//
//   start(box):  sends this rank's edge planes and posts the receives of its ghost planes. From
//                here until finish() returns, the edge planes must not be written nor the ghost
//                planes read.
//   finish():    returns once the ghost planes hold the neighbours' values (host exchanges), or
//                once that is enqueued on the stream the exchange was made with, before any work
//                enqueued there afterwards (device exchanges).
//
// Every rank starts and finishes the same number of exchanges, in the same order. A rank without
// a neighbour on a side leaves that side as it is. The box pointer lives where the exchange works:
// host memory for MPI, device memory for the GPU routes.
template <typename T>
class HaloExchange {
 public:
  virtual ~HaloExchange() = default;
  virtual void start(T* box) = 0;
  virtual void finish() = 0;
  void exchange(T* box) {
    start(box);
    finish();
  }
  // The ghost points across `axis` alone (0: x, 1: y, 2: z), for a fill that fills each axis's
  // faces between the exchanges (boundary_fill.hpp); exchange() does x, y and z in turn. An
  // exchange of z slabs has nothing to exchange across x and y.
  virtual void exchange_across(T* box, int axis) {
    if (axis == 2) exchange(box);
  }
  // Collective, before the first exchange: whatever the first exchange would pay once (NCCL's
  // communicator and its connections to the neighbours, MPI's first contact), paid now on buffers
  // of its own, so that the run's set-up reports it and the loop's time does not hold it. Not
  // counted in seconds_spent().
  virtual void connect() {}
  // Collective, after connect(), before the boxes hold the field: readies the exchange for each
  // box it will be given, in the same order on every rank, so that no exchange in the loop pays a
  // box's first time (the peer route runs each box's first exchange here: the neighbours'
  // allocations opened, their mappings first touched, milliseconds in all). May fill the boxes'
  // ghost planes, and writes no other plane; not counted in seconds_spent().
  virtual void open(const std::vector<T*>& boxes) { (void)boxes; }
  // The scheme the exchange's ghost planes were laid out for.
  virtual GhostScheme scheme() const = 0;
  // The box's sides this exchange fills.
  virtual GhostSides sides() const = 0;
  // Bytes this rank sends per exchange (it receives as many).
  virtual std::size_t bytes_sent() const = 0;
  // Seconds the exchanges so far took, waiting for the neighbours included: wall time inside
  // start() and finish() on the host (not the work a backend does between them), the stream's
  // time from an exchange's start to its end on the device. For the summary's halo time; a
  // device implementation may wait for its last exchange here.
  virtual double seconds_spent() = 0;
};

// Whether a backend for a problem with `boundaries` (a whole grid, or a rank's box made with
// `exchange`) fills ghosts around its passes: each operand's before it is read, and u's after
// every step and the upload, so that a downloaded field holds ghosts of its own step, and a box's
// exchanges of u follow the fill, not the step. A box asks its exchange, so that every rank,
// whatever its box's faces, exchanges alike.
template <typename T>
bool fills_ghosts(const Boundaries& boundaries, HaloExchange<T>* exchange) {
  return exchange ? exchange->sides().fills_ghosts : !all_layer(boundaries);
}

// Whether a backend for a problem with `boundaries` (a whole grid, or a rank's box made with
// `exchange`) steps RK4's stage form, which a radiation face's fill (not affine in the field)
// needs. A box asks its exchange, as for fills_ghosts: a middle rank's box has no face of the grid,
// and a rank stepping another form would exchange other fields than its neighbours.
template <typename T>
bool steps_stage_form(const Boundaries& boundaries, HaloExchange<T>* exchange) {
  return exchange ? exchange->sides().radiates : any_radiation(boundaries);
}

}  // namespace heat
