// The backends whose stage fields live in global memory (naive, reuse): what they share, and
// their registry entry.
#pragma once

#include <string>

#include "backends/cuda/cuda_backend.cuh"
#include "backends/cuda/device_materials.cuh"
#include "backends/cuda/global_material_stencil.cuh"
#include "backends/cuda/global_stencil.cuh"
#include "backends/cuda/material_arrays.hpp"
#include "backends/cuda/source_arrays.hpp"
#include "backends/registry.hpp"
#include "core/dispatch.hpp"
#include "stencils/material_stencil.hpp"
#include "stencils/rk4_forms.hpp"
#include "stencils/stencil.hpp"

namespace heat {

// A backend whose stage fields live in global memory: u plus `Fields` stage arrays, prepared
// as global_stencil.cuh's prepare_stage_field, and the RK4 constants in the working precision; a
// steady source's rate q/C in the working precision, which the stage kernels add to a*Lap
// (AddingRate, linear_stages.cuh). With material fields each stage's operator is (1/C) div(K grad)
// (global_material_stencil.cuh) where it is otherwise a*Lap: the stage form is the same.
//
// Faces that are not layer: u holds the full conditions (CudaBackend fills it), and each stage
// field k is filled with their homogeneous part (T, Q and T_INF zero: stage_written) before a
// stencil reads it. That is the stage form's fill of every stage input and operator. The fill G
// is affine, G(v) = W v + b at each ghost and held face point (W: the mirror, its negative, the
// convective weights or the periodic image; b from T, Q and T_INF alone), and the homogeneous fill
// is W. So G(u + c k) = G(u) + c W k: naive's stage input u + c dt k_prev, formed at a ghost from
// the two filled fields, is the filled stage input (to rounding). And the filled operator
// L(v) = a*Lap(G v) = A v + f is affine, so L(u + c k) = L(u) + c A k, with A k = a*Lap(W k):
// reuse's k_{s+1} = k1 + c dt a*Lap(k_s) with k_s filled by W is the stage form's k_{s+1}. A held
// face point of a stage field is 0, its stage input's T.
template <typename T, int Fields>
class GlobalMemoryBackend : public CudaBackend<T> {
 public:
  static constexpr int kResidentArrays = Fields + 1;

 protected:
  GlobalMemoryBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange, const std::string& name)
      : CudaBackend<T>(p, o, kResidentArrays * p.grid.points() * sizeof(T), name), rk_(make_rk4_constants<T>(p.dt)) {
    for (auto& k : k_) {
      k = DeviceBuffer<T>(p.grid.points());
      prepare_stage_field(k, p.grid, p.radius());
    }
    if (p.source)
      source_rate_ = DeviceBuffer<T>::copied_from_host(field_cast<T>(p.source->rate).data(), p.grid.points());
    stage_fill_ = DeviceBoundaryFill(p, FillPart::Homogeneous, FillRows::StencilRead, &this->fill_arrays_);
    this->take_exchange(exchange);
  }

  // After a stage field is written and before a stencil reads it.
  void stage_written(T* k) const {
    if (stage_fill_.fills()) stage_fill_(k);
  }

 public:
  void set_step_dt(double dt) override { rk_ = make_rk4_constants<T>(dt); }

 protected:
  // Calls body(radius, launch) with the problem's radius as a compile-time constant
  // (std::integral_constant) and launch(op), which launches the stencil kernel on an Op: the
  // constant kernel of a*Lap, or with material fields the flux form's.
  template <typename Body>
  void with_stencil(Body&& body) {
    const Problem& p = this->problem_;
    with_radius(p.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      if (this->materials_.empty()) {
        const StencilWeights<R, T> w = make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz);
        body(radius, [&](const auto& op) { launch_global_stencil<R, T>(p.grid, w, op); });
      } else {
        const MaterialWeights<R, T> w = make_material_weights<R, T>(p.grid.hx, p.grid.hy, p.grid.hz);
        const DeviceMaterialView<R, T> m = this->materials_.template view<R>();
        body(radius, [&](const auto& op) { launch_global_material_stencil<R, T>(p.grid, w, m, op); });
      }
    });
  }

  // The source's rate q/C, null without one.
  const T* source_rate() const { return source_rate_.get(); }

  Rk4Constants<T> rk_;
  DeviceBuffer<T> k_[Fields];
  DeviceBoundaryFill stage_fill_;  // the conditions' homogeneous part, on the ghosts a stencil reads

 private:
  DeviceBuffer<T> source_rate_;  // empty without a source
};

// The registry entry of a global-memory backend Impl, made as Impl<T>(problem, options, exchange);
// `arrays_moved` is its byte model in arrays read or written per interior point per step, and
// `source_reads` the reads of a source's rate it adds to them. Both apply the operator four times
// a step, each reading material_arrays_per_stencil arrays more with material fields.
template <template <typename> class Impl>
void register_global_memory_backend(BackendRegistry& registry, const char* name, const char* description,
                                    double arrays_moved, double source_reads) {
  BackendEntry e;
  e.name = name;
  e.description = description;
  e.uses_cuda = true;
  e.fills_boundaries = true;
  e.adds_sources = true;
  e.steps_materials = true;
  e.bytes_per_point = [arrays_moved, source_reads](const Problem& p, std::size_t size) {
    const double material_reads = p.materials ? 4.0 * material_arrays_per_stencil(p.order) : 0.0;
    return (arrays_moved + (p.source ? source_reads : 0.0) + material_reads) * double(size);
  };
  e.working_bytes = [](const Problem& p, std::size_t size) {
    return std::size_t(Impl<float>::kResidentArrays) * p.grid.points() * size + device_source_bytes(p, size) +
           device_material_bytes(p, size);
  };
  e.ghost_scheme = cuda_ghost_scheme;
  e.halo_overlap = [](int) { return HaloOverlap::Off; };  // their kernels step whole boxes
  e.make_float = [](const Problem& p, const BackendOptions& o,
                    HaloExchange<float>* x) -> std::unique_ptr<Backend<float>> {
    return std::make_unique<Impl<float>>(p, o, x);
  };
  e.make_double = [](const Problem& p, const BackendOptions& o,
                     HaloExchange<double>* x) -> std::unique_ptr<Backend<double>> {
    return std::make_unique<Impl<double>>(p, o, x);
  };
  registry.add(std::move(e));
}

}  // namespace heat
