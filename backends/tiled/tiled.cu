// tiled: the RK4 step in 2.5D shared-memory kernels. The step runs as four passes of one shape
// (stencils/rk4_forms.hpp: v = base + c * a*Lap(operand)), in the form of its two quadratic factors (all
// four passes in one kernel: Horner's form), grouped into kernels by a configuration. The default
// of each order and precision is DefaultOf below, with the reason for it; `heatrk4 backends` prints
// them as a table (the registry entry's `defaults`), and benchmarks/worklog.md, "The tiled
// defaults", has the times at 600^3 behind each choice.
//
// Grouping more passes per kernel moves fewer arrays per step (10 for single passes, 4 for a factor
// per kernel, 2 for all four) but recomputes the earlier passes on a halo of r per pass, and holds
// more in registers; the wider the stencil, the sooner that costs more than the traffic it saves.
// The factors' form moves one array fewer than Horner's as single passes (11) and lets a kernel of
// two passes read one array, not u beside its operand (5 for Horner's pairs).
//
// Where a face's condition is not layer, every pass's operand must be filled before it is read, so
// tiled runs single passes (BoundaryOf below). A default build compiles these eight, the single
// passes of the five whose default fuses passes, and nothing else. -DHEAT_WITH_TILED_SWEEP=ON also
// builds the other shapes of each family below (the "List"s), for tuning: `heatrk4-bench --backends
// tiled:all` times every built configuration, and test_tiled checks each against the cpu reference;
// -DHEAT_TILED_SWEEP_FAMILIES=<list> builds the lists of the families named (SweepFamily) alone.
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "core/dispatch.hpp"
#include "backends/cuda/material_arrays.hpp"
#include "backends/cuda/source_arrays.hpp"
#include "backends/registry.hpp"
#include "backends/tiled/backends.cuh"
#include "backends/tiled/material_passes.hpp"
#include "backends/tiled/matrix_pairs.cuh"
#include "backends/tiled/matrix_pass.cuh"
#include "backends/tiled/tiled.hpp"
#include "stencils/rk4_forms.hpp"

// The sweep's families this build compiles (backends/CMakeLists.txt), as bits of SweepFamily.
#ifndef HEAT_TILED_SWEEP_FAMILY_BITS
#define HEAT_TILED_SWEEP_FAMILY_BITS 0
#endif

// nvcc's front end reports static members of a configuration that one of its instantiations never
// reads as "declared but never referenced" (diagnostic 177): OnePassConfig's kCopiesPlanes where
// CopyEngineConfig hides it, and the like. Each is read wherever a configuration is built; the
// warnings would only bury the ones that matter.
#pragma nv_diag_suppress 177

