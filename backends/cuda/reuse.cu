// reuse: one global-memory kernel per stage, but by linearity k_{s+1} = k1 + c*dt*alpha*Lap(k_s),
// so the stencil of u is applied once per step (k1) and later stages take the stencil of a stage
// field (linear_stages.cuh). The last stage also forms the RK4 combination: no combine pass.
#include "core/dispatch.hpp"
#include "backends/cuda/global_memory_backend.cuh"
#include "backends/cuda/linear_stages.cuh"
#include "backends/registry.hpp"

namespace heat {
namespace {

template <typename T>
class ReuseBackend final : public GlobalMemoryBackend<T, 3> {
 public:
  ReuseBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : GlobalMemoryBackend<T, 3>(p, o, exchange, "reuse") {}

 private:
  void step_once() override {
    this->with_stencil([&](auto, const auto& launch) {
      linear_rk4_step(launch, [&](T* k) { this->stage_written(k); }, this->u_.get(), this->k_[0].get(),
                      this->k_[1].get(), this->k_[2].get(), this->rk_, this->source_rate());
    });
  }
};

}  // namespace

void register_reuse_backend(BackendRegistry& registry) {
  register_global_memory_backend<ReuseBackend>(
      registry, "reuse", "CUDA: k1 stencil reused by linearity, one global-memory kernel per stage", kLinearStepArrays,
      kLinearStepSourceArrays);
}

}  // namespace heat
