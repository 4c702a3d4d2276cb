// naive: one kernel per RK4 stage plus a combine kernel (the course exercise's first version).
// Stage s forms its input u + c*dt*k_{s-1} at every neighbour it reads, inside the stencil.
#include "solver/dispatch.hpp"
#include "solver/global_stencil.cuh"
#include "solver/registry.hpp"

namespace heat {
namespace {

// Stage 1 reads u alone.
template <typename T>
struct FirstStage {
  const T* u;
  T* k_out;
  __device__ T value(long long p) const { return u[p]; }
  __device__ void store(long long p, T lap) const { k_out[p] = lap; }
};

// Stages 2-4 read u + stage_dt * k_prev; k_prev is zero on the boundary layer.
template <typename T>
struct LaterStage {
  const T* u;
  const T* k_prev;
  T stage_dt;
  T* k_out;
  __device__ T value(long long p) const { return stage_input(u[p], stage_dt, k_prev[p]); }
  __device__ void store(long long p, T lap) const { k_out[p] = lap; }
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
class NaiveBackend final : public CudaBackend<T> {
 public:
  NaiveBackend(const Problem& p, const BackendOptions& o)
      : CudaBackend<T>(p, o, 5 * p.grid.points() * sizeof(T), "naive"), rk_(make_rk4_constants<T>(p.dt)) {
    for (auto& k : k_) {
      k = DeviceBuffer<T>(p.grid.points());
      prepare_stage_field(k, p.grid, p.radius());
    }
  }

 private:
  void step_once() override {
    const Problem& p = this->problem_;
    with_radius(p.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const auto w = make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz);
      T* u = this->u_.get();
      launch_global_stencil<R, T>(p.grid, w, FirstStage<T>{u, k_[0].get()});
      for (int s = 1; s < 4; ++s)
        launch_global_stencil<R, T>(p.grid, w, LaterStage<T>{u, k_[s - 1].get(), rk_.stage_dt[s - 1], k_[s].get()});
      launch_interior_pointwise<T>(p.grid, R,
                                   Combine<T>{u, k_[0].get(), k_[1].get(), k_[2].get(), k_[3].get(), rk_.dt_over_6});
    });
  }

  Rk4Constants<T> rk_;
  DeviceBuffer<T> k_[4];
};

}  // namespace

void register_naive_backend(BackendRegistry& registry) {
  BackendEntry e;
  e.name = "naive";
  e.description = "CUDA: one global-memory kernel per RK4 stage plus a combine kernel";
  e.uses_cuda = true;
  // Stage 1 reads u, writes k1; stages 2-4 read u and k_prev, write k_s; the combine reads u
  // and k1..k4 and writes u: 2 + 3*3 + 6 = 17 arrays per point per step.
  e.bytes_per_point = [](const Problem&, std::size_t size) { return 17.0 * double(size); };
  e.working_bytes = [](const Problem& p, std::size_t size) { return 5 * p.grid.points() * size; };
  set_factories<NaiveBackend>(e);
  registry.add(std::move(e));
}

}  // namespace heat
