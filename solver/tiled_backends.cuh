// The tiled backend's two kinds of Backend, for a configuration from tiled.cu: fused groups
// (tiled_kernel.cuh; one kernel, or two with the stage field and partial sum between them) and
// stage by stage (plane_stencil.cuh running linear_stages.cuh's passes).
#pragma once

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "solver/global_stencil.cuh"
#include "solver/linear_stages.cuh"
#include "solver/plane_stencil.cuh"
#include "solver/tiled_kernel.cuh"

namespace heat {

// The group kernels of one configuration: one, or two with the stage field between them.
template <class Config, bool TwoKernels = (Config::kSplit < 4)>
struct GroupLaunchers {
  GroupLaunchers(const Grid& g, int device) : first(g, device) {}
  PlaneGroupLauncher<typename Config::First> first;
};
template <class Config>
struct GroupLaunchers<Config, true> {
  GroupLaunchers(const Grid& g, int device) : first(g, device), second(g, device) {}
  PlaneGroupLauncher<typename Config::First> first;
  PlaneGroupLauncher<typename Config::Second> second;
};

template <typename T, class Config>
class TiledBackend final : public CudaBackend<T> {
  static constexpr int R = Config::kRadius;
  static constexpr int kSplit = Config::kSplit;

 public:
  TiledBackend(const Problem& p, const BackendOptions& o)
      : CudaBackend<T>(p, o, Config::kWorkingArrays * p.grid.points() * sizeof(T), "tiled"),
        weights_(make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz)),
        rk_(make_rk4_constants<T>(p.dt)),
        u_next_(p.grid.points()),
        kernels_(p.grid, o.device) {
    // Stage field and partial sum between the two kernels: zero on the boundary layer, which no
    // kernel writes, NaN on the interior until the first kernel writes it.
    if (kSplit < 4) {
      k_ = DeviceBuffer<T>(p.grid.points());
      prepare_stage_field(k_, p.grid, R);
    }
    if (kSplit == 2 || kSplit == 3) {
      sum_ = DeviceBuffer<T>(p.grid.points());
      prepare_stage_field(sum_, p.grid, R);
    }
  }

  // Both u buffers carry the boundary layer, which no kernel writes: the kernels read one and
  // write the interior of the other, since neighbouring blocks still read u around their tiles.
  // The other's interior starts as NaN, so the first step proves every point was written.
  void upload(const Field<T>& u) override {
    this->u_.copy_from_host(u.data());
    u_next_.copy_from(this->u_);
    poison_interior(u_next_, this->problem_.grid, R);
    HEAT_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  void step_once() override {
    GroupArgs<R, T> args{};
    args.dims = grid_dims(this->problem_.grid);
    args.weights = weights_;
    args.rk = rk_;
    args.u = this->u_.get();
    if constexpr (kSplit == 4) {
      args.u_out = u_next_.get();
      kernels_.first.launch(args);
    } else {
      GroupArgs<R, T> first = args;
      first.k_out = k_.get();
      first.sum_out = sum_.get();
      kernels_.first.launch(first);
      GroupArgs<R, T> second = args;
      second.k_prev = k_.get();
      second.sum_in = sum_.get();
      second.u_out = u_next_.get();
      kernels_.second.launch(second);
    }
    std::swap(this->u_, u_next_);
  }

  StencilWeights<R, T> weights_;
  Rk4Constants<T> rk_;
  DeviceBuffer<T> u_next_, k_, sum_;
  GroupLaunchers<Config> kernels_;
};

// Stage by stage: reuse's four passes (linear_stages.cuh), each through the 2.5D shared-memory
// kernel. The stage fields live in global memory (GlobalMemoryBackend prepares them).
template <typename T, class Config>
class StageByStageBackend final : public GlobalMemoryBackend<T, 3> {
  using Tile = typename Config::Tile;
  template <typename Op>
  using Launcher = PlaneStencilLauncher<Tile, Op>;

 public:
  StageByStageBackend(const Problem& p, const BackendOptions& o)
      : GlobalMemoryBackend<T, 3>(p, o, "tiled"),
        weights_(make_weights<Tile::R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz)),
        launchers_(Launcher<FirstStage<T>>(p.grid, o.device), Launcher<MiddleStage<T>>(p.grid, o.device),
                   Launcher<LastStage<T>>(p.grid, o.device)) {}

 private:
  void step_once() override {
    linear_rk4_step(
        [&](const auto& op) { std::get<Launcher<std::decay_t<decltype(op)>>>(launchers_).launch(weights_, op); },
        this->u_.get(), this->k_[0].get(), this->k_[1].get(), this->k_[2].get(), this->rk_);
  }

  StencilWeights<Tile::R, T> weights_;
  std::tuple<Launcher<FirstStage<T>>, Launcher<MiddleStage<T>>, Launcher<LastStage<T>>> launchers_;
};

template <typename T, class Config>
std::unique_ptr<Backend<T>> make_configured(const Problem& p, const BackendOptions& o) {
  if constexpr (Config::kStageByStage)
    return std::make_unique<StageByStageBackend<T, Config>>(p, o);
  else
    return std::make_unique<TiledBackend<T, Config>>(p, o);
}

}  // namespace heat
