// The fast cpu backend, what `--backend cpu` runs: the RK4 step as its two quadratic factors (the
// four passes of stencils/rk4_forms.hpp), cache-blocked and vectorised for the CPU's widest
// instruction set (pass_sweep.hpp). By default the passes go in pairs, a factor per sweep, two
// sweeps a step that move 4 arrays per point (read u, write w; read w, write the new u) against
// the four single passes' 10 and the stage form's 28 (benchmarks/cpu_model.md). Both groupings
// compute every value by the same operations, so they agree bitwise. The factors round
// differently from the stage form, so the result is not bitwise the reference's
// (reference_backend.hpp); it is bitwise the same for any thread count.
//
// One class serves a whole problem and one rank's box of a distributed run (parallel/):
// the box is stepped as if it were the whole problem, and the halo exchange it is made with fills
// the ghost planes of every field a sweep is about to read across z: u before every step, and
// with single passes each pass's operand. With HaloOverlap::InteriorFirst a single pass starts the
// exchange, computes the planes that read no ghost plane while it travels, finishes it and then
// computes the planes beside the ghosts, each plane range a sweep of its own over a sub-box (a
// point's operations do not depend on the block that computes it). Since every rank runs the same
// kernels on rows of the same length, the distributed field is bitwise the single process's.
//
// Faces whose condition is not layer need their ghosts filled before every application of the
// operator (boundary_fill.hpp), so such a problem steps in single passes, each operand filled
// first, and u is filled after the step and the upload (so the next step's first operand is
// ready). In a rank's box the fill runs the exchange: each operand's where the scheme exchanges it
// (every pass's with r ghost planes), and u's after every step, so that a downloaded box holds
// ghost planes of the same step, which a wrapped box's part shows (docs/design.md §7). That is RK4 of the affine system too: with
// Lap_bc v = A v + f, a factor Q_k v = v + a_k dt Lap_bc(v + (b_k/a_k) dt Lap_bc v) adds
// dt (a_k + b_k z) f, and the two factors together dt (1 + z/2 + z^2/6 + z^3/24) f, z = dt A: the
// stage form's, since a1 + a2 = 1, b1 + a1 a2 + b2 = 1/2, a1 b2 + a2 b1 = 1/6, b1 b2 = 1/24.
//
// Material fields (Problem::materials) step the four single passes as plain loops of the flux
// form (material_operator.hpp), each operand filled first where a face is not layer and, in a
// rank's box, exchanged (without overlap): the pass form, not yet blocked nor vectorised by hand.
// A box's materials are its planes of the whole grid's, ghost planes included (box_problem).
//
// A steady source adds dt phi(z) q/C a step the same way: the problem's step increment s
// (core/heat_source.hpp), computed once in set-up, is added in the step's last pass (the second
// sweep of a pair, or the last single pass), which then reads one array more.
#pragma once

#include <cstddef>
#include <utility>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "backends/cpu/boundary_fill.hpp"
#include "backends/cpu/first_nonfinite.hpp"
#include "backends/cpu/pass_sweep.hpp"
#include "backends/cpu/source_step.hpp"
#include "backends/cpu/host_copy.hpp"
#include "backends/cpu/interior_points.hpp"
#include "backends/cpu/material_operator.hpp"
#include "core/dispatch.hpp"
#include "core/heat_source.hpp"
#include "core/step_planes.hpp"
#include "stencils/rk4_forms.hpp"

