// The fast cpu backend, what `--backend cpu` runs: the RK4 step in its Horner form (the four
// passes of solver/tiled/horner_form.cuh, 11 arrays a step against the stage form's 28), each
// pass cache-blocked and vectorised for the CPU's widest instruction set (horner_sweep.hpp).
// The Horner form rounds differently from the stage form, so the result is not bitwise the
// reference's (reference_backend.hpp); it is bitwise the same for any thread count.
//
// One class serves a whole problem and one rank's box of a distributed run (solver/distributed/):
// the box is stepped as if it were the whole problem, and `before_stencil` is called with every
// field a pass is about to read across z, so that a halo exchange can fill its ghost planes
// first. Since every rank runs the same kernels on rows of the same length, the distributed field
// is bitwise the single process's.
#pragma once

#include <functional>
#include <utility>

#include "solver/backend.hpp"
#include "solver/cpu/first_nonfinite.hpp"
#include "solver/cpu/horner_sweep.hpp"
#include "solver/cpu/host_copy.hpp"
#include "solver/dispatch.hpp"
#include "solver/tiled/horner_form.cuh"

namespace heat {

template <typename T>
class CpuFastBackend final : public Backend<T> {
 public:
  // Called with the field pass `pass` (0..3) reads with the stencil, before it reads it.
  using BeforeStencil = std::function<void(T* field, int pass)>;

  CpuFastBackend(const Problem& p, const BackendOptions&) : CpuFastBackend(p, BeforeStencil()) {}
  CpuFastBackend(const Problem& p, BeforeStencil before_stencil, CpuIsa isa = best_cpu_isa())
      : problem_(p),
        before_stencil_(std::move(before_stencil)),
        isa_(cpu_isa_for_rows(isa, p.grid.nx - 2 * p.radius(), sizeof(T))),
        horner_(make_horner_constants<T>(p.dt)),
        u_(Field<T>::uninitialized(p.grid)),
        a_(Field<T>::uninitialized(p.grid)),
        b_(Field<T>::uninitialized(p.grid)) {
    with_radius(p.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const auto w = make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz);
      pass_.center = w.center;
      for (int a = 0; a < 3; ++a)
        for (int k = 0; k < kMaxRadius; ++k) pass_.axis[a][k] = k < R ? w.axis[a][k] : T(0);
    });
    pass_.nx = p.grid.nx;
    pass_.ny = p.grid.ny;
    pass_.nz = p.grid.nz;
    pass_.radius = p.radius();
  }

  // The instruction set the passes run on.
  CpuIsa isa() const { return isa_; }

  // The boundary layer of every pass's result is u's, so the scratch fields start as u.
  void upload(const Field<T>& u) override {
    copy_field_points(u, u_);
    copy_field_points(u, a_);
    copy_field_points(u, b_);
  }

  void step(int count) override {
    for (int n = 0; n < count; ++n) {
      int pass_index = 0;
      horner_rk4_step(
          [&](const HornerPass<T>& h) {
            // The operand is one of this backend's own fields, which the exchange may write.
            if (before_stencil_) before_stencil_(const_cast<T*>(h.in), pass_index);
            ++pass_index;
            CpuHornerPass<T> pass = pass_;
            pass.in = h.in;
            pass.u = h.u;
            pass.c = h.c;
            pass.out = h.out;
            run_horner_pass(isa_, pass);
          },
          u_.data(), a_.data(), b_.data(), horner_);
    }
  }

  void download(Field<T>& u) override { copy_field_points(u_, u); }

  // In a rank's box, the index is the box's: the rank that finds one ends the job.
  long long first_nonfinite() override { return first_nonfinite_on_host(u_.data(), u_.size()); }

 private:
  Problem problem_;
  BeforeStencil before_stencil_;
  CpuIsa isa_;
  HornerConstants<T> horner_;
  CpuHornerPass<T> pass_{};  // the grid and weights; each pass fills in its arrays and constant
  Field<T> u_, a_, b_;
};

}  // namespace heat
