// tiled: RK4 stages fused in 2.5D shared-memory kernels (tiled_kernel.cuh). A configuration fixes,
// at compile time, the stage grouping (all four stages in one kernel, or two kernels with the
// stage field between them in global memory), the output tile and the items per thread.
// benchmarks/tiled_analysis.md predicts which wins; a measured sweep on the device picks the
// default per order and precision below.
#include <cmath>
#include <utility>

#include "solver/dispatch.hpp"
#include "solver/global_stencil.cuh"
#include "solver/registry.hpp"
#include "solver/tiled.hpp"
#include "solver/tiled_kernel.cuh"
#include "solver/tiled_planes.cuh"

namespace heat {
namespace {

// Split is the last stage of the first kernel; 4: one kernel runs all four stages.
template <int R, typename T, int TileX, int TileY, int Split, int Items>
struct TiledConfig {
  static constexpr int kRadius = R;
  static constexpr int kSplit = Split;
  using First = GroupGeometry<R, T, TileX, TileY, 1, Split, Items>;
  using Second = GroupGeometry<R, T, TileX, TileY, (Split < 4 ? Split + 1 : 4), 4, Items>;
  template <class Group>
  using Launcher = GroupLauncher<Group>;
  static std::string name() {
    const std::string grouping = Split == 4 ? "4" : std::to_string(Split) + "+" + std::to_string(4 - Split);
    return grouping + "/" + std::to_string(TileX) + "x" + std::to_string(TileY) + "/m" + std::to_string(Items);
  }
};

// The plane-synchronous family (tiled_planes.cuh): every thread does the same work, regions of
// RX x (TY*M) columns per block, named "planes-<grouping>/<RX>x<TY*M>".
template <int R, typename T, int RX, int TY, int M, int Split>
struct PlaneConfig {
  static constexpr int kRadius = R;
  static constexpr int kSplit = Split;
  using First = PlaneGroup<R, T, 1, Split, RX, TY, M>;
  using Second = PlaneGroup<R, T, (Split < 4 ? Split + 1 : 4), (Split < 4 ? 4 - Split : 1), RX, TY, M>;
  template <class Group>
  using Launcher = PlaneGroupLauncher<Group>;
  static std::string name() {
    const std::string grouping = Split == 4 ? "4" : std::to_string(Split) + "+" + std::to_string(4 - Split);
    return "planes-" + grouping + "/" + std::to_string(RX) + "x" + std::to_string(TY * M);
  }
};

// Arrays that cross global memory per point per step: u read and the new u written, plus, between
// two kernels, the stage field written and read back, and the partial RK4 sum after stage 2 or 3.
constexpr int arrays_per_point(int split) { return split == 4 ? 2 : (split == 1 ? 5 : 7); }
// Device arrays: u, the new u, and the stage field and partial sum between two kernels.
constexpr int working_arrays(int split) { return split == 4 ? 2 : (split == 1 ? 3 : 4); }

template <class... Configs>
struct ConfigList {};
template <class... Configs, typename F>
void for_each_config(ConfigList<Configs...>, F&& f) {
  (f(Configs{}), ...);
}

// The shapes built per radius and precision, and the one the registry uses (Default). Each keeps
// its warps within what leaves ptxas enough registers for the queues (no spills at -Xptxas -v).
// The defaults are the paper model's picks (benchmarks/tiled_analysis.md) until the device sweep.
template <int R, typename T>
struct Built;
template <>
struct Built<1, float> {
  using Default = TiledConfig<1, float, 64, 16, 2, 2>;
  using List = ConfigList<Default, TiledConfig<1, float, 32, 16, 4, 2>, PlaneConfig<1, float, 64, 8, 4, 4>,
                          PlaneConfig<1, float, 64, 8, 4, 2>>;
};
template <>
struct Built<1, double> {
  using Default = TiledConfig<1, double, 32, 8, 2, 2>;
  using List = ConfigList<Default, TiledConfig<1, double, 32, 8, 4, 2>, PlaneConfig<1, double, 32, 16, 2, 4>>;
};
template <>
struct Built<2, float> {
  using Default = TiledConfig<2, float, 32, 16, 2, 1>;
  using List = ConfigList<Default, TiledConfig<2, float, 32, 16, 1, 2>, TiledConfig<2, float, 32, 8, 4, 2>,
                          PlaneConfig<2, float, 64, 8, 4, 4>, PlaneConfig<2, float, 64, 8, 4, 2>>;
};
template <>
struct Built<2, double> {
  using Default = TiledConfig<2, double, 16, 16, 2, 1>;
  using List = ConfigList<Default, TiledConfig<2, double, 16, 16, 1, 2>, PlaneConfig<2, double, 32, 16, 2, 2>>;
};
template <>
struct Built<3, float> {
  using Default = TiledConfig<3, float, 32, 16, 2, 1>;
  using List = ConfigList<Default, TiledConfig<3, float, 32, 12, 1, 2>, PlaneConfig<3, float, 64, 8, 4, 2>>;
};
template <>
struct Built<3, double> {
  using Default = TiledConfig<3, double, 16, 12, 2, 1>;
  using List = ConfigList<Default, TiledConfig<3, double, 16, 8, 2, 1>, PlaneConfig<3, double, 32, 16, 2, 2>>;
};
template <>
struct Built<4, float> {
  using Default = TiledConfig<4, float, 32, 16, 2, 1>;
  using List = ConfigList<Default, TiledConfig<4, float, 16, 16, 1, 2>, PlaneConfig<4, float, 64, 8, 4, 2>,
                          PlaneConfig<4, float, 32, 16, 2, 2>>;
};
template <>
struct Built<4, double> {
  using Default = TiledConfig<4, double, 16, 8, 2, 1>;
  using List = ConfigList<Default, PlaneConfig<4, double, 32, 16, 2, 2>>;
};

// NaN on the interior: a point that no kernel writes shows up in the first step's result.
template <typename T>
struct PoisonInterior {
  T* field;
  __device__ void operator()(long long q) const { field[q] = T(NAN); }
};

// The group kernels of one configuration: one, or two with the stage field between them.
template <class Config, bool TwoKernels = (Config::kSplit < 4)>
struct GroupLaunchers {
  GroupLaunchers(const Grid& g, int device) : first(g, device) {}
  typename Config::template Launcher<typename Config::First> first;
};
template <class Config>
struct GroupLaunchers<Config, true> {
  GroupLaunchers(const Grid& g, int device) : first(g, device), second(g, device) {}
  typename Config::template Launcher<typename Config::First> first;
  typename Config::template Launcher<typename Config::Second> second;
};

template <typename T, class Config>
class TiledBackend final : public CudaBackend<T> {
  static constexpr int R = Config::kRadius;
  static constexpr int kSplit = Config::kSplit;

