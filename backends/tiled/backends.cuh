// The tiled backend's kinds of Backend, for a configuration of tiled.cu: the step's four passes
// (stencils/rk4_forms.hpp) one per kernel in the quadratic factors' form (one_pass.cuh,
// one_pass_copy_engine.cuh) or two per kernel, a factor per kernel (two_passes.cuh), or Horner's
// four in one (four_passes.cuh).
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>

#include "backends/cuda/global_stencil.cuh"
#include "backends/cuda/source_arrays.hpp"
#include "backends/tiled/four_passes.cuh"
#include "backends/tiled/one_pass.cuh"
#include "backends/tiled/one_pass_copy_engine.cuh"
#include "backends/tiled/tile_launcher.cuh"
#include "backends/tiled/two_passes.cuh"
#include "stencils/rk4_forms.hpp"

namespace heat {

// Prepares, from the initial u, the device fields that carry u's boundary layer, which no kernel
// writes (the other u buffer, the passes' scratch fields): u's boundary layer and, where `poison`, the
// interior NaN until a kernel writes it, so a point a kernel fails to write poisons the result.
template <typename T>
void copy_boundary_layer(const DeviceBuffer<T>& u, std::initializer_list<DeviceBuffer<T>*> fields, const Grid& g, int r,
                         bool poison) {
  if (fields.size() > std::size_t(BoundaryTargets<T>::kMost)) throw RunError("too many fields for one boundary copy");
  BoundaryTargets<T> targets{{}, 0};
  for (DeviceBuffer<T>* field : fields) {
    if (poison) poison_interior(*field, g, r);
    targets.to[targets.count++] = field->get();
  }
  copy_boundary_layer_to(u, targets, g, r);
  HEAT_CUDA_CHECK(cudaDeviceSynchronize());
}

// p's source's step increment for steps of `dt` (source_increment_for) into `increment`, allocated
// on first use. On the legacy stream, after the steps queued before it, which read the increment
// it replaces.
template <typename T>
void upload_source_increment(DeviceBuffer<T>& increment, const Problem& p, double dt, bool whole_grid) {
  const Field<T> values = source_increment_for<T>(p, dt, whole_grid);
  if (increment.size() == 0) increment = DeviceBuffer<T>(values.size());
  increment.copy_from_host(values.data());
}

// What the backends of the passes (rk4_forms.hpp) share: the stencil's weights, the passes'
// constants, a steady source's step increment, and the copy of the initial u's boundary layer into
// the fields the kernels write (a pass gives its u there, and no pass writes it).
//
// A source adds its step increment s = dt phi(dt A) q/C (source_arrays.hpp) in the step's last
// pass: by a kernel built to add it (AddsSource), which the backend launches for that pass alone,
// so that a run without a source launches the very kernels it did before sources.
template <typename T, class Config>
class PassFormBackend : public CudaBackend<T> {
 protected:
  using Tile = typename Config::Tile;
  // `make_constants`: the passes' constants of a step of dt (the form's make_*_constants).
  PassFormBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange,
                  PassConstants<T> (*make_constants)(double dt))
      : CudaBackend<T>(p, o, Config::kWorkingArrays * p.grid.points() * sizeof(T), "tiled"),
        weights_(make_weights<Tile::R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz)),
        make_constants_(make_constants),
        constants_(make_constants(p.dt)) {
    if (p.source) upload_source_step(p.dt);
    this->take_exchange(exchange);
  }

 public:
  // The source's increment depends on dt too: the shortened step's is made as set-up makes the
  // step's, and replaces it on the device.
  void set_step_dt(double dt) override {
    constants_ = make_constants_(dt);
    if (this->problem_.source) upload_source_step(dt);
  }

 protected:
  // Poisoned when first prepared only: a backend given a new field to step (adopt_device_field
  // again) has already shown that its kernels write every interior point.
  void prepare_fields(std::initializer_list<DeviceBuffer<T>*> written) {
    copy_boundary_layer(this->u_, written, this->problem_.grid, Tile::R, !prepared_);
    prepared_ = true;
  }
  GridDims dims() const { return grid_dims(this->problem_.grid); }
  bool steps_in_parts() const final { return true; }
  void step_once() final { this->step_part(StepPart::Whole); }
  // `launcher`'s launches of `args` on its share of `part`, for a launch ending with pass `last_pass`:
  // one launch, whether the part's planes are one range or two, but where the step overlaps an
  // exchange across x or y (one for each strip of the rim in Edges, CudaBackend::shares_of).
  template <class Launcher, class Args>
  void launch_part(const Launcher& launcher, const Args& args, StepPart part, int last_pass) {
    for (const LaunchShare& share : this->shares_of(part, last_pass))
      launcher.launch(args, share, this->launch_stream(part));
  }

  // The source's step increment for the last pass (PassArgs::add), null without a source.
  const T* source_step() const { return source_step_.get(); }

  StencilWeights<Tile::R, T> weights_;
  PassConstants<T> (*make_constants_)(double dt);
  PassConstants<T> constants_;

 private:
  void upload_source_step(double dt) {
    upload_source_increment(source_step_, this->problem_, dt, this->steps_whole_grid());
  }

  bool prepared_ = false;
  DeviceBuffer<T> source_step_;  // empty without a source
};