namespace heat {
namespace {

// One pass per kernel, the quadratic factors' form ("factors/<tile x>x<tile y>/c2x<M>[/a<A>]"):
// one_pass.cuh, output tiles of (2*TX) x (TY*M) columns, each thread owning an x pair of columns in
// M rows; u, the operand of the pass and the two scratch fields in global memory; what a plane
// needs loaded A planes ahead.
template <int R, typename T, int TX, int TY, int M, int Ahead = 1>
struct OnePassConfig {
  template <typename Value>
  using Backend = OnePassBackend<Value, OnePassConfig>;
  static constexpr int kArraysPerPoint = kFactoredStepArrays;
  static constexpr int kWorkingArrays = 3;
  static constexpr int kKernelsPerStep = 4;
  static constexpr const char* kKernelFile = "one_pass.cuh";
  static constexpr bool kCopiesPlanes = false;
  using Tile = PlaneTile<R, T, TX, TY, M, Ahead>;
  template <bool FromU, bool AddsSource>
  using Launcher = TileLauncher<OnePass<Tile, FromU, AddsSource>>;
  static std::string name() {
    return "factors/" + std::to_string(Tile::kTileX) + "x" + std::to_string(Tile::kTileY) + "/c2x" + std::to_string(M) +
           (Ahead > 1 ? "/a" + std::to_string(Ahead) : "");
  }
};

// The same passes with the operand's planes brought into shared memory by the copy engine
// (one_pass_copy_engine.cuh), Depth planes ahead of need ("/tma<Depth>").
template <int R, typename T, int TX, int TY, int M, int Ahead, int Depth>
struct CopyEngineConfig : OnePassConfig<R, T, TX, TY, M, Ahead> {
  template <typename Value>
  using Backend = OnePassBackend<Value, CopyEngineConfig>;
  static constexpr const char* kKernelFile = "one_pass_copy_engine.cuh";
  static constexpr bool kCopiesPlanes = true;
  using Tile = CopyEngineTile<R, T, TX, TY, M, Depth, Ahead>;
  template <bool FromU, bool AddsSource>
  using Launcher = CopyEngineLauncher<Tile, FromU, AddsSource>;
  static std::string name() { return OnePassConfig<R, T, TX, TY, M, Ahead>::name() + "/tma" + std::to_string(Depth); }
};

// The same passes in double with the x and y sums as FP64 tensor-core products (matrix_pass.cuh),
// WarpsX x WarpsY warps of 8x8 blocks ("factors/<tile x>x<tile y>/c2x1[/a<A>]/dmma"): sweep
// builds only, for benchmarks/tiled_analysis.md's tensor-core model.
template <int R, int WarpsX, int WarpsY, int Ahead>
struct MatrixPassConfig : OnePassConfig<R, double, 4 * WarpsX, 8 * WarpsY, 1, Ahead> {
  template <typename Value>
  using Backend = OnePassBackend<Value, MatrixPassConfig>;
  static constexpr const char* kKernelFile = "matrix_pass.cuh";
  using Tile = MatrixPassTile<R, WarpsX, WarpsY, Ahead>;
  template <bool FromU, bool AddsSource>
  using Launcher = TileLauncher<MatrixPass<Tile, FromU, AddsSource>>;
  static std::string name() { return OnePassConfig<R, double, 4 * WarpsX, 8 * WarpsY, 1, Ahead>::name() + "/dmma"; }
};

// Two passes per kernel, a quadratic factor per launch ("factor-pairs/..."): two_passes.cuh, output
// tiles of (2*TX) x (TY*M) columns; both launches read one array (u, then w) and write one; u and w
// in global memory. "/b<N>": the registers bounded to N blocks per SM.
template <int R, typename T, int TX, int TY, int M, int MinBlocks = 0>
struct FactorPairConfig {
  template <typename Value>
  using Backend = FactorPairBackend<Value, FactorPairConfig>;
  static constexpr int kArraysPerPoint = 4;
  static constexpr int kWorkingArrays = 2;
  static constexpr int kKernelsPerStep = 2;
  static constexpr const char* kKernelFile = "two_passes.cuh";
  using Tile = PairTile<R, T, TX, TY, M, MinBlocks>;
  template <bool AddsSource>
  using Kernels = TwoPasses<Tile, AddsSource>;
  static std::string name() {
    return "factor-pairs/" + std::to_string(Tile::kTileX) + "x" + std::to_string(Tile::kTileY) + "/c2x" +
           std::to_string(M) + (MinBlocks > 0 ? "/b" + std::to_string(MinBlocks) : "");
  }
};

// The same factor per kernel in double with the x and y sums of both passes as FP64 tensor-core
// products (matrix_pairs.cuh), WarpsX x WarpsY warps of two 8x8 blocks ("factor-pairs/<tile
// x>x<tile y>/c2x1/dmma"): sweep builds only, benchmarks/tiled_analysis.md's candidate (b').
template <int R, int WarpsX, int WarpsY>
struct MatrixPairConfig : FactorPairConfig<R, double, 4 * WarpsX, 16 * WarpsY, 1> {
  template <typename Value>
  using Backend = FactorPairBackend<Value, MatrixPairConfig>;
  static constexpr const char* kKernelFile = "matrix_pairs.cuh";
  using Tile = MatrixPairTile<R, WarpsX, WarpsY>;
  template <bool AddsSource>
  using Kernels = MatrixPairs<Tile, AddsSource>;
  // Not the base's name(), which would instantiate the base's tile, too large for static shared memory.
  static std::string name() {
    return "factor-pairs/" + std::to_string(Tile::kTileX) + "x" + std::to_string(Tile::kTileY) + "/c2x1/dmma";
  }
};

// All four passes in one kernel ("all4/..."): four_passes.cuh, output tiles of (2*TX - 8r) x
// (TY*M - 8r) columns in regions of (2*TX) x (TY*M); u and the other u buffer in global memory.
// "/b<N>": the registers bounded to N blocks per SM; "/a<A>": u loaded A planes ahead.
template <int R, typename T, int TX, int TY, int M, int MinBlocks = 0, int Ahead = 1>
struct FourPassConfig {
  template <typename Value>
  using Backend = FourPassBackend<Value, FourPassConfig>;
  static constexpr int kArraysPerPoint = 2;  // u read, the new u written
  static constexpr int kWorkingArrays = 2;
  static constexpr int kKernelsPerStep = 1;
  static constexpr const char* kKernelFile = "four_passes.cuh";
  using Tile = FourPassTile<R, T, TX, TY, M, MinBlocks, Ahead>;
  static std::string name() {
    return "all4/" + std::to_string(Tile::kTileX) + "x" + std::to_string(Tile::kTileY) + "/c2x" + std::to_string(M) +
           (MinBlocks > 0 ? "/b" + std::to_string(MinBlocks) : "") + (Ahead > 1 ? "/a" + std::to_string(Ahead) : "");
  }
};

template <class... Configs>
struct ConfigList {};
template <class... Configs, typename F>
void for_each_config(ConfigList<Configs...>, F&& f) {
  (f(Configs{}), ...);
}

template <class... A, class... B>
ConfigList<A..., B...> operator+(ConfigList<A...>, ConfigList<B...>);
template <class... Lists>
using Joined = decltype((Lists{} + ...));

// The default of each radius and precision, and why it won (`heatrk4 backends` prints the table).
// Float's wide tiles are 64 columns (a warp's 32 pairs), double's 32, since its queues take twice
// the registers.
template <int R, typename T>
struct DefaultOf;
template <>
struct DefaultOf<1, float> {
  using type = FourPassConfig<1, float, 32, 24, 2, 1>;
  static constexpr const char* kWhy = "2 arrays; at r = 1 recompute is cheap";
};
template <>
struct DefaultOf<1, double> {
  using type = FourPassConfig<1, double, 16, 24, 2, 1>;
  static constexpr const char* kWhy = "as float; 2 rows per thread: fewer shared loads";
};
// Float's kernel bounded to two blocks of 512 threads per SM: 64 registers instead of 76, without
// spilling.
template <>
struct DefaultOf<2, float> {
  using type = FactorPairConfig<2, float, 32, 16, 1, 2>;
  static constexpr const char* kWhy = "all4's halo of 8 costs more than it saves";
};
template <>
struct DefaultOf<2, double> {
  using type = FactorPairConfig<2, double, 16, 16, 1>;
  static constexpr const char* kWhy = "re-reads less halo than 64x8 tiles";
};
// Float's narrow tiles: two blocks of 256 threads per SM, whose barriers interleave, beat one of 512.
template <>
struct DefaultOf<3, float> {
  using type = FactorPairConfig<3, float, 32, 8, 1>;
  static constexpr const char* kWhy = "two blocks per SM beat one of twice the tile";
};
// Double at order 6: a factor per kernel with its x and y sums on the FP64 tensor cores, 4.790
// against the single passes' 5.661 ms at 600^3 on an H200 (worklog d2); at order 8 the two tie.
template <>
struct DefaultOf<3, double> {
  using type = MatrixPairConfig<3, 4, 2>;
  static constexpr const char* kWhy = "DMMA x-y sums make the pairs' 4 arrays pay: 15% under the single passes";
};
template <>
struct DefaultOf<4, float> {
  using type = OnePassConfig<4, float, 32, 16, 1, 2>;
  static constexpr const char* kWhy = "the pairs' recompute costs more than it saves";
};
template <>
struct DefaultOf<4, double> {
  using type = CopyEngineConfig<4, double, 16, 16, 1, 2, 2>;
  static constexpr const char* kWhy = "the copy engine frees the loads' registers";
};

// The sweep's lists: the other shapes of each family at the orders where it is a default or close
// to one. A sweep build compiles those of its families (HEAT_TILED_SWEEP_FAMILY_BITS), whose bits
// are in the order of backends/CMakeLists.txt's names for them.
enum SweepFamily : unsigned { kSweepFactors = 1, kSweepFactorPairs = 2, kSweepAll4 = 4, kSweepDmma = 8 };
template <unsigned Family, class List>
using IfSwept = std::conditional_t<(HEAT_TILED_SWEEP_FAMILY_BITS & Family) != 0, List, ConfigList<>>;
//
// One pass per kernel, at every order: 64x8 and 64x16 (32x16 in double) tiles, one or two planes
// ahead; float also two rows per thread (64x16/c2x2); from order 6 also the copy engine's passes,
// with the operand's planes two or four ahead and a tile twice as tall.
template <int R, typename T>
struct OnePassShapes {
  static constexpr int kWideThreadsX = sizeof(T) == sizeof(float) ? 32 : 16;
  static constexpr bool kFloat = sizeof(T) == sizeof(float);
  using Common = ConfigList<OnePassConfig<R, T, 32, 8, 1>, OnePassConfig<R, T, kWideThreadsX, 16, 1>,
                            OnePassConfig<R, T, 32, 8, 1, 2>, OnePassConfig<R, T, kWideThreadsX, 16, 1, 2>>;
  using CopyEngine =
      ConfigList<CopyEngineConfig<R, T, kWideThreadsX, 16, 1, 2, 2>, CopyEngineConfig<R, T, kWideThreadsX, 16, 1, 2, 4>,
                 CopyEngineConfig<R, T, kWideThreadsX, 32, 1, 2, 2>>;
  using List = Joined<Common, std::conditional_t<kFloat, ConfigList<OnePassConfig<R, T, 32, 8, 2>>, ConfigList<>>,
                      std::conditional_t<(R >= 3), CopyEngine, ConfigList<>>>;
};

// A factor per kernel, at orders 2 to 6: 64x8 and 64x16 (32x16 in double) tiles, and in float
// 64x16 with the registers bounded to two blocks of 512 threads per SM. Not at order 8, where the
// one shape whose planes fit static shared memory (64x8) holds so many registers (one block of 8
// warps per SM) that it falls far behind the single passes, and 64x16 (32x16 in double), its planes
// in dynamic shared memory, one block per SM, ran slower still in float and 3% behind in double
// (benchmarks/results/tiled_ab_t25_h100.txt); at order 6 in double only 32x16 fits.
template <int R, typename T>
struct TwoPassShapes {
  static constexpr int kWideThreadsX = sizeof(T) == sizeof(float) ? 32 : 16;
  static constexpr bool kFloat = sizeof(T) == sizeof(float);
  using Narrow = std::conditional_t<R <= 2 || kFloat, ConfigList<FactorPairConfig<R, T, 32, 8, 1>>, ConfigList<>>;
  using Wide = ConfigList<FactorPairConfig<R, T, kWideThreadsX, 16, 1>>;
  using Bounded = std::conditional_t<kFloat, ConfigList<FactorPairConfig<R, T, 32, 16, 1, 2>>, ConfigList<>>;
  using List = std::conditional_t<(R <= 3), Joined<Narrow, Wide, Bounded>, ConfigList<>>;
};

// All four passes per kernel, at order 2 (regions of 64 or 32 columns by 16 to 48 rows), and one
// float shape at order 4, where the recompute on its halo of 8 costs more than the factors' traffic.
template <int R, typename T>
struct FourPassShapes {
  using List = ConfigList<>;
};
template <>
struct FourPassShapes<1, float> {
  using List = ConfigList<FourPassConfig<1, float, 32, 24, 2, 1>, FourPassConfig<1, float, 32, 16, 2, 1>,
                          FourPassConfig<1, float, 32, 32, 1, 1>, FourPassConfig<1, float, 32, 16, 1, 2>>;
};
template <>
struct FourPassShapes<1, double> {
  using List = ConfigList<FourPassConfig<1, double, 16, 24, 2, 1>, FourPassConfig<1, double, 16, 48, 1, 1>,
                          FourPassConfig<1, double, 16, 32, 1, 1>>;
};
template <>
struct FourPassShapes<2, float> {
  using List = ConfigList<FourPassConfig<2, float, 32, 32, 1, 1>>;
};

// The passes with tensor-core x and y sums, in double at orders 6 and 8 (where double's default is
// the single passes): single passes in the default's 32x16 tile and in 32x32, and a factor per
// kernel in 32x32 (8 warps, one block per SM: 232-255 registers, 160-188 KB of shared memory).
template <int R, typename T>
struct MatrixPassShapes {
  using List = std::conditional_t<
      std::is_same_v<T, double> && R >= 3,
      ConfigList<MatrixPassConfig<R, 4, 2, 2>, MatrixPassConfig<R, 4, 4, 2>, MatrixPairConfig<R, 4, 2>>, ConfigList<>>;
};

// What the registry's tiled runs where a face is not layer: single passes, each operand filled
// before it is read (backends.cuh's OnePassBackend). The default where it runs single passes, else
// the one-pass shape of order 6 double's and order 8 float's defaults; not measured against the
// other shapes, since the fills between its passes are the same for all.
template <int R, typename T>
struct BoundaryOf {
  using Default = typename DefaultOf<R, T>::type;
  using type = std::conditional_t<Default::kKernelsPerStep == 4, Default,
                                  OnePassConfig<R, T, sizeof(T) == sizeof(float) ? 32 : 16, 16, 1, 2>>;
};

// Whether `Config` is one of a list's, and the configurations of `List` that `Sweep` does not hold.
template <class Config, class... Configs>
constexpr bool listed_in(ConfigList<Configs...>) {
  return (std::is_same_v<Config, Configs> || ...);
}
template <class Sweep, class List>
struct Unlisted;
template <class Sweep, class... Configs>
struct Unlisted<Sweep, ConfigList<Configs...>> {
  using type =
      Joined<ConfigList<>, std::conditional_t<listed_in<Configs>(Sweep{}), ConfigList<>, ConfigList<Configs>>...>;
};

// The configurations a build compiles for a radius and precision: the two above (one where they
// are the same) in a default build, and in a sweep build its families' lists after whichever of
// the two those lack. Also the registry's Default and Boundary.
template <int R, typename T>
struct Built {
  using Default = typename DefaultOf<R, T>::type;
  using Boundary = typename BoundaryOf<R, T>::type;
  using Products =
      std::conditional_t<std::is_same_v<Default, Boundary>, ConfigList<Default>, ConfigList<Default, Boundary>>;
  using Sweep = Joined<ConfigList<>, IfSwept<kSweepFactors, typename OnePassShapes<R, T>::List>,
                       IfSwept<kSweepFactorPairs, typename TwoPassShapes<R, T>::List>,
                       IfSwept<kSweepAll4, typename FourPassShapes<R, T>::List>,
                       IfSwept<kSweepDmma, typename MatrixPassShapes<R, T>::List>>;
  using List = Joined<typename Unlisted<Sweep, Products>::type, Sweep>;
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

// The row of `heatrk4 backends`' table for the default of an order in T.
template <typename T>
OrderDefault order_default(int order) {
  return with_radius(order, [&](auto radius) {
    using Of = DefaultOf<decltype(radius)::value, T>;
    using Config = typename Of::type;
    return OrderDefault{order,
                        sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double,
                        Config::name(),
                        Config::kKernelsPerStep,
                        Config::kArraysPerPoint,
                        Config::kKernelFile,
                        Of::kWhy};
  });
}

// Calls f(config) for the configuration of that name among those built for the order in T; an
// InputError that lists the built ones if there is none.
template <typename T, typename F>
void with_configuration(int order, const std::string& name, F&& f) {
  with_built<T>(order, [&](auto built) {
    bool found = false;
    std::string names;
    for_each_config(typename decltype(built)::List{}, [&](auto config) {
      names += (names.empty() ? "" : ", ") + decltype(config)::name();
      if (!found && decltype(config)::name() == name) found = true, f(config);
    });
    if (!found)
      throw InputError(
          "tiled configuration '" + name + "' is not built for order " + std::to_string(order) + " in " +
          (sizeof(T) == 4 ? "float" : "double") + "; built: " + names +
          (HEAT_TILED_SWEEP_FAMILY_BITS == kSweepFactors + kSweepFactorPairs + kSweepAll4 + kSweepDmma
               ? ""
               : " (configure with -DHEAT_WITH_TILED_SWEEP=ON to build every configuration)"));
    return 0;
  });
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

namespace {

// The name of `configuration` of `order` in `precision`: the default where empty.
std::string configuration_name(int order, Precision precision, const std::string& configuration) {
  return configuration.empty() ? tiled_default_configuration(order, precision) : configuration;
}

// Calls read(config) with that configuration (with_configuration in `precision`'s type).
template <typename Read>
void read_configuration(int order, Precision precision, const std::string& configuration, Read&& read) {
  const std::string name = configuration_name(order, precision, configuration);
  if (precision == Precision::Float)
    with_configuration<float>(order, name, read);
  else
    with_configuration<double>(order, name, read);
}

// The launches a step of `order` takes in `configuration` (the default of each precision where
// empty), the fewer of the precisions it is built for.
int tiled_kernels_per_step(int order, const std::string& configuration) {
  if (const std::optional<MaterialKernel> kernel = material_kernel_named(configuration))
    if (fuses_four_passes(*kernel)) return 1;
  int kernels = 4;
  for (Precision precision : {Precision::Float, Precision::Double}) {
    const std::vector<std::string> built = tiled_configurations(order, precision);
    if (std::find(built.begin(), built.end(), configuration_name(order, precision, configuration)) == built.end())
      continue;
    read_configuration(order, precision, configuration,
                       [&](auto config) { kernels = std::min(kernels, decltype(config)::kKernelsPerStep); });
  }
  return kernels;
}

// Two exchanges a step of 2r ghost planes, after the launches that end with passes 2 and 4, step
// a third of the ghost planes PerStep's 4r do (r a side in passes 1 and 3 against 3r, 2r and r in
// passes 1 to 3), and each hides behind the rest of its launch: on 4 H200s at order 8, 96.5% weak
// and 92.4% strong against PerStep's 95.5% / 82.9% edges first and 95.2% / 90.4% interior first. All four passes in one
// launch exchange once a step. Material fields' passes (material_passes.hpp) step a box whole, after
// one exchange a step of PerStep's 4r planes, as naive and reuse do.
GhostScheme tiled_ghost_scheme(const Problem& p, const std::string& configuration) {
  if (p.materials) return GhostScheme::PerStep;
  return tiled_kernels_per_step(p.order, configuration) >= 2 ? GhostScheme::PerHalfStep : GhostScheme::PerStep;
}

}  // namespace

// Edges first at every order: on 4 H200s (600^3 float, 500 steps, over the copy engines) it beat
// stepping the interior first at every order and count measured but order 8's strong 4 GPUs with
// PerStep's ghost planes, where the last launch's rest was too short to hide the exchange; with PerHalfStep's it wins there too.
HaloOverlap tiled_halo_overlap(int order) {
  (void)order;
  return HaloOverlap::EdgesFirst;
}

std::string tiled_default_configuration(int order, Precision precision) {
  return with_built(order, precision, [](auto built) { return decltype(built)::Default::name(); });
}

std::string tiled_boundary_configuration(int order, Precision precision) {
  return with_built(order, precision, [](auto built) { return decltype(built)::Boundary::name(); });
}

// Why a configuration named by the caller cannot step material fields.
std::string no_material_kernels(const std::string& configuration) {
  return "tiled configuration '" + configuration +
         "' has no kernels of material fields: the registry's tiled steps them, in single passes of the flux form (" +
         kTiledMaterialConfiguration + "; " + kGlobalMaterialConfiguration +
         ": the same passes in the global-memory kernel; " + kFusedMaterialConfiguration +
         ": all four in one kernel, at order 2)";
}

template <typename T>
std::unique_ptr<Backend<T>> make_tiled_backend(const Problem& problem, const BackendOptions& options,
                                               const std::string& configuration, HaloExchange<T>* exchange) {
  if (const std::optional<MaterialKernel> kernel = material_kernel_named(configuration)) {
    if (!problem.materials)
      throw InputError("tiled configuration '" + configuration + "' steps material fields only: give K or C as a field");
    return make_material_pass_backend<T>(problem, options, exchange, *kernel);
  }
  if (problem.materials) throw InputError(no_material_kernels(configuration));
  std::unique_ptr<Backend<T>> made;
  with_configuration<T>(problem.order, configuration, [&](auto config) {
    using Config = decltype(config);
    const Precision precision = sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double;
    if (Config::kKernelsPerStep != 4 && fills_ghosts(problem.boundaries, exchange))
      throw InputError("tiled configuration '" + configuration + "' applies the operator " +
                       std::to_string(4 / Config::kKernelsPerStep) +
                       " times per launch, with no boundary fill between: a face that is not layer needs single "
                       "passes, as tiled's own choice for it (" +
                       tiled_boundary_configuration(problem.order, precision) + ") runs");
    made = make_configured<T, Config>(problem, options, exchange);
  });
  return made;
}

template std::unique_ptr<Backend<float>> make_tiled_backend<float>(const Problem&, const BackendOptions&,
                                                                   const std::string&, HaloExchange<float>*);
template std::unique_ptr<Backend<double>> make_tiled_backend<double>(const Problem&, const BackendOptions&,
                                                                     const std::string&, HaloExchange<double>*);

namespace {

// The configuration the entry named by `configuration` runs for `p` (empty: the registry's tiled,
// which runs the default, or where ghosts are filled tiled_boundary_configuration). A rank's box
// (`exchange` not null) asks its exchange, so that every rank runs the configuration of one
// process, whatever its own box's faces (a middle rank's are all layer).
template <typename T>
std::string configuration_for(const Problem& p, Precision precision, const std::string& configuration,
                              HaloExchange<T>* exchange) {
  if (!configuration.empty()) return configuration;
  return fills_ghosts(p.boundaries, exchange) ? tiled_boundary_configuration(p.order, precision)
                                              : tiled_default_configuration(p.order, precision);
}

// The entry named by `configuration`'s backend for `p`: with material fields the registry's tiled
// steps them in the single passes of material_passes.hpp, in shared-memory tiles, else
// make_tiled_backend's configuration (which refuses material fields but in material_passes.hpp's).
template <typename T>
std::unique_ptr<Backend<T>> make_for_entry(const Problem& p, const BackendOptions& o, const std::string& configuration,
                                           HaloExchange<T>* exchange) {
  if (p.materials && configuration.empty()) return make_material_pass_backend<T>(p, o, exchange, MaterialKernel::Tiles);
  const Precision precision = sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double;
  return make_tiled_backend<T>(p, o, configuration_for(p, precision, configuration, exchange), exchange);
}

// What a configuration moves and holds.
struct Footprint {
  int arrays_per_point;  // read or written per interior point per step: the byte model
  int working_arrays;    // resident on the device
};
Footprint footprint(const Problem& p, std::size_t value_size, const std::string& configuration) {
  const Precision precision = value_size == sizeof(float) ? Precision::Float : Precision::Double;
  Footprint f{};
  read_configuration(p.order, precision, configuration_for<float>(p, precision, configuration, nullptr),
                     [&](auto config) { f = {decltype(config)::kArraysPerPoint, decltype(config)::kWorkingArrays}; });
  return f;
}

// One entry for the default of each order and precision (configuration empty), or for one
// named configuration. Both fill boundaries: a named configuration that cannot refuses
// (make_tiled_backend).
BackendEntry make_tiled_entry(const std::string& configuration) {
  BackendEntry e;
  e.name = configuration.empty() ? "tiled" : "tiled:" + configuration;
  e.description =
      "CUDA: 2.5D shared-memory kernels (tiles with halos, streamed along z): all four Horner passes in one kernel "
      "at order 2; otherwise the step's two quadratic factors, a factor per kernel at orders 4 and 6 in float, one "
      "pass per kernel otherwise, and wherever a face's condition is not layer";
  e.uses_cuda = true;
  e.fills_boundaries = true;
  e.adds_sources = true;
  const MaterialKernel material_kernel = material_kernel_named(configuration).value_or(MaterialKernel::Tiles);
  e.steps_materials = configuration.empty() || material_kernel_named(configuration).has_value();
  // The byte model: all four passes in one kernel read u once and write it once; a factor per
  // kernel moves 4 arrays, one pass per kernel 10; a source's step increment is read once more, by
  // the last pass. Material fields: material_step_arrays, the material arrays read in each pass
  // (single passes) or once (the fused step).
  e.bytes_per_point = [configuration, material_kernel](const Problem& p, std::size_t size) {
    const int arrays = p.materials ? material_step_arrays(material_kernel, material_arrays_per_stencil(p.order))
                                   : footprint(p, size, configuration).arrays_per_point;
    return double(arrays + (p.source ? 1 : 0)) * double(size);
  };
  e.working_bytes = [configuration, material_kernel](const Problem& p, std::size_t size) {
    const int arrays = p.materials ? material_working_arrays(material_kernel)
                                   : footprint(p, size, configuration).working_arrays;
    return std::size_t(arrays) * p.grid.points() * size + device_source_bytes(p, size) + device_material_bytes(p, size);
  };
  e.ghost_scheme = [configuration](const Problem& p) { return tiled_ghost_scheme(p, configuration); };
  // Measured at order 8 on 4 H200s, weak: 0, 4 and 8 planes a side gave 96.5%, 96.9% and 96.7%.
  e.side_planes = [](int order) { return order / 2; };
  e.halo_overlap = tiled_halo_overlap;
  e.make_float = [configuration](const Problem& p, const BackendOptions& o, HaloExchange<float>* exchange) {
    return make_for_entry<float>(p, o, configuration, exchange);
  };
  e.make_double = [configuration](const Problem& p, const BackendOptions& o, HaloExchange<double>* exchange) {
    return make_for_entry<double>(p, o, configuration, exchange);
  };
  return e;
}

}  // namespace

BackendEntry tiled_configuration_entry(const std::string& configuration) { return make_tiled_entry(configuration); }

void register_tiled_backend(BackendRegistry& registry) {
  BackendEntry entry = make_tiled_entry("");
  for (int order : {2, 4, 6, 8}) {
    entry.defaults.push_back(order_default<float>(order));
    entry.defaults.push_back(order_default<double>(order));
  }
  registry.add(std::move(entry));
}

}  // namespace heat
