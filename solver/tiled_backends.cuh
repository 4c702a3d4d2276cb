// The tiled backend's four kinds of Backend, for a configuration from tiled.cu: fused groups
// (tiled_kernel.cuh; one kernel, or two with the stage field and partial sum between them), and
// linear_stages.cuh's Horner form as four passes one per kernel (plane_stencil.cuh), two per
// kernel (paired_passes.cuh) or all four in one (fused_passes.cuh).
#pragma once

#include <initializer_list>
#include <memory>
#include <utility>

#include "solver/fused_passes.cuh"
#include "solver/global_stencil.cuh"
#include "solver/linear_stages.cuh"
#include "solver/paired_passes.cuh"
#include "solver/plane_copy_stencil.cuh"
#include "solver/plane_stencil.cuh"
#include "solver/tiled_kernel.cuh"

namespace heat {

// Prepares, from the initial u, the device fields that carry u's boundary layer, which no kernel
// writes (the other u buffer, Horner's scratch fields): a copy of u, with the interior NaN until a
// kernel writes it, so a point a kernel fails to write poisons the result.
template <typename T>
void copy_boundary_layer(const DeviceBuffer<T>& u, std::initializer_list<DeviceBuffer<T>*> fields, const Grid& g,
                         int r) {
  for (DeviceBuffer<T>* field : fields) {
    field->copy_from(u);
    poison_interior(*field, g, r);
  }
  HEAT_CUDA_CHECK(cudaDeviceSynchronize());
}

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

  // The kernels read one u buffer and write the interior of the other, since neighbouring blocks
  // still read u around their tiles.
  void prepare_resident_field() override { copy_boundary_layer(this->u_, {&u_next_}, this->problem_.grid, R); }

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

// What the backends of Horner's form (linear_stages.cuh) share: the stencil's weights, the
// passes' constants, and the copy of the initial u's boundary layer into the fields the kernels
// write (v_s = u there, and no pass writes it).
template <typename T, class Config>
class HornerFormBackend : public CudaBackend<T> {
 protected:
  using Tile = typename Config::Tile;
  HornerFormBackend(const Problem& p, const BackendOptions& o)
      : CudaBackend<T>(p, o, Config::kWorkingArrays * p.grid.points() * sizeof(T), "tiled"),
        weights_(make_weights<Tile::R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz)),
        constants_(make_horner_constants<T>(p.dt)) {}
  void prepare_fields(std::initializer_list<DeviceBuffer<T>*> written) {
    copy_boundary_layer(this->u_, written, this->problem_.grid, Tile::R);
  }
  GridDims dims() const { return grid_dims(this->problem_.grid); }

  StencilWeights<Tile::R, T> weights_;
  HornerConstants<T> constants_;
};

// Horner's four passes one per kernel, with two scratch fields. Config::Launcher<FromU> runs the
// first pass (from u) or the later ones: plane_stencil.cuh's TileLauncher, or
// plane_copy_stencil.cuh's launcher, which maps the fields the passes read.
template <typename T, class Config>
class HornerBackend final : public HornerFormBackend<T, Config> {
  using Base = HornerFormBackend<T, Config>;
  using typename Base::Tile;
  template <bool FromU>
  using Launcher = typename Config::template Launcher<FromU>;

 public:
  HornerBackend(const Problem& p, const BackendOptions& o)
      : Base(p, o),
        v_{DeviceBuffer<T>(p.grid.points()), DeviceBuffer<T>(p.grid.points())},
        first_(make_launcher<true>(p.grid, o.device, {this->u_.get()})),
        later_(make_launcher<false>(p.grid, o.device, {v_[0].get(), v_[1].get()})) {}

  void prepare_resident_field() override { this->prepare_fields({&v_[0], &v_[1]}); }

 private:
  // `operands`: the fields the launcher's passes read around each point (u for the first pass).
  template <bool FromU>
  static Launcher<FromU> make_launcher(const Grid& g, int device, std::initializer_list<const T*> operands) {
    if constexpr (Config::kCopiesPlanes)
      return {g, device, operands};
    else
      return {g, device};
  }
  void step_once() override {
    horner_rk4_step([&](const HornerPass<T>& pass) { launch(pass); }, this->u_.get(), v_[0].get(), v_[1].get(),
                    this->constants_);
  }
  void launch(const HornerPass<T>& pass) const {
    const PassArgs<Tile::R, T, 1> args{this->dims(), this->weights_, pass.in, pass.u, {pass.c}, pass.out};
    if (pass.in == pass.u)
      first_.launch(args);
    else
      later_.launch(args);
  }

  DeviceBuffer<T> v_[2];
  Launcher<true> first_;  // the first pass, from u
  Launcher<false> later_;
};

// Horner's passes two per kernel (paired_passes.cuh): passes 1-2 from u into the scratch field v2,
// passes 3-4 from v2 into the other u buffer (neighbouring blocks still read u around their tiles).
template <typename T, class Config>
class PairedBackend final : public HornerFormBackend<T, Config> {
  using Base = HornerFormBackend<T, Config>;
  using typename Base::Tile;

 public:
  PairedBackend(const Problem& p, const BackendOptions& o)
      : Base(p, o),
        u_next_(p.grid.points()),
        v2_(p.grid.points()),
        first_(p.grid, o.device),
        second_(p.grid, o.device) {}

  void prepare_resident_field() override { this->prepare_fields({&u_next_, &v2_}); }

 private:
  void step_once() override {
    T* const u = this->u_.get();
    const T* const c = this->constants_.c;
    first_.launch({this->dims(), this->weights_, u, u, {c[0], c[1]}, v2_.get()});
    second_.launch({this->dims(), this->weights_, v2_.get(), u, {c[2], c[3]}, u_next_.get()});
    std::swap(this->u_, u_next_);
  }

  DeviceBuffer<T> u_next_, v2_;
  TileLauncher<PairedPasses<Tile, true>> first_;  // passes 1-2, from u
  TileLauncher<PairedPasses<Tile, false>> second_;
};

// Horner's four passes in one kernel (fused_passes.cuh): from u into the other u buffer.
template <typename T, class Config>
class FusedPassesBackend final : public HornerFormBackend<T, Config> {
  using Base = HornerFormBackend<T, Config>;
  using typename Base::Tile;

 public:
  FusedPassesBackend(const Problem& p, const BackendOptions& o)
      : Base(p, o), u_next_(p.grid.points()), step_(p.grid, o.device) {}

  void prepare_resident_field() override { this->prepare_fields({&u_next_}); }

 private:
  void step_once() override {
    T* const u = this->u_.get();
    const T* const c = this->constants_.c;
    step_.launch({this->dims(), this->weights_, u, u, {c[0], c[1], c[2], c[3]}, u_next_.get()});
    std::swap(this->u_, u_next_);
  }

  DeviceBuffer<T> u_next_;
  TileLauncher<FusedPasses<Tile>> step_;
};

// Each configuration names its kind of Backend (Config::Backend<T>).
template <typename T, class Config>
std::unique_ptr<Backend<T>> make_configured(const Problem& p, const BackendOptions& o) {
  return std::make_unique<typename Config::template Backend<T>>(p, o);
}

}  // namespace heat