// The factors' four passes one per kernel, with two scratch fields: the one kind that can step a
// problem with a face that is not layer (the others apply the operator more than once per launch,
// with no fill between). Config::Launcher<FromU> runs
// the passes that read one array (the first of each factor) or those that also read their u:
// one_pass.cuh's TileLauncher, or one_pass_copy_engine.cuh's launcher, which maps the fields the
// passes read.
template <typename T, class Config>
class OnePassBackend final : public PassFormBackend<T, Config> {
  using Base = PassFormBackend<T, Config>;
  using typename Base::Tile;
  template <bool FromU, bool AddsSource = false>
  using Launcher = typename Config::template Launcher<FromU, AddsSource>;

 public:
  OnePassBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : Base(p, o, exchange, make_factored_constants<T>),
        device_(o.device),
        v_{DeviceBuffer<T>(p.grid.points()), DeviceBuffer<T>(p.grid.points())},
        later_(make_launcher<false>(p.grid, o.device, {v_[0].get(), v_[1].get()})),
        operand_fill_(p, FillPart::Full, FillRows::StencilRead, &this->fill_arrays_) {
    // The last pass reads v_[0] around each point (factored_rk4_step).
    if (p.source) last_.emplace(make_launcher<false, true>(p.grid, o.device, {v_[0].get()}));
  }

  // The first pass's launcher is made here, once u_ holds the field: the copy engine's map is of
  // u's address, which adopt_device_field() brings from the caller.
  void prepare_resident_field() override {
    first_.emplace(make_launcher<true>(this->problem_.grid, device_, {this->u_.get(), v_[1].get()}));
    this->prepare_fields({&v_[0], &v_[1]});
  }

 private:
  // `operands`: the fields the launcher's passes read around each point (u for the first pass).
  template <bool FromU, bool AddsSource = false>
  static Launcher<FromU, AddsSource> make_launcher(const Grid& g, int device,
                                                   std::initializer_list<const T*> operands) {
    if constexpr (Config::kCopiesPlanes)
      return {g, device, operands};
    else
      return {g, device};
  }
  // factored_rk4_step: the second pass writes its third argument.
  T* output_of_pass(int pass) override { return pass == 2 ? v_[1].get() : Base::output_of_pass(pass); }
  // Where a face is not layer, each pass's operand is filled before the pass reads it (as the
  // fast cpu backend steps such a problem: RK4 of the affine system, fast_backend.hpp says why).
  // The operands are this backend's own fields, which only the next pass reads.
  void step_part(StepPart part) override {
    int number = 0;
    factored_rk4_step(
        [&](const BasePlusLap<T>& pass) {
          if (this->fills_operand(part, ++number)) operand_fill_(const_cast<T*>(pass.in));
          launch(pass, part, number);
        },
        this->u_.get(), v_[0].get(), v_[1].get(), this->constants_, this->source_step());
  }
  void launch(const BasePlusLap<T>& pass, StepPart part, int number) {
    PassArgs<Tile::R, T, 1> args{this->dims(), this->weights_, pass.in, pass.base, {pass.c}, pass.out};
    args.add = pass.add;
    if (pass.in == pass.base)
      this->launch_part(*first_, args, part, number);
    else if (pass.add)
      this->launch_part(*last_, args, part, number);
    else
      this->launch_part(later_, args, part, number);
  }