namespace heat {

enum class CpuPassGrouping {
  Pairs,   // two sweeps a step; the exchange fills u's ghosts (4r: PerStep) before the first
  Singles  // four sweeps a step; the exchange fills each pass's operand's (r: PerStage)
};

template <typename T>
class CpuFastBackend final : public Backend<T> {
 public:
  CpuFastBackend(const Problem& p, const BackendOptions&) : CpuFastBackend(p, nullptr) {}
  // `exchange`: null for a whole grid, else the one that fills the box's ghost planes (outliving
  // the backend), laid out for `grouping`'s scheme.
  CpuFastBackend(const Problem& p, HaloExchange<T>* exchange, CpuPassGrouping grouping = CpuPassGrouping::Pairs,
                 CpuIsa isa = best_cpu_isa(), HaloOverlap overlap = HaloOverlap::InteriorFirst)
      : problem_(p),
        fills_ghosts_(fills_ghosts(p.boundaries, exchange)),
        exchange_(exchange),
        overlap_(overlap),
        planes_(p.grid.nz, p.radius(), exchange ? exchange->sides() : GhostSides{}),
        grouping_(grouping),
        isa_(cpu_isa_for_rows(isa, p.grid.nx - 2 * p.radius(), sizeof(T))),
        constants_(make_factored_constants<T>(p.dt)),
        u_(Field<T>::uninitialized(p.grid)),
        a_(Field<T>::uninitialized(p.grid)),
        b_(Field<T>::uninitialized(p.grid)),
        source_step_(p.source ? field_cast<T>(p.source->step_increment) : Field<T>()),
        materials_(p) {
    with_radius(p.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const auto w = make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz);
      grid_.center = w.center;
      for (int a = 0; a < 3; ++a)
        for (int k = 0; k < kMaxRadius; ++k) grid_.axis[a][k] = k < R ? w.axis[a][k] : T(0);
    });
    grid_.nx = p.grid.nx;
    grid_.ny = p.grid.ny;
    grid_.nz = p.grid.nz;
    grid_.radius = p.radius();
  }

  // The instruction set the sweeps run on.
  CpuIsa isa() const { return isa_; }

  // The boundary layer of every pass's result is u's, so every field starts as u. Collective
  // where the problem fills its faces in a rank's box.
  void upload(const Field<T>& u) override {
    copy_field_points(u, u_);
    if (fills_ghosts_) fill_boundaries(problem_, u_.data(), exchange_);
    for (Field<T>* f : {&a_, &b_}) copy_field_points(u_, *f);
  }

  void step(int count) override {
    for (int n = 0; n < count; ++n) {
      if (!materials_.empty()) step_with_materials();
      else if (fills_ghosts_) step_filling_ghosts();
      else if (grouping_ == CpuPassGrouping::Pairs) step_in_pairs();
      else step_in_single_passes();
    }
  }

  void download(Field<T>& u) override { copy_field_points(u_, u); }
  // The source's increment s = dt phi(dt A) q/C depends on dt too: the shortened step's, which
  // set-up computed over the whole grid (a rank's box takes its planes of it).
  void set_step_dt(double dt) override {
    constants_ = make_factored_constants<T>(dt);
    problem_.dt = dt;
    if (problem_.source) source_step_ = field_cast<T>(source_step_increment_of_dt(problem_, exchange_ == nullptr));
  }

  // In a rank's box, the index is the box's: the rank that finds one ends the job.
  long long first_nonfinite() override { return first_nonfinite_on_host(u_.data(), u_.size()); }

  bool overlaps_exchange() const override {
    return exchange_ && grouping_ == CpuPassGrouping::Singles && overlap_ != HaloOverlap::Off;
  }

 private:
  // The first factor into b from u, then the second into a from b: a becomes u. The new u cannot
  // be written in place, as a block's neighbours read the sweep's input around it for its first
  // pass.
  // With 4r ghost planes one exchange of u serves the step: the first factor leaves b right on
  // all but the outer 2r ghost planes, which is all the second needs.
  void step_in_pairs() {
    if (exchange_) exchange_->exchange(u_.data());
    run_sweep(u_.data(), u_.data(), b_.data(), 2, constants_.c[0], constants_.c[1]);
    run_sweep(b_.data(), b_.data(), a_.data(), 2, constants_.c[2], constants_.c[3], source_step());
    std::swap(u_, a_);
  }

  void step_in_single_passes() {
    factored_rk4_step(
        [&](const BasePlusLap<T>& pass) {
          // The operand is one of this backend's own fields, which the exchange may write.
          T* in = const_cast<T*>(pass.in);
          if (!exchange_) return run_planes(pass, StepPart::Whole);
          if (overlap_ == HaloOverlap::Off) {
            exchange_->exchange(in);
            return run_planes(pass, StepPart::Whole);
          }
          // One pass per exchange: the planes r beyond the ghost planes read none of them (and
          // the exchange reads and writes none of theirs, nor of out).
          exchange_->start(in);
          run_planes(pass, StepPart::AwayFromGhosts);
          exchange_->finish();
          run_planes(pass, StepPart::BesideGhosts);
        },
        u_.data(), a_.data(), b_.data(), constants_, source_step());
  }

  // Each pass's operand filled before it is read, but u's, filled after the step before; with
  // g ghost planes the exchange fills every (g / r)-th pass's operand, the others' inner ghost
  // planes stepped here as the neighbour steps them.
  void step_filling_ghosts() {
    const int passes_per_exchange = exchange_ ? exchange_->sides().planes / problem_.radius() : 1;
    int pass_index = 0;
    factored_rk4_step(
        [&](const BasePlusLap<T>& pass) {
          if (pass_index > 0) {
            const bool exchanged = pass_index % passes_per_exchange == 0;
            fill_boundaries(problem_, const_cast<T*>(pass.in), exchanged ? exchange_ : nullptr);
          }
          ++pass_index;
          run_planes(pass, StepPart::Whole);
        },
        u_.data(), a_.data(), b_.data(), constants_, source_step());
    fill_boundaries(problem_, u_.data(), exchange_);
  }

  void step_with_materials() {
    with_radius(problem_.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const HostMaterialOperator<R, T> flux_form(problem_.grid, materials_);
      int pass_index = 0;
      factored_rk4_step(
          [&](const BasePlusLap<T>& pass) {
            if (pass_index > 0) fill_operand(const_cast<T*>(pass.in));
            ++pass_index;
            for_interior_points(problem_.grid, R, [&](std::size_t n) {
              const T value = base_plus_lap(pass.base[n], pass.c, flux_form(pass.in, n));
              pass.out[n] = pass.add ? value + pass.add[n] : value;
            });
          },
          u_.data(), a_.data(), b_.data(), constants_, source_step());
    });
    fill_operand(u_.data());
  }

  // The ghosts of an operand of the material passes: its faces' where they are not layer, and in
  // a rank's box its ghost planes (r of them: every pass's operand is exchanged).
  void fill_operand(T* in) {
    if (fills_ghosts_)
      fill_boundaries(problem_, in, exchange_);
    else if (exchange_)
      exchange_->exchange(in);
  }

  // One pass on its planes of `part` (StepPlanes) alone.
  void run_planes(const BasePlusLap<T>& pass, StepPart part) {
    for (PlaneRange planes : planes_.of(part, 1))
      if (!planes.empty()) run_planes(pass, planes.first, planes.last);
  }

  // One pass on the planes [z_begin, z_end) alone: a sweep over the sub-box of those planes and
  // the r on either side, which it reads and does not write.
  void run_planes(const BasePlusLap<T>& pass, int z_begin, int z_end) {
    const std::size_t offset = std::size_t(z_begin - grid_.radius) * std::size_t(grid_.nx) * std::size_t(grid_.ny);
    CpuPassSweep<T> sweep = grid_;
    sweep.nz = z_end - z_begin + 2 * grid_.radius;
    sweep.in = pass.in + offset;
    sweep.base = pass.base + offset;
    sweep.out = pass.out + offset;
    sweep.add = pass.add ? pass.add + offset : nullptr;
    sweep.passes = 1;
    sweep.c[0] = pass.c;
    sweep.c[1] = T(0);
    run_pass_sweep(isa_, sweep);
  }

  // `base`: what the passes add to (the factor's input); `add`: what the last adds after them.
  void run_sweep(const T* in, const T* base, T* out, int passes, T c0, T c1, const T* add = nullptr) {
    CpuPassSweep<T> sweep = grid_;
    sweep.in = in;
    sweep.base = base;
    sweep.out = out;
    sweep.add = add;
    sweep.passes = passes;
    sweep.c[0] = c0;
    sweep.c[1] = c1;
    run_pass_sweep(isa_, sweep);
  }

  Problem problem_;        // its boundaries, for the fill (a box's: layer on a side with a neighbour)
  bool fills_ghosts_;  // around each pass, and after the step (fills_ghosts)
  HaloExchange<T>* exchange_;
  HaloOverlap overlap_;
  StepPlanes planes_;  // of single passes, one exchange each
  CpuPassGrouping grouping_;
  CpuIsa isa_;
  PassConstants<T> constants_;
  CpuPassSweep<T> grid_{};  // the grid and the weights; each sweep adds its fields and constants
  Field<T> u_, a_, b_;
  Field<T> source_step_;  // s, empty without a source
  HostMaterialFields<T> materials_;  // empty without material fields

  const T* source_step() const { return source_step_.size() ? source_step_.data() : nullptr; }
};

}  // namespace heat
