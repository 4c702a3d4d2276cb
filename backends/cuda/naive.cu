// naive: one kernel per RK4 stage plus a combine kernel (the course exercise's first version).
// Stage s forms its input u + c*dt*k_{s-1} at every neighbour it reads, inside the stencil.
#include "core/dispatch.hpp"
#include "backends/cuda/global_memory_backend.cuh"
#include "backends/cuda/linear_stages.cuh"  // FirstStage: k1 = a*Lap(u), as in every backend
#include "backends/registry.hpp"
#include "stencils/rk4_forms.hpp"

namespace heat {
namespace {

// Stages 2-4 read u + stage_dt * k_prev; k_prev is zero on a layer face's boundary layer and the
// homogeneous conditions' fill beyond other faces (GlobalMemoryBackend). The stage form: the
// sum is formed at every neighbour before the stencil, where a pass (BasePlusLap) adds after it.
template <typename T>
struct LaterStage {
  const T* u;
  const T* k_prev;
  T stage_dt;
  T* k_out;
  struct Centre {};
  __device__ T value(long long p) const { return stage_input(u[p], stage_dt, k_prev[p]); }
  __device__ Centre centre(long long) const { return {}; }
  __device__ void store(long long p, T lap, T, Centre) const { k_out[p] = lap; }
};

// u = u + dt/6 (k1 + 2k2 + 2k3 + k4) on the interior.
template <typename T>
struct Combine {
  T* u;
  const T* k1;
  const T* k2;
  const T* k3;
  const T* k4;
  T dt_over_6;
  __device__ void operator()(long long q) const { u[q] = rk4_combine(u[q], dt_over_6, k1[q], k2[q], k3[q], k4[q]); }
};

template <typename T>
class NaiveBackend final : public GlobalMemoryBackend<T, 4> {
 public:
  NaiveBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : GlobalMemoryBackend<T, 4>(p, o, exchange, "naive") {}

 private:
  void step_once() override {
    this->with_stencil([&](auto radius, const auto& launch) {
      constexpr int R = decltype(radius)::value;
      const Grid& g = this->problem_.grid;
      const auto& rk = this->rk_;
      T* u = this->u_.get();
      auto k = [&](int s) { return this->k_[s].get(); };
      // Every stage's operand holds u, so every stage adds a source's rate.
      const T* rate = this->source_rate();
      launch_adding_rate(launch, FirstStage<T>{u, k(0)}, rate);
      for (int s = 1; s < 4; ++s) {
        this->stage_written(k(s - 1));
        launch_adding_rate(launch, LaterStage<T>{u, k(s - 1), rk.stage_dt[s - 1], k(s)}, rate);
      }
      launch_interior_pointwise<T>(g, R, Combine<T>{u, k(0), k(1), k(2), k(3), rk.dt_over_6});
    });
  }
};

}  // namespace

void register_naive_backend(BackendRegistry& registry) {
  // Stage 1 reads u, writes k1; stages 2-4 read u and k_prev, write k_s; the combine reads u
  // and k1..k4 and writes u: 2 + 3*3 + 6 = 17 arrays per point per step; each stage reads a
  // source's rate besides: 4 more.
  register_global_memory_backend<NaiveBackend>(
      registry, "naive", "CUDA: one global-memory kernel per RK4 stage plus a combine kernel", 17.0, 4.0);
}

}  // namespace heat