  int device_;
  DeviceBuffer<T> v_[2];
  std::optional<Launcher<true>> first_;  // the first pass of each factor: from u, from v_[1]
  Launcher<false> later_;
  DeviceBoundaryFill operand_fill_;  // the ghosts a pass reads, as the problem states them
  std::optional<Launcher<false, true>> last_;  // with a source: the last pass, which adds its increment
};

// The quadratic factors two passes per kernel, a factor per kernel (Config::Kernels: two_passes.cuh's,
// or matrix_pairs.cuh's), each reading one array: the first from u into the scratch field w, the
// second from w into u, which it does not read.
template <typename T, class Config>
class FactorPairBackend final : public PassFormBackend<T, Config> {
  using Base = PassFormBackend<T, Config>;
  using typename Base::Tile;
  using Args = PassArgs<Tile::R, T, 2>;

 public:
  FactorPairBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : Base(p, o, exchange, make_factored_constants<T>), w_(p.grid.points()), factor_(p.grid, o.device) {
    if (p.source) adding_factor_.emplace(p.grid, o.device);
  }

  void prepare_resident_field() override { this->prepare_fields({&w_}); }
  T* output_of_pass(int pass) override { return pass == 2 ? w_.get() : Base::output_of_pass(pass); }

 private:
  void step_part(StepPart part) override {
    T* const u = this->u_.get();
    const T* const c = this->constants_.c;
    this->launch_part(factor_, Args{this->dims(), this->weights_, u, u, {c[0], c[1]}, w_.get()}, part, 2);
    Args second{this->dims(), this->weights_, w_.get(), w_.get(), {c[2], c[3]}, u};
    if (!adding_factor_) return this->launch_part(factor_, second, part, 4);
    second.add = this->source_step();
    this->launch_part(*adding_factor_, second, part, 4);
  }

  DeviceBuffer<T> w_;
  TileLauncher<typename Config::template Kernels<false>> factor_;
  // With a source: the second factor.
  std::optional<TileLauncher<typename Config::template Kernels<true>>> adding_factor_;
};

// Horner's four passes in one kernel (four_passes.cuh): from u into the other u buffer.
template <typename T, class Config>
class FourPassBackend final : public PassFormBackend<T, Config> {
  using Base = PassFormBackend<T, Config>;
  using typename Base::Tile;

 public:
  FourPassBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : Base(p, o, exchange, make_horner_constants<T>), u_next_(p.grid.points()), step_(p.grid, o.device) {
    if (p.source) adding_step_.emplace(p.grid, o.device);
  }

  void prepare_resident_field() override { this->prepare_fields({&u_next_}); }

 private:
  void step_part(StepPart part) override {
    T* const u = this->u_.get();
    const T* const c = this->constants_.c;
    using Args = PassArgs<Tile::R, T, 4>;
    Args args{this->dims(), this->weights_, u, u, {c[0], c[1], c[2], c[3]}, u_next_.get()};
    if (adding_step_) {
      args.add = this->source_step();
      this->launch_part(*adding_step_, args, part, 4);
    } else {
      this->launch_part(step_, args, part, 4);
    }
    // The new field is whole once the last part has run.
    if (this->completes_step(part)) std::swap(this->u_, u_next_);
  }
  T* output_of_pass(int pass) override {
    if (pass != 4) throw std::logic_error("all four passes run in one launch");
    return u_next_.get();
  }
  void swap_second_buffer_back() override { std::swap(this->u_, u_next_); }

  DeviceBuffer<T> u_next_;
  TileLauncher<FourPasses<Tile>> step_;
  std::optional<TileLauncher<FourPasses<Tile, true>>> adding_step_;  // with a source
};

// Each configuration names its kind of Backend (Config::Backend<T>); `exchange` as for
// BackendEntry::make.
template <typename T, class Config>
std::unique_ptr<Backend<T>> make_configured(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange) {
  return std::make_unique<typename Config::template Backend<T>>(p, o, exchange);
}

}  // namespace heat
