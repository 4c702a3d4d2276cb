// tiled with material fields K(x), C(x) (docs/design.md §1, "Materials"): the step's four passes
// in the quadratic factors' form (stencils/rk4_forms.hpp). Single passes, as OnePassBackend runs
// them where a face is not layer (each operand filled first, a source's step increment added by
// the last pass), each a launch of the flux form's kernel: the shared-memory tiles
// (material_pass.cuh) or the global-memory kernel (global_material_stencil.cuh). Or at order 2 all
// four in one launch (material_four_passes.cuh), from u into a second u buffer, with layer faces
// alone. On GPU ranks a box's launches follow one exchange a step of PerStep's 4r ghost planes
// (tiled_ghost_scheme), since none of them steps a part of the box.
#include "backends/tiled/material_passes.hpp"

#include <array>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/cuda/global_material_stencil.cuh"
#include "backends/cuda/linear_stages.cuh"
#include "backends/tiled/backends.cuh"
#include "backends/tiled/material_four_passes.cuh"
#include "backends/tiled/material_pass.cuh"
#include "core/dispatch.hpp"
#include "stencils/material_stencil.hpp"
#include "stencils/rk4_forms.hpp"

namespace heat {
namespace {

// The last pass with a source, out = base + c * (1/C) div(K grad in) + add, as BasePlusLapOp
// (linear_stages.cuh) without the add, in the fast cpu backend's order of the two adds.
template <typename T>
struct BasePlusLapAddingOp {
  BasePlusLap<T> pass;
  struct Centre {
    T base, add;
  };
  __device__ T value(long long p) const { return pass.in[p]; }
  __device__ Centre centre(long long p) const { return {pass.base[p], pass.add[p]}; }
  __device__ void store(long long p, T lap, T, Centre here) const {
    pass.out[p] = base_plus_lap(here.base, pass.c, lap) + here.add;
  }
};

// Each pass a launch of the global-memory kernel.
template <int R, typename T>
class GlobalMemoryPasses {
 public:
  GlobalMemoryPasses(const Grid&, int) {}
  void launch(const Grid& g, const MaterialWeights<R, T>& w, const DeviceMaterialView<R, T>& m,
              const BasePlusLap<T>& pass, std::array<PlaneRange, 2>) const {
    if (pass.add)
      launch_global_material_stencil<R, T>(g, w, m, BasePlusLapAddingOp<T>{pass});
    else
      launch_global_material_stencil<R, T>(g, w, m, BasePlusLapOp<T>{pass});
  }
};

// Float's tiles are 64 columns (a warp's 32 pairs) by 16 rows, double's 32 by 16: one_pass.cuh's
// shapes where a face is not layer.
template <int R, typename T>
using MaterialTile = PlaneTile<R, T, sizeof(T) == sizeof(float) ? 32 : 16, 16, 1>;

// Each pass a launch of the tiles' kernel: from u (the first pass of each factor), from another
// operand, or the last pass adding a source's increment.
template <int R, typename T>
class TiledPasses {
  using Tile = MaterialTile<R, T>;

 public:
  TiledPasses(const Grid& g, int device) : from_u_(g, device), later_(g, device), adding_(g, device) {}
  void launch(const Grid& g, const MaterialWeights<R, T>& w, const DeviceMaterialView<R, T>& m,
              const BasePlusLap<T>& pass, std::array<PlaneRange, 2> planes) const {
    const MaterialPassArgs<R, T> args{grid_dims(g), w, m, pass.in, pass.base, pass.c, pass.out, {}, pass.add};
    if (pass.in == pass.base)
      from_u_.launch(args, planes, 0);
    else if (pass.add)
      adding_.launch(args, planes, 0);
    else
      later_.launch(args, planes, 0);
  }

 private:
  TileLauncher<MaterialPass<Tile, true>> from_u_;
  TileLauncher<MaterialPass<Tile, false>> later_;
  TileLauncher<MaterialPass<Tile, false, true>> adding_;
};

template <int R, typename T, class Passes>
class MaterialPassBackend final : public CudaBackend<T> {
 public:
  MaterialPassBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : CudaBackend<T>(p, o, material_working_arrays(MaterialKernel::Tiles) * p.grid.points() * sizeof(T), "tiled"),
        weights_(make_material_weights<R, T>(p.grid.hx, p.grid.hy, p.grid.hz)),
        constants_(make_factored_constants<T>(p.dt)),
        v_{DeviceBuffer<T>(p.grid.points()), DeviceBuffer<T>(p.grid.points())},
        operand_fill_(p, FillPart::Full, FillRows::StencilRead, &this->fill_arrays_),
        passes_(p.grid, o.device) {
    if (p.source) upload_source_increment(source_step_, p, p.dt, true);
    this->take_exchange(exchange);
  }

  void set_step_dt(double dt) override {
    constants_ = make_factored_constants<T>(dt);
    if (this->problem_.source) upload_source_increment(source_step_, this->problem_, dt, true);
  }

 private:
  // The scratch fields carry u's boundary layer, which no pass writes but the tiles' pairs that
  // straddle it (with the pass's base there, as one_pass.cuh's); poisoned when first prepared,
  // as PassFormBackend's.
  void prepare_resident_field() override {
    copy_boundary_layer(this->u_, {&v_[0], &v_[1]}, this->problem_.grid, R, !prepared_);
    prepared_ = true;
  }

  void step_once() override {
    const DeviceMaterialView<R, T> m = this->materials_.template view<R>();
    int number = 0;
    factored_rk4_step(
        [&](const BasePlusLap<T>& pass) {
          if (this->fills_operand(StepPart::Whole, ++number)) operand_fill_(const_cast<T*>(pass.in));
          passes_.launch(this->problem_.grid, weights_, m, pass, this->planes_of(StepPart::Whole, number));
        },
        this->u_.get(), v_[0].get(), v_[1].get(), constants_, source_step_.get());
  }

