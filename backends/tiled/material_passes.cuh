// tiled with material fields K(x), C(x) (docs/design.md §1, "Materials"): the step's four single
// passes in the quadratic factors' form (stencils/rk4_forms.hpp), as OnePassBackend runs them
// where a face is not layer (each operand filled first, a source's step increment added by the
// last pass), each pass a launch of the global-memory kernel of the flux form
// (backends/cuda/global_material_stencil.cuh). The simplest correct kernel: shared-memory tiles
// and fused passes for material fields are not built yet. A whole grid's alone (CudaBackend
// refuses a rank's box with material fields).
#pragma once

#include "backends/cuda/global_material_stencil.cuh"
#include "backends/cuda/linear_stages.cuh"
#include "backends/tiled/backends.cuh"
#include "core/dispatch.hpp"
#include "stencils/material_stencil.hpp"
#include "stencils/rk4_forms.hpp"

namespace heat {

// The last pass with a source, out = base + c * (1/C) div(K grad in) + add, as BasePlusLapOp
// (linear_stages.cuh) without the add, in the fast cpu backend's order of the two adds.
template <typename T>
struct BasePlusLapAddingOp {
  BasePlusLap<T> pass;
  struct Centre {
    T base, add;
  };
  __device__ T value(long long p) const { return pass.in[p]; }
  __device__ Centre centre(long long p) const { return {pass.base[p], pass.add[p]}; }
  __device__ void store(long long p, T lap, T, Centre here) const {
    pass.out[p] = base_plus_lap(here.base, pass.c, lap) + here.add;
  }
};

template <typename T>
class MaterialPassBackend final : public CudaBackend<T> {
 public:
  static constexpr int kWorkingArrays = 3;  // u and the passes' two scratch fields

  MaterialPassBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : CudaBackend<T>(p, o, kWorkingArrays * p.grid.points() * sizeof(T), "tiled"),
        constants_(make_factored_constants<T>(p.dt)),
        v_{DeviceBuffer<T>(p.grid.points()), DeviceBuffer<T>(p.grid.points())},
        operand_fill_(p, FillPart::Full, FillRows::StencilRead, &this->fill_arrays_) {
    if (p.source) upload_source_increment(source_step_, p, p.dt, true);
    this->take_exchange(exchange);
  }

  void set_step_dt(double dt) override {
    constants_ = make_factored_constants<T>(dt);
    if (this->problem_.source) upload_source_increment(source_step_, this->problem_, dt, true);
  }

 private:
  // The scratch fields carry u's boundary layer, which no pass writes; poisoned when first
  // prepared, as PassFormBackend's.
  void prepare_resident_field() override {
    copy_boundary_layer(this->u_, {&v_[0], &v_[1]}, this->problem_.grid, this->problem_.radius(), !prepared_);
    prepared_ = true;
  }

  void step_once() override {
    const Problem& p = this->problem_;
    with_radius(p.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const MaterialWeights<R, T> w = make_material_weights<R, T>(p.grid.hx, p.grid.hy, p.grid.hz);
      const DeviceMaterialView<R, T> m = this->materials_.template view<R>();
      int number = 0;
      factored_rk4_step(
          [&](const BasePlusLap<T>& pass) {
            if (this->fills_operand(StepPart::Whole, ++number)) operand_fill_(const_cast<T*>(pass.in));
            if (pass.add)
              launch_global_material_stencil<R, T>(p.grid, w, m, BasePlusLapAddingOp<T>{pass});
            else
              launch_global_material_stencil<R, T>(p.grid, w, m, BasePlusLapOp<T>{pass});
          },
          this->u_.get(), v_[0].get(), v_[1].get(), constants_, source_step_.get());
    });
  }

  PassConstants<T> constants_;
  DeviceBuffer<T> v_[2];
  DeviceBoundaryFill operand_fill_;  // the ghosts a pass reads, as the problem states them
  DeviceBuffer<T> source_step_;      // the step increment s; empty without a source
  bool prepared_ = false;
};

}  // namespace heat
