// reuse: one kernel per stage, but by linearity k_{s+1} = k1 + c*dt*alpha*Lap(k_s), so the
// stencil of u is applied once per step (k1) and later stages take the stencil of a stage field.
// Stage fields are zero on the boundary layer, which is what makes the identity hold there.
// The last stage also forms u + dt/6*(k1 + 2k2 + 2k3 + k4), so there is no separate combine pass.
#include "solver/dispatch.hpp"
#include "solver/global_stencil.cuh"
#include "solver/registry.hpp"

namespace heat {
namespace {

// k_out = k1 + stage_dt * alpha*Lap(k_prev).
template <typename T>
struct MiddleStage {
  const T* k1;
  const T* k_prev;
  T stage_dt;
  T* k_out;
  __device__ T value(long long p) const { return k_prev[p]; }
  __device__ void store(long long p, T lap) const { k_out[p] = stage_input(k1[p], stage_dt, lap); }
};

// k4 = k1 + dt * alpha*Lap(k3), then the RK4 combination into u.
template <typename T>
struct LastStage {
  T* u;
  const T* k1;
  const T* k2;
  const T* k3;
  T dt;
  T dt_over_6;
  __device__ T value(long long p) const { return k3[p]; }
  __device__ void store(long long p, T lap) const {
    const T k4 = stage_input(k1[p], dt, lap);
    u[p] = rk4_combine(u[p], dt_over_6, k1[p], k2[p], k3[p], k4);
  }
};

template <typename T>
class ReuseBackend final : public GlobalMemoryBackend<T, 3> {
 public:
  ReuseBackend(const Problem& p, const BackendOptions& o) : GlobalMemoryBackend<T, 3>(p, o, "reuse") {}

 private:
  void step_once() override {
    this->with_weights([&](const auto& w) {
      constexpr int R = std::decay_t<decltype(w)>::kRadius;
      const Grid& g = this->problem_.grid;
      const auto& rk = this->rk_;
      T* u = this->u_.get();
      T* k1 = this->k_[0].get();
      T* k2 = this->k_[1].get();
      T* k3 = this->k_[2].get();
      launch_global_stencil<R, T>(g, w, FirstStage<T>{u, k1});
      launch_global_stencil<R, T>(g, w, MiddleStage<T>{k1, k1, rk.stage_dt[0], k2});
      launch_global_stencil<R, T>(g, w, MiddleStage<T>{k1, k2, rk.stage_dt[1], k3});
      launch_global_stencil<R, T>(g, w, LastStage<T>{u, k1, k2, k3, rk.stage_dt[2], rk.dt_over_6});
    });
  }
};

}  // namespace

void register_reuse_backend(BackendRegistry& registry) {
  // Stage 1 reads u, writes k1 (2); stage 2 reads k1, writes k2 (2); stage 3 reads k1, k2,
  // writes k3 (3); stage 4 reads k3, k1, k2, u and writes u (5): 12 arrays per point per step.
  register_global_memory_backend<ReuseBackend>(
      registry, "reuse", "CUDA: k1 stencil reused by linearity, one global-memory kernel per stage", 12.0);
}

}  // namespace heat