  MaterialWeights<R, T> weights_;
  PassConstants<T> constants_;
  DeviceBuffer<T> v_[2];
  DeviceBoundaryFill operand_fill_;  // the ghosts a pass reads, as the problem states them
  DeviceBuffer<T> source_step_;      // the step increment s; empty without a source
  Passes passes_;
  bool prepared_ = false;
};

// All four passes in one launch, from u into the other u buffer, one block a SM, in the shapes the
// registers allow (docs/design.md, "Grouping (d) at order 2"): float's region 64x24 columns (56x16
// written), double's 32x24 (24x16), one row a thread (768 and 384 threads).
template <typename T>
using MaterialFourPassTile = std::conditional_t<sizeof(T) == sizeof(float), FourPassTile<1, float, 32, 24, 1, 1>,
                                                FourPassTile<1, double, 16, 24, 1, 1>>;

template <typename T, class Tile>
class MaterialFourPassBackend final : public CudaBackend<T> {
 public:
  MaterialFourPassBackend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange)
      : CudaBackend<T>(p, o, material_working_arrays(MaterialKernel::FourPasses) * p.grid.points() * sizeof(T),
                       "tiled"),
        weights_(make_material_weights<1, T>(p.grid.hx, p.grid.hy, p.grid.hz)),
        constants_(make_factored_constants<T>(p.dt)),
        u_next_(p.grid.points()),
        step_(p.grid, o.device) {
    if (p.source) {
      upload_source_increment(source_step_, p, p.dt, true);
      adding_step_.emplace(p.grid, o.device);
    }
    this->take_exchange(exchange);
  }

  void set_step_dt(double dt) override {
    constants_ = make_factored_constants<T>(dt);
    if (this->problem_.source) upload_source_increment(source_step_, this->problem_, dt, true);
  }
  // Both u buffers: after a step the other is u.
  std::vector<T*> exchanged_fields() override { return {this->u_.get(), u_next_.get()}; }

 private:
  void prepare_resident_field() override {
    copy_boundary_layer(this->u_, {&u_next_}, this->problem_.grid, 1, !prepared_);
    prepared_ = true;
  }
  void step_once() override {
    const DeviceMaterialView<1, T> m = this->materials_.template view<1>();
    T* const u = this->u_.get();
    const T* const c = constants_.c;
    MaterialFourPassArgs<T> args{grid_dims(this->problem_.grid), weights_, m.inverse_conductivity,
                                 m.inverse_heat_capacity, u, u, {c[0], c[1], c[2], c[3]}, u_next_.get()};
    const std::array<PlaneRange, 2> planes = this->planes_of(StepPart::Whole, 4);
    if (adding_step_) {
      args.add = source_step_.get();
      adding_step_->launch(args, planes, 0);
    } else {
      step_.launch(args, planes, 0);
    }
    std::swap(this->u_, u_next_);
  }
  void swap_second_buffer_back() override { std::swap(this->u_, u_next_); }

  MaterialWeights<1, T> weights_;
  PassConstants<T> constants_;
  DeviceBuffer<T> u_next_;
  DeviceBuffer<T> source_step_;  // the step increment s; empty without a source
  TileLauncher<MaterialFourPasses<Tile>> step_;
  std::optional<TileLauncher<MaterialFourPasses<Tile, true>>> adding_step_;  // with a source
  bool prepared_ = false;
};

}  // namespace

int material_step_arrays(MaterialKernel kernel, int material_arrays) {
  return fuses_four_passes(kernel) ? 2 + material_arrays : kFactoredStepArrays + 4 * material_arrays;
}

int material_working_arrays(MaterialKernel kernel) { return fuses_four_passes(kernel) ? 2 : 3; }

template <typename T>
std::unique_ptr<Backend<T>> make_material_pass_backend(const Problem& p, const BackendOptions& o,
                                                       HaloExchange<T>* exchange, MaterialKernel kernel) {
  if (fuses_four_passes(kernel)) {
    const std::string& name = kFusedMaterialConfiguration;
    if (p.order != 2)
      throw InputError("tiled configuration '" + name + "' is built for order 2 alone, not " + std::to_string(p.order) +
                       ": tiled steps material fields at every order in single passes");
    if (fills_ghosts(p.boundaries, exchange))
      throw InputError("tiled configuration '" + name +
                       "' applies the operator 4 times per launch, with no boundary fill between: a face that is not "
                       "layer needs single passes, as tiled's own choice for material fields runs");
    return std::make_unique<MaterialFourPassBackend<T, MaterialFourPassTile<T>>>(p, o, exchange);
  }
  return with_radius(p.order, [&](auto radius) -> std::unique_ptr<Backend<T>> {
    constexpr int R = decltype(radius)::value;
    if (kernel == MaterialKernel::GlobalMemory)
      return std::make_unique<MaterialPassBackend<R, T, GlobalMemoryPasses<R, T>>>(p, o, exchange);
    return std::make_unique<MaterialPassBackend<R, T, TiledPasses<R, T>>>(p, o, exchange);
  });
}

template std::unique_ptr<Backend<float>> make_material_pass_backend<float>(const Problem&, const BackendOptions&,
                                                                           HaloExchange<float>*, MaterialKernel);
template std::unique_ptr<Backend<double>> make_material_pass_backend<double>(const Problem&, const BackendOptions&,
                                                                             HaloExchange<double>*, MaterialKernel);

}  // namespace heat
