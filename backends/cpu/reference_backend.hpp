// The cpu reference backend: the ground truth every other backend is checked against (verify,
// --check and the tests). Straightforward loops over the interior in the stage form of RK4,
// OpenMP over (z, y) rows and a unit-stride x loop that the compiler vectorises. Each point is
// computed independently of the thread that owns it, so the result is bitwise the same for any
// thread count. It is kept plain on purpose: the fast cpu backend (fast_backend.hpp) is what runs.
//
// One class serves a whole problem and one rank's box of a distributed run (parallel/):
// the box is stepped as if it were the whole problem, and the halo exchange it is made with fills
// the ghost planes of the field a stage is about to read across z first. A single process has
// nothing to fill. Since the per-point arithmetic is the same code, the distributed field is
// bitwise the single process's.
//
// Faces whose condition is not layer have their ghost points filled (boundary_fill.hpp) before
// each stage's stencil reads them, and once more after the step and the upload, so that u as
// downloaded holds its face values (a temperature face's T) and ghosts consistent with it (and
// the first stage finds them). In a rank's box the fill runs the exchange: of the stage inputs the
// scheme exchanges, and of u after the step instead of before the next.
//
// A steady source (Problem::source) is added as its rate q/C to every stage's alpha*Lap: the
// straightforward form, which the fast backend's once-a-step increment is held to.
//
// With material fields (Problem::materials) each stage applies (1/C) div(K grad u) in flux form
// (material_operator.hpp) where the constant problem applies alpha*Lap; nothing else changes.
#pragma once

#include <utility>

#include "core/backend.hpp"
#include "backends/cpu/boundary_fill.hpp"
#include "backends/cpu/first_nonfinite.hpp"
#include "backends/cpu/host_copy.hpp"
#include "backends/cpu/interior_points.hpp"
#include "backends/cpu/material_operator.hpp"
#include "core/dispatch.hpp"
#include "core/heat_source.hpp"
#include "stencils/rk4_forms.hpp"
#include "stencils/stencil.hpp"

namespace heat {

template <typename T>
class CpuReferenceBackend final : public Backend<T> {
 public:
  CpuReferenceBackend(const Problem& p, const BackendOptions&) : CpuReferenceBackend(p, nullptr) {}
  // `exchange`: null for a whole grid, else the one that fills the box's ghost planes (outliving
  // the backend): u's before the first stage, and every (g / r)-th stage's input with g ghost
  // planes (each stage's with PerStage's r).
  CpuReferenceBackend(const Problem& p, HaloExchange<T>* exchange)
      : problem_(p),
        exchange_(exchange),
        fills_ghosts_(fills_ghosts(p.boundaries, exchange)),
        stages_per_exchange_(exchange ? exchange->sides().planes / p.radius() : 1),
        rk_(make_rk4_constants<T>(p.dt)),
        u_(Field<T>::uninitialized(p.grid)),
        stage_input_(Field<T>::uninitialized(p.grid)),
        k_(p.grid),
        sum_(p.grid),
        source_rate_(p.source ? field_cast<T>(p.source->rate) : Field<T>()),
        materials_(p) {}

  // The boundary layer of a stage input is the boundary of u, so both start as u. Collective where
  // the problem fills its faces in a rank's box.
  void upload(const Field<T>& u) override {
    copy_field_points(u, u_);
    if (fills_ghosts_) fill_boundaries(problem_, u_.data(), exchange_);
    copy_field_points(u_, stage_input_);
  }

  void step(int count) override {
    with_radius(problem_.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const auto& g = problem_.grid;
      if (!materials_.empty()) {
        const HostMaterialOperator<R, T> flux_form(g, materials_);
        for (int n = 0; n < count; ++n) step_once(flux_form);
        return;
      }
      const auto w = make_weights<R, T>(problem_.alpha, g.hx, g.hy, g.hz);
      const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
      const auto lap = [&](const T* in, std::size_t p) {
        return apply_stencil<R, T>(
            w, in[p], [&](int axis, int d) { return in[p + d * stride[axis]] + in[p - d * stride[axis]]; });
      };
      for (int n = 0; n < count; ++n) step_once(lap);
    });
  }

  void download(Field<T>& u) override { copy_field_points(u_, u); }
  void set_step_dt(double dt) override { rk_ = make_rk4_constants<T>(dt); }

  // In a rank's box, the index is the box's: the rank that finds one ends the job.
  long long first_nonfinite() override { return first_nonfinite_on_host(u_.data(), u_.size()); }

 private:
  template <typename Body>
  void for_interior(Body&& body) const {
    for_interior_points(problem_.grid, problem_.radius(), body);
  }

  // `apply(in, p)`: the operator at interior point p of the stage input `in`.
  template <typename Operator>
  void step_once(const Operator& apply) {
    for (int stage = 0; stage < 4; ++stage) {
      // k_s = alpha*Lap(stage input); the stage input of stage 1 is u itself.
      T* in = stage == 0 ? u_.data() : stage_input_.data();
      HaloExchange<T>* due = stage % stages_per_exchange_ == 0 ? exchange_ : nullptr;
      // u's ghosts were filled after the step before.
      if (fills_ghosts_ && stage > 0) fill_boundaries(problem_, in, due);
      else if (!fills_ghosts_ && due) due->exchange(in);
      T* k = k_.data();
      T* sum = sum_.data();
      const auto lap = [&](std::size_t p) { return apply(in, p); };
      const auto stage_rate = [&](std::size_t p, T ks) {
        k[p] = ks;
        sum[p] = rk4_accumulate(sum[p], stage, ks);
      };
      if (const T* rate = source_rate_.data(); source_rate_.size())
        for_interior([&](std::size_t p) { stage_rate(p, lap(p) + rate[p]); });
      else
        for_interior([&](std::size_t p) { stage_rate(p, lap(p)); });
      if (stage < 3) {
        const T stage_dt = rk_.stage_dt[stage];
        T* next = stage_input_.data();
        const T* u = u_.data();
        for_interior([&](std::size_t p) { next[p] = stage_input(u[p], stage_dt, k[p]); });
      }
    }
    T* u = u_.data();
    const T* sum = sum_.data();
    const T dt6 = rk_.dt_over_6;
    for_interior([&](std::size_t p) { u[p] = rk4_finish(u[p], dt6, sum[p]); });
    if (fills_ghosts_) fill_boundaries(problem_, u, exchange_);
  }

  Problem problem_;
  HaloExchange<T>* exchange_;  // null: the whole grid, no neighbours
  bool fills_ghosts_;          // around each stage, and after the step (fills_ghosts)
  int stages_per_exchange_;    // the exchange fills the input of every so many stages
  Rk4Constants<T> rk_;
  Field<T> u_, stage_input_, k_, sum_;
  Field<T> source_rate_;  // q/C, empty without a source
  HostMaterialFields<T> materials_;  // empty without material fields
};

}  // namespace heat
