// The tiled backend's three kinds of Backend, for a configuration of tiled.cu: the step's four
// Horner passes (horner_form.cuh) one per kernel (one_pass.cuh, one_pass_copy_engine.cuh), two per
// kernel (two_passes.cuh) or all four in one (four_passes.cuh).
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>

#include "solver/cuda/global_stencil.cuh"
#include "solver/tiled/four_passes.cuh"
#include "solver/tiled/horner_form.cuh"
#include "solver/tiled/one_pass.cuh"
#include "solver/tiled/one_pass_copy_engine.cuh"
#include "solver/tiled/tile_launcher.cuh"
#include "solver/tiled/two_passes.cuh"

namespace heat {

// Prepares, from the initial u, the device fields that carry u's boundary layer, which no kernel
// writes (the other u buffer, Horner's scratch fields): u's boundary layer and, where `poison`, the
// interior NaN until a kernel writes it, so a point a kernel fails to write poisons the result.
template <typename T>
void copy_boundary_layer(const DeviceBuffer<T>& u, std::initializer_list<DeviceBuffer<T>*> fields, const Grid& g,
                         int r, bool poison) {
  for (DeviceBuffer<T>* field : fields) {
    if (poison) poison_interior(*field, g, r);
    copy_boundary_layer_only(u, *field, g, r);
  }
  HEAT_CUDA_CHECK(cudaDeviceSynchronize());
}

// What the backends of the Horner form (horner_form.cuh) share: the stencil's weights, the
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
  // Poisoned when first prepared only: a backend given a new field to step (adopt_device_field
  // again) has already shown that its kernels write every interior point.
  void prepare_fields(std::initializer_list<DeviceBuffer<T>*> written) {
    copy_boundary_layer(this->u_, written, this->problem_.grid, Tile::R, !prepared_);
    prepared_ = true;
  }
  GridDims dims() const { return grid_dims(this->problem_.grid); }

  StencilWeights<Tile::R, T> weights_;
  HornerConstants<T> constants_;

 private:
  bool prepared_ = false;
};

// Horner's four passes one per kernel, with two scratch fields. Config::Launcher<FromU> runs the
// first pass (from u) or the later ones: one_pass.cuh's TileLauncher, or
// one_pass_copy_engine.cuh's launcher, which maps the fields the passes read.
template <typename T, class Config>
class OnePassBackend final : public HornerFormBackend<T, Config> {
  using Base = HornerFormBackend<T, Config>;
  using typename Base::Tile;
  template <bool FromU>
  using Launcher = typename Config::template Launcher<FromU>;

 public:
  OnePassBackend(const Problem& p, const BackendOptions& o)
      : Base(p, o),
        device_(o.device),
        v_{DeviceBuffer<T>(p.grid.points()), DeviceBuffer<T>(p.grid.points())},
        later_(make_launcher<false>(p.grid, o.device, {v_[0].get(), v_[1].get()})) {}

  // The first pass's launcher is made here, once u_ holds the field: the copy engine's map is of
  // u's address, which adopt_device_field() brings from the caller.
  void prepare_resident_field() override {
    first_.emplace(make_launcher<true>(this->problem_.grid, device_, {this->u_.get()}));
    this->prepare_fields({&v_[0], &v_[1]});
  }

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
      first_->launch(args);
    else
      later_.launch(args);
  }

  int device_;
  DeviceBuffer<T> v_[2];
  std::optional<Launcher<true>> first_;  // the first pass, from u
  Launcher<false> later_;
};

// Horner's passes two per kernel (two_passes.cuh): passes 1-2 from u into the scratch field v2,
// passes 3-4 from v2 into the other u buffer (neighbouring blocks still read u around their tiles).
template <typename T, class Config>
class TwoPassBackend final : public HornerFormBackend<T, Config> {
  using Base = HornerFormBackend<T, Config>;
  using typename Base::Tile;

 public:
  TwoPassBackend(const Problem& p, const BackendOptions& o)
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
  TileLauncher<TwoPasses<Tile, true>> first_;  // passes 1-2, from u
  TileLauncher<TwoPasses<Tile, false>> second_;
};

// Horner's four passes in one kernel (four_passes.cuh): from u into the other u buffer.
template <typename T, class Config>
class FourPassBackend final : public HornerFormBackend<T, Config> {
  using Base = HornerFormBackend<T, Config>;
  using typename Base::Tile;

 public:
  FourPassBackend(const Problem& p, const BackendOptions& o)
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
  TileLauncher<FourPasses<Tile>> step_;
};

// Each configuration names its kind of Backend (Config::Backend<T>).
template <typename T, class Config>
std::unique_ptr<Backend<T>> make_configured(const Problem& p, const BackendOptions& o) {
  return std::make_unique<typename Config::template Backend<T>>(p, o);
}

}  // namespace heat
