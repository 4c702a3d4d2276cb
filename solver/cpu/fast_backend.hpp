// The fast cpu backend, what `--backend cpu` runs: the RK4 step as its two quadratic factors (the
// four passes of solver/tiled/step_forms.cuh), cache-blocked and vectorised for the CPU's widest
// instruction set (horner_sweep.hpp). By default the passes go in pairs, a factor per sweep, two
// sweeps a step that move 4 arrays per point (read u, write w; read w, write the new u) against
// the four single passes' 10 and the stage form's 28 (benchmarks/cpu_model.md). Both groupings
// compute every value by the same operations, so they agree bitwise. The factors round
// differently from the stage form, so the result is not bitwise the reference's
// (reference_backend.hpp); it is bitwise the same for any thread count.
//
// One class serves a whole problem and one rank's box of a distributed run (solver/distributed/):
// the box is stepped as if it were the whole problem, and `before_stencil` is called with every
// field a sweep is about to read across z, so that a halo exchange can fill its ghost planes
// first: u before every step, and with single passes each pass's operand. Since every rank runs
// the same kernels on rows of the same length, the distributed field is bitwise the single
// process's.
#pragma once

#include <functional>
#include <utility>

#include "solver/backend.hpp"
#include "solver/cpu/first_nonfinite.hpp"
#include "solver/cpu/horner_sweep.hpp"
#include "solver/cpu/host_copy.hpp"
#include "solver/dispatch.hpp"
#include "solver/tiled/step_forms.cuh"

namespace heat {

enum class CpuPassGrouping {
  Pairs,   // two sweeps a step; before_stencil sees u before the first
  Singles  // four sweeps a step; before_stencil sees each pass's operand (per-stage ghosts)
};

template <typename T>
class CpuFastBackend final : public Backend<T> {
 public:
  // Called with the field sweep `index` (0..3 with single passes, 0..1 with pairs) reads with
  // the stencil, before it reads it.
  using BeforeStencil = std::function<void(T* field, int index)>;

  CpuFastBackend(const Problem& p, const BackendOptions&) : CpuFastBackend(p, BeforeStencil()) {}
  CpuFastBackend(const Problem& p, BeforeStencil before_stencil, CpuPassGrouping grouping = CpuPassGrouping::Pairs,
                 CpuIsa isa = best_cpu_isa())
      : before_stencil_(std::move(before_stencil)),
        grouping_(grouping),
        isa_(cpu_isa_for_rows(isa, p.grid.nx - 2 * p.radius(), sizeof(T))),
        constants_(make_factored_constants<T>(p.dt)),
        u_(Field<T>::uninitialized(p.grid)),
        a_(Field<T>::uninitialized(p.grid)),
        b_(Field<T>::uninitialized(p.grid)) {
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

  // The boundary layer of every pass's result is u's, so every field starts as u.
  void upload(const Field<T>& u) override {
    for (Field<T>* f : {&u_, &a_, &b_}) copy_field_points(u, *f);
  }

  void step(int count) override {
    for (int n = 0; n < count; ++n) {
      if (grouping_ == CpuPassGrouping::Pairs) step_in_pairs();
      else step_in_single_passes();
    }
  }

  void download(Field<T>& u) override { copy_field_points(u_, u); }

  // In a rank's box, the index is the box's: the rank that finds one ends the job.
  long long first_nonfinite() override { return first_nonfinite_on_host(u_.data(), u_.size()); }

 private:
  // The first factor into b from u, then the second into a from b: a becomes u. The new u cannot
  // be written in place, as a block's neighbours read the sweep's input around it for its first
  // pass.
  void step_in_pairs() {
    if (before_stencil_) before_stencil_(u_.data(), 0);
    run_sweep(u_.data(), u_.data(), b_.data(), 2, constants_.c[0], constants_.c[1]);
    if (before_stencil_) before_stencil_(b_.data(), 1);
    run_sweep(b_.data(), b_.data(), a_.data(), 2, constants_.c[2], constants_.c[3]);
    std::swap(u_, a_);
  }

  void step_in_single_passes() {
    int index = 0;
    factored_rk4_step(
        [&](const LinearPass<T>& h) {
          // The operand is one of this backend's own fields, which the exchange may write.
          if (before_stencil_) before_stencil_(const_cast<T*>(h.in), index);
          ++index;
          run_sweep(h.in, h.u, h.out, 1, h.c, T(0));
        },
        u_.data(), a_.data(), b_.data(), constants_);
  }

  // `base`: what the passes add to (the sweep's u: the factor's input).
  void run_sweep(const T* in, const T* base, T* out, int passes, T c0, T c1) {
    CpuHornerSweep<T> sweep = grid_;
    sweep.in = in;
    sweep.u = base;
    sweep.out = out;
    sweep.passes = passes;
    sweep.c[0] = c0;
    sweep.c[1] = c1;
    run_horner_sweep(isa_, sweep);
  }

  BeforeStencil before_stencil_;
  CpuPassGrouping grouping_;
  CpuIsa isa_;
  PassConstants<T> constants_;
  CpuHornerSweep<T> grid_{};  // the grid and the weights; each sweep adds its fields and constants
  Field<T> u_, a_, b_;
};

}  // namespace heat