 public:
  TiledBackend(const Problem& p, const BackendOptions& o)
      : CudaBackend<T>(p, o, working_arrays(kSplit) * p.grid.points() * sizeof(T), "tiled"),
        weights_(make_weights<R, T>(p.alpha, p.grid.hx, p.grid.hy, p.grid.hz)),
        rk_(make_rk4_constants<T>(p.dt)),
        u_next_(p.grid.points()),
        kernels_(p.grid, o.device) {
    // Stage fields are zero on the boundary layer, which no kernel writes; their interior is
    // poisoned until the first kernel writes it.
    if (kSplit < 4) {
      k_ = DeviceBuffer<T>(p.grid.points());
      k_.zero();
      launch_interior_pointwise<T>(p.grid, R, PoisonInterior<T>{k_.get()});
    }
    if (kSplit == 2 || kSplit == 3) {
      sum_ = DeviceBuffer<T>(p.grid.points());
      sum_.zero();
      launch_interior_pointwise<T>(p.grid, R, PoisonInterior<T>{sum_.get()});
    }
  }

  // Both u buffers carry the boundary layer, which no kernel writes: the kernels read one and
  // write the interior of the other, since neighbouring blocks still read u around their tiles.
  // The other's interior starts as NaN, so the first step proves every point was written.
  void upload(const Field<T>& u) override {
    this->u_.copy_from_host(u.data());
    u_next_.copy_from(this->u_);
    launch_interior_pointwise<T>(this->problem_.grid, R, PoisonInterior<T>{u_next_.get()});
    HEAT_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  void step_once() override {
    GroupArgs<R, T> args{};
    args.dims = grid_dims(this->problem_.grid);
    args.weights = weights_;
    args.rk = rk_;
    args.u = this->u_.get();
    args.aligned_rows = this->problem_.grid.nx % Vector16<T>::kWidth == 0;
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

template <typename T, typename F>
decltype(auto) with_built(int order, F&& f) {
  return with_radius(order, [&](auto radius) -> decltype(auto) { return f(Built<decltype(radius)::value, T>{}); });
}

template <typename F>
decltype(auto) with_built(int order, Precision precision, F&& f) {
  if (precision == Precision::Float) return with_built<float>(order, f);
  return with_built<double>(order, f);
}

int default_split(int order, std::size_t value_size) {
  return with_built(order, value_size == sizeof(float) ? Precision::Float : Precision::Double,
                    [](auto built) { return decltype(built)::Default::kSplit; });
}

}  // namespace

std::vector<std::string> tiled_configurations(int order, Precision precision) {
  std::vector<std::string> names;
  if (!is_supported_order(order)) return names;
  with_built(order, precision, [&](auto built) {
    for_each_config(typename decltype(built)::List{}, [&](auto config) { names.push_back(decltype(config)::name()); });
    return 0;
  });
  return names;
}

std::string tiled_default_configuration(int order, Precision precision) {
  return with_built(order, precision, [](auto built) { return decltype(built)::Default::name(); });
}

template <typename T>
std::unique_ptr<Backend<T>> make_tiled_backend(const Problem& problem, const BackendOptions& options,
                                               const std::string& configuration) {
  return with_built<T>(problem.order, [&](auto built) {
    std::unique_ptr<Backend<T>> made;
    std::string names;
    for_each_config(typename decltype(built)::List{}, [&](auto config) {
      using Config = decltype(config);
      names += (names.empty() ? "" : ", ") + Config::name();
      if (!made && Config::name() == configuration) made = std::make_unique<TiledBackend<T, Config>>(problem, options);
    });
    if (!made)
      throw InputError("tiled configuration '" + configuration + "' is not built for order " +
                       std::to_string(problem.order) + " in " + (sizeof(T) == 4 ? "float" : "double") +
                       "; built: " + names);
    return made;
  });
}

template std::unique_ptr<Backend<float>> make_tiled_backend<float>(const Problem&, const BackendOptions&,
                                                                   const std::string&);
template std::unique_ptr<Backend<double>> make_tiled_backend<double>(const Problem&, const BackendOptions&,
                                                                     const std::string&);

namespace {

// The split of a configuration from its name: "4" (all fused) or "S+..." (first kernel ends at S).
int split_of(const std::string& configuration) {
  return configuration.rfind("4/", 0) == 0 ? 4 : configuration[0] - '0';
}

// One entry for the default of each order and precision (configuration empty), or for one
// named configuration.
BackendEntry make_tiled_entry(const std::string& configuration) {
  BackendEntry e;
  e.name = configuration.empty() ? "tiled" : "tiled:" + configuration;
  e.description = "CUDA: RK4 stages fused in 2.5D shared-memory kernels (tiles with halos, streamed along z)";
  e.uses_cuda = true;
  auto split = [configuration](const Problem& p, std::size_t size) {
    return configuration.empty() ? default_split(p.order, size) : split_of(configuration);
  };
  // All four stages fused: u read once and written once. Two kernels add the stage field written
  // and read back (1+3), and the partial RK4 sum as well (2+2, 3+1).
  e.bytes_per_point = [split](const Problem& p, std::size_t size) {
    return double(arrays_per_point(split(p, size))) * double(size);
  };
  e.working_bytes = [split](const Problem& p, std::size_t size) {
    return std::size_t(working_arrays(split(p, size))) * p.grid.points() * size;
  };
  e.make_float = [configuration](const Problem& p, const BackendOptions& o) {
    return make_tiled_backend<float>(
        p, o, configuration.empty() ? tiled_default_configuration(p.order, Precision::Float) : configuration);
  };
  e.make_double = [configuration](const Problem& p, const BackendOptions& o) {
    return make_tiled_backend<double>(
        p, o, configuration.empty() ? tiled_default_configuration(p.order, Precision::Double) : configuration);
  };
  return e;
}

}  // namespace

BackendEntry tiled_configuration_entry(const std::string& configuration) { return make_tiled_entry(configuration); }

void register_tiled_backend(BackendRegistry& registry) { registry.add(make_tiled_entry("")); }

}  // namespace heat
