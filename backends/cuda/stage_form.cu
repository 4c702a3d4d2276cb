#include "backends/cuda/stage_form.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "backends/cuda/cuda_backend.cuh"
#include "backends/cuda/global_stencil.cuh"
#include "core/dispatch.hpp"
#include "stencils/rk4_forms.hpp"
#include "stencils/stencil.hpp"

namespace heat {
namespace {

// Stage `stage` (0 to 3) of the stage form as global_stencil.cuh's Op: k = a*Lap(input), the
// input's ghosts filled, added into the RK4 sum as cpu_reference adds it; beside it the next
// stage's input u + c k (into another field: this input's neighbours are still being read), or
// after the last stage u + dt/6 sum into u, which no stage reads around a point.
template <typename T>
struct StageFormStage {
  const T* input;
  T* u;
  T* sum;
  T* next;  // the next stage's input; unused by the last stage
  int stage;
  T stage_dt;  // c of the next stage's input
  T dt_over_6;
  struct Centre {
    T u, sum;
  };
  __device__ T value(long long p) const { return input[p]; }
  __device__ Centre centre(long long p) const { return {u[p], stage == 0 ? T(0) : sum[p]}; }
  __device__ void store(long long p, T k, T, Centre c) const {
    const T total = rk4_accumulate(c.sum, stage, k);
    if (stage == 3) {
      u[p] = rk4_finish(c.u, dt_over_6, total);
      return;
    }
    sum[p] = total;
    next[p] = stage_input(c.u, stage_dt, k);
  }
};

// u, the two stage inputs (one read while the next is written) and the sum: each stage reads its
// input (through L1 its neighbours), u and the sum (not stage 1), writes the sum and the next input
// or (stage 4) u: 3 + 5 + 5 + 4 = 17 arrays a point a step, and the fill of three inputs, about
// (2r + 1) * 6/n of a field each.
constexpr int kStageFormArrays = 4;
constexpr double kStageFormArraysMoved = 17.0;

// Plain global-memory stages: radiation faces meet neither sources nor material fields (the run's
// options refuse both beside them), so the operator is a*Lap alone.
template <typename T>
class StageFormBackend final : public CudaBackend<T> {
 public:
  // `exchange`: null for a whole grid; a rank's box is stepped whole after u's exchange, each stage
  // right on r planes fewer, so that the fourth's are right on the own planes (cuda_ghost_scheme).
  // The fills are each box's faces': on a side with a neighbour, none.
  StageFormBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange, const std::string& name)
      : CudaBackend<T>(p, o, kStageFormArrays * p.grid.points() * sizeof(T), name), rk_(make_rk4_constants<T>(p.dt)) {
    if (p.source || p.materials) throw std::logic_error("the CUDA stage form steps no source and no material fields");
    for (DeviceBuffer<T>& input : inputs_) input = DeviceBuffer<T>(p.grid.points());
    sum_ = DeviceBuffer<T>(p.grid.points());
    input_fill_ = DeviceBoundaryFill(p, FillPart::Full, FillRows::StencilRead, &this->fill_arrays_);
    this->take_exchange(exchange);
  }

  void set_step_dt(double dt) override { rk_ = make_rk4_constants<T>(dt); }

 private:
  // The inputs' boundary layer beyond a layer face is u's, which no step changes; beyond the other
  // faces each stage's fill sets the ghosts the stencil reads.
  void prepare_resident_field() override {
    const BoundaryTargets<T> targets{{inputs_[0].get(), inputs_[1].get()}, 2};
    copy_boundary_layer_to(this->u_, targets, this->problem_.grid, this->problem_.radius());
  }

  void step_once() override {
    const Problem& p = this->problem_;
    with_radius(p.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const StencilWeights<R, T> w = make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz);
      T* const u = this->u_.get();
      // Stage 1's input is u, filled after the step before; stage s + 1 writes inputs_[s % 2].
      for (int stage = 0; stage < 4; ++stage) {
        T* const input = stage == 0 ? u : inputs_[(stage - 1) % 2].get();
        if (stage > 0) input_fill_(input);
        const T next_dt = stage < 3 ? rk_.stage_dt[stage] : T(0);
        launch_global_stencil<R, T>(p.grid, w,
                                    StageFormStage<T>{input, u, sum_.get(), inputs_[stage % 2].get(), stage, next_dt,
                                                      rk_.dt_over_6});
      }
    });
  }

  Rk4Constants<T> rk_;
  DeviceBuffer<T> inputs_[2], sum_;
  DeviceBoundaryFill input_fill_;  // the whole conditions, on the ghosts a stencil reads
};

template <typename T>
std::unique_ptr<Backend<T>> make_stage_form_backend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange,
                                                    const std::string& name) {
  return std::make_unique<StageFormBackend<T>>(p, o, exchange, name);
}

}  // namespace

BackendEntry with_stage_form_for_radiation(BackendEntry e) {
  e.ghost_scheme = [scheme = e.ghost_scheme](const Problem& p) {
    return any_radiation(p.boundaries) ? cuda_ghost_scheme(p) : scheme(p);
  };
  const auto bytes_per_point = e.bytes_per_point;
  e.bytes_per_point = [bytes_per_point](const Problem& p, std::size_t size) {
    return any_radiation(p.boundaries) ? kStageFormArraysMoved * double(size) : bytes_per_point(p, size);
  };
  const auto working_bytes = e.working_bytes;
  e.working_bytes = [working_bytes](const Problem& p, std::size_t size) {
    return any_radiation(p.boundaries) ? std::size_t(kStageFormArrays) * p.grid.points() * size : working_bytes(p, size);
  };
  e.make_float = [make = e.make_float, name = e.name](const Problem& p, const BackendOptions& o,
                                                      HaloExchange<float>* exchange) {
    return steps_stage_form(p.boundaries, exchange) ? make_stage_form_backend<float>(p, o, exchange, name) : make(p, o, exchange);
  };
  e.make_double = [make = e.make_double, name = e.name](const Problem& p, const BackendOptions& o,
                                                        HaloExchange<double>* exchange) {
    return steps_stage_form(p.boundaries, exchange) ? make_stage_form_backend<double>(p, o, exchange, name) : make(p, o, exchange);
  };
  return e;
}

}  // namespace heat
