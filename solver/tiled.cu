// tiled: the RK4 step in 2.5D shared-memory kernels. A configuration fixes, at compile time, how the
// step is split into kernels and the block's region: the RK4 stages fused (all four in one kernel,
// or two kernels with the stage field and the partial RK4 sum between them: tiled_kernel.cuh), or
// the step's Horner form (linear_stages.cuh) all four passes in one kernel (fused_passes.cuh),
// two per kernel (paired_passes.cuh) or one (plane_stencil.cuh, plane_copy_stencil.cuh).
// benchmarks/tiled_analysis.md and benchmarks/worklog.md say how the defaults below were chosen:
// by a measured sweep of every built configuration at 600^3 on the device.
#include <string>
#include <type_traits>

#include "solver/dispatch.hpp"
#include "solver/linear_stages.cuh"
#include "solver/plane_stencil.cuh"
#include "solver/registry.hpp"
#include "solver/tiled.hpp"
#include "solver/tiled_backends.cuh"
#include "solver/tiled_kernel.cuh"

// nvcc's front end reports static members of a configuration that one of its instantiations never
// reads as "declared but never referenced" (#177): HornerConfig's kCopiesPlanes where PlaneCopyConfig
// hides it, PairedConfig's counts at the orders that name the pairs' shapes but build none. Each is
// read wherever a configuration is built; the 24 warnings would only bury the ones that matter.
#pragma nv_diag_suppress 177

namespace heat {
namespace {

// Arrays that cross global memory per point per step: u read and the new u written, plus, between
// two kernels, the stage field written and read back, and the partial RK4 sum after stage 2 or 3.
constexpr int arrays_per_point(int split) { return split == 4 ? 2 : (split == 1 ? 5 : 7); }
// Device arrays: u, the new u, and the stage field and partial sum between two kernels.
constexpr int working_arrays(int split) { return split == 4 ? 2 : (split == 1 ? 3 : 4); }

// Fused groups. Split is the last stage of the first kernel; 4: one kernel runs all four stages.
// A block is RX x TY threads, each owning M columns, so its region is RX x (TY*M) columns;
// MinBlocks is the number of blocks per SM its registers must allow.
template <int R, typename T, int RX, int TY, int M, int Split, int MinBlocks = 1>
struct TiledConfig {
  static constexpr int kRadius = R;
  static constexpr int kSplit = Split;
  template <typename Value>
  using Backend = TiledBackend<Value, TiledConfig>;
  static constexpr int kArraysPerPoint = arrays_per_point(Split);
  static constexpr int kWorkingArrays = working_arrays(Split);
  using First = PlaneGroup<R, T, 1, Split, RX, TY, M, MinBlocks>;
  using Second = PlaneGroup<R, T, (Split < 4 ? Split + 1 : 4), (Split < 4 ? 4 - Split : 1), RX, TY, M, MinBlocks>;
  static std::string name() {
    const std::string grouping = Split == 4 ? "4" : std::to_string(Split) + "+" + std::to_string(4 - Split);
    return grouping + "/" + std::to_string(RX) + "x" + std::to_string(TY * M) + "/m" + std::to_string(M) +
           (MinBlocks > 1 ? "b" + std::to_string(MinBlocks) : "");
  }
};

// Horner ("horner"): the four passes of linear_stages.cuh's Horner form of the RK4 step, each a 2.5D
// kernel on output tiles of (2*TX) x (TY*M) columns with a halo of r, u and two scratch fields in
// global memory; a thread owns an x pair of columns in M rows ("c2xM").
template <int R, typename T, int TX, int TY, int M, int Ahead = 1>
struct HornerConfig {
  template <typename Value>
  using Backend = HornerBackend<Value, HornerConfig>;
  static constexpr int kArraysPerPoint = kHornerStepArrays;
  static constexpr int kWorkingArrays = 3;
  static constexpr bool kCopiesPlanes = false;
  using Tile = PlaneTile<R, T, TX, TY, M, Ahead>;
  template <bool FromU>
  using Launcher = TileLauncher<PlaneStencil<Tile, FromU>>;
  static std::string name() {
    return "horner/" + std::to_string(Tile::kTileX) + "x" + std::to_string(Tile::kTileY) + "/c2x" + std::to_string(M) +
           (Ahead > 1 ? "/a" + std::to_string(Ahead) : "");
  }
};

// The same passes with the operand's planes brought into shared memory by the copy engine
// (plane_copy_stencil.cuh), Depth planes ahead of need ("/tmaD"; "/aA": u's planes loaded ahead).
template <int R, typename T, int TX, int TY, int M, int Ahead, int Depth>
struct PlaneCopyConfig : HornerConfig<R, T, TX, TY, M, Ahead> {
  template <typename Value>
  using Backend = HornerBackend<Value, PlaneCopyConfig>;
  static constexpr bool kCopiesPlanes = true;
  using Tile = PlaneCopyTile<R, T, TX, TY, M, Depth, Ahead>;
  template <bool FromU>
  using Launcher = PlaneCopyLauncher<Tile, FromU>;
  static std::string name() { return HornerConfig<R, T, TX, TY, M, Ahead>::name() + "/tma" + std::to_string(Depth); }
};

// Horner's passes two per kernel ("pairs"): paired_passes.cuh, output tiles of (2*TX) x (TY*M)
// columns, the first pass of each pair also on the tile's ring of width r; u, the other u buffer
// and v2 in global memory. Bounds on the blocks per SM the registers of the two kernels (passes
// 1-2, passes 3-4) must allow, 0 for none ("/b2+0": the first kernel bounded to two).
template <int R, typename T, int TX, int TY, int M, int FirstMinBlocks = 0, int SecondMinBlocks = 0>
struct PairedConfig {
  template <typename Value>
  using Backend = PairedBackend<Value, PairedConfig>;
  // Passes 1-2 read u and write v2; passes 3-4 read v2 and u and write the new u.
  static constexpr int kArraysPerPoint = 5;
  static constexpr int kWorkingArrays = 3;
  using Tile = PairTile<R, T, TX, TY, M, FirstMinBlocks, SecondMinBlocks>;
  static std::string name() {
    const bool bounded = FirstMinBlocks > 0 || SecondMinBlocks > 0;
    return "pairs/" + std::to_string(Tile::kTileX) + "x" + std::to_string(Tile::kTileY) + "/c2x" + std::to_string(M) +
           (bounded ? "/b" + std::to_string(FirstMinBlocks) + "+" + std::to_string(SecondMinBlocks) : "");
  }
};

// All four Horner passes in one kernel ("all4"): fused_passes.cuh, output tiles of
// (2*TX - 8r) x (TY*M - 8r) columns in regions of (2*TX) x (TY*M); u and the other u buffer in
// global memory. "/bN": the registers bounded to N blocks per SM; "/aA": u loaded A planes ahead.
template <int R, typename T, int TX, int TY, int M, int MinBlocks = 0, int Ahead = 1>
struct FusedPassConfig {
  template <typename Value>
  using Backend = FusedPassesBackend<Value, FusedPassConfig>;
  static constexpr int kArraysPerPoint = 2;  // u read, the new u written
  static constexpr int kWorkingArrays = 2;
  using Tile = FusedPassTile<R, T, TX, TY, M, MinBlocks, Ahead>;
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

// The fused configurations built per radius and precision, Best being the fastest of them in the
// sweep of benchmarks/worklog.md (t7; at order 2 double m1 and m2 within 1.5%, m1 kept). A fused group needs a halo of
// (stages * r) on each side: order 8 fits two stages per kernel in a 64 x 32 region (48 x 16 output), not four. Each
// column a thread owns holds 2r+1 planes per stage in registers, so fewer columns per thread (m) buy more warps per SM;
// double holds twice the registers per value, so its regions are 32 wide.
template <int R, typename T>
struct Fused;
template <>
struct Fused<1, float> {
  using Best = TiledConfig<1, float, 64, 16, 2, 4>;
  using List = ConfigList<TiledConfig<1, float, 64, 8, 4, 4>, Best, TiledConfig<1, float, 32, 32, 1, 4, 2>,
                          TiledConfig<1, float, 64, 8, 2, 4, 2>, TiledConfig<1, float, 64, 8, 4, 2>>;
};
template <>
struct Fused<1, double> {
  using Best = TiledConfig<1, double, 32, 32, 1, 4>;
  using List = ConfigList<TiledConfig<1, double, 32, 16, 2, 4>, Best, TiledConfig<1, double, 32, 16, 2, 2>>;
};
template <>
struct Fused<2, float> {
  using Best = TiledConfig<2, float, 64, 8, 4, 2>;
  using List = ConfigList<Best, TiledConfig<2, float, 64, 16, 2, 2>, TiledConfig<2, float, 32, 32, 1, 2, 2>>;
};
template <>
struct Fused<2, double> {
  using Best = TiledConfig<2, double, 32, 16, 2, 2>;
  using List = ConfigList<Best, TiledConfig<2, double, 32, 32, 1, 2>>;
};
template <>
struct Fused<3, float> {
  using Best = TiledConfig<3, float, 64, 16, 2, 2>;
  using List = ConfigList<TiledConfig<3, float, 64, 8, 4, 2>, Best>;
};
template <>
struct Fused<3, double> {
  using Best = TiledConfig<3, double, 32, 32, 1, 2>;
  using List = ConfigList<TiledConfig<3, double, 32, 16, 2, 2>, Best>;
};
template <>
struct Fused<4, float> {
  using Best = TiledConfig<4, float, 64, 16, 2, 2>;
  using List = ConfigList<TiledConfig<4, float, 64, 8, 4, 2>, Best, TiledConfig<4, float, 32, 8, 4, 2, 2>>;
};
template <>
struct Fused<4, double> {
  using Best = TiledConfig<4, double, 32, 32, 1, 2>;
  using List = ConfigList<TiledConfig<4, double, 32, 16, 2, 2>, Best>;
};

// The 2.5D shapes of both Horner groupings (a thread owns an x pair of columns in one row): 64x8
// tiles, and 64x16 (float) or 32x16 (double, whose queues take twice the registers; a warp's
// pairs span 64 or 32 columns). Config's trailing parameters (planes loaded ahead, bounds on
// blocks per SM) keep their defaults.
template <template <int, typename, int, int, int, int...> class Config, int R, typename T>
struct PassShapes {
  static constexpr int kWideThreadsX = sizeof(T) == sizeof(float) ? 32 : 16;
  using Narrow = Config<R, T, 32, 8, 1>;
  using Wide = Config<R, T, kWideThreadsX, 16, 1>;
};

// One pass per kernel, at every order, loading one or two planes ahead ("/a2"); float also two rows
// per thread (64x16/c2x2); from order 6 also with the operand's planes brought in by the copy
// engine ("/tmaD", t17). Best the fastest in the sweeps of benchmarks/worklog.md, where it is the
// default (order 8, and order 6 in double): in double the copy engine's wide shape (t17, H200:
// order 8 5.82 ms against 6.34-6.35 without it, order 6 5.84-5.86 against 6.20); in float, where it
// was within 1.5% either way in two runs, the threads' own loads two planes ahead (t10: order 8
// 3.59 ms against 3.66 for the best one plane ahead), the wide shape but for order 6, where 64x8 is
// ahead since t16's vector own pairs (3.09 ms against 3.21; 1.5% ahead before them).
template <int R, typename T>
struct HornerPasses {
  using Shapes = PassShapes<HornerConfig, R, T>;
  using NarrowAhead2 = HornerConfig<R, T, 32, 8, 1, 2>;
  using WideAhead2 = HornerConfig<R, T, Shapes::kWideThreadsX, 16, 1, 2>;
  // The copy engine's passes (built from order 6, where double's default is the single passes): u's
  // planes two ahead, the operand's planes two or four ahead of need, and a wider tile (less halo
  // read per point, but one block of 1024 threads per SM in float).
  using WideCopied = PlaneCopyConfig<R, T, Shapes::kWideThreadsX, 16, 1, 2, 2>;
  using Copied = ConfigList<WideCopied, PlaneCopyConfig<R, T, Shapes::kWideThreadsX, 16, 1, 2, 4>,
                            PlaneCopyConfig<R, T, Shapes::kWideThreadsX, 32, 1, 2, 2>>;
  static constexpr bool kFloat = sizeof(T) == sizeof(float);
  using Best =
      std::conditional_t<(R < 3), typename Shapes::Narrow,
                         std::conditional_t<!kFloat, WideCopied, std::conditional_t<R == 3, NarrowAhead2, WideAhead2>>>;
  using Common = ConfigList<typename Shapes::Narrow, typename Shapes::Wide, NarrowAhead2, WideAhead2>;
  using List = Joined<Common, std::conditional_t<kFloat, ConfigList<HornerConfig<R, T, 32, 8, 2>>, ConfigList<>>,
                      std::conditional_t<(R >= 3), Copied, ConfigList<>>>;
};

// Two passes per kernel, built at orders 2 to 6. At order 8 the one shape whose planes fit static
// shared memory, 64x8, took 162 and 222 registers (one block of 8 warps per SM) and ran 5.33 ms
// against the single passes' 3.34 (H200) and 4.07 (H100; worklog t22): not built.
// Bounded (float): a kernel's registers bounded where that buys warps without spilling to speak of
// (t13, ptxas): at order 4 the wide shape's first kernel to 2 blocks of 512 threads per SM (64
// registers; 76 unbounded, one block), at order 2 the narrow shape's second kernel to 4 blocks
// of 256 (64 registers, 4 bytes spilled; 78 unbounded, three blocks). The second kernel at order 4
// and both in double spill 56-72 bytes under the bound that would add a block, and ran 4-22%
// slower for it. Best in t15's sweep (own pairs as vector accesses): the bounded shapes in float
// (order 4 2.32 ms against 2.94 unbounded, order 2 1.54 against 1.60), 64x8 at order 2 double
// (2.98 against 3.10), the wide shape at order 4 double (4.22 against 5.29).
// At order 6 only the wide shape (t22: 64x8 3.90 ms, 64x16 bounded 3.55 with 156 bytes spilled,
// against 3.13 unbounded, H200), the default in float: it is bound by the SM on both machines
// (3.13 ms on the H200, 3.26 on the H100), the single passes by memory traffic (3.09 on the H200's
// 4.2 TB/s, 3.93 on the H100's 3.0), so on the issue's anchor machine the pairs are 17% faster,
// 1.5% slower on the H200. In double the single passes stay (H200 5.86 against 7.03, H100 7.82
// against 7.22).
template <int R, typename T>
struct HornerPairs {
  using Shapes = PassShapes<PairedConfig, R, T>;
  static constexpr bool kFloat = sizeof(T) == sizeof(float);
  using Bounded = std::conditional_t<R == 1, PairedConfig<R, T, 32, 8, 1, 0, 4>, PairedConfig<R, T, 32, 16, 1, 2, 0>>;
  using Best = std::conditional_t<kFloat && R < 3, Bounded,
                                  std::conditional_t<R == 1, typename Shapes::Narrow, typename Shapes::Wide>>;
  using Common = ConfigList<typename Shapes::Narrow, typename Shapes::Wide>;
  using List =
      std::conditional_t<(R <= 2), Joined<Common, std::conditional_t<kFloat, ConfigList<Bounded>, ConfigList<>>>,
                         std::conditional_t<R == 3, ConfigList<typename Shapes::Wide>, ConfigList<>>>;
};

// All four passes per kernel (t18): at order 2, regions of 64 columns (a warp's pairs; 32 in
// double, whose queues take twice the registers) by 16 to 48 rows; at order 4 one float shape
// kept for the record, where the halo of 8 left it behind the pairs (3.63-3.70 ms against 2.56 on
// the H200; double spilled at every shape, 10.2 ms and more). Best: the fastest in t18's sweeps, and
// in double t19's (two rows per thread: 32x48 regions at 384 threads, 11% faster than one row at 768).
template <int R, typename T>
struct HornerFused {
  using List = ConfigList<>;
};
template <>
struct HornerFused<1, float> {
  using Best = FusedPassConfig<1, float, 32, 24, 2, 1>;
  using List = ConfigList<Best, FusedPassConfig<1, float, 32, 16, 2, 1>, FusedPassConfig<1, float, 32, 32, 1, 1>,
                          FusedPassConfig<1, float, 32, 16, 1, 2>>;
};
template <>
struct HornerFused<1, double> {
  using Best = FusedPassConfig<1, double, 16, 24, 2, 1>;
  using List = ConfigList<Best, FusedPassConfig<1, double, 16, 48, 1, 1>, FusedPassConfig<1, double, 16, 32, 1, 1>>;
};
template <>
struct HornerFused<2, float> {
  using List = ConfigList<FusedPassConfig<2, float, 32, 32, 1, 1>>;
};

// Every configuration built for a radius and precision, and the registry's Default: Horner's
// four passes in one kernel at order 2 (t18), two per kernel at order 4 and at order 6 in float
// (t22), one per kernel otherwise (where the recompute of a wider halo costs more than the traffic
// it saves). The fused RK4 stages are no default any more: at order 2 the pairs beat them by 22%
// (float) and 15% (double).
template <int R, typename T>
struct DefaultOf {
  using type = typename HornerPasses<R, T>::Best;
};
template <typename T>
struct DefaultOf<1, T> {
  using type = typename HornerFused<1, T>::Best;
};
template <typename T>
struct DefaultOf<2, T> {
  using type = typename HornerPairs<2, T>::Best;
};
template <>
struct DefaultOf<3, float> {
  using type = HornerPairs<3, float>::Best;
};
template <int R, typename T>
struct Built {
  using Default = typename DefaultOf<R, T>::type;
  using List = Joined<typename Fused<R, T>::List, typename HornerPasses<R, T>::List, typename HornerPairs<R, T>::List,
                      typename HornerFused<R, T>::List>;
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
      throw InputError("tiled configuration '" + name + "' is not built for order " + std::to_string(order) + " in " +
                       (sizeof(T) == 4 ? "float" : "double") + "; built: " + names);
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

std::string tiled_default_configuration(int order, Precision precision) {
  return with_built(order, precision, [](auto built) { return decltype(built)::Default::name(); });
}

template <typename T>
std::unique_ptr<Backend<T>> make_tiled_backend(const Problem& problem, const BackendOptions& options,
                                               const std::string& configuration) {
  std::unique_ptr<Backend<T>> made;
  with_configuration<T>(problem.order, configuration,
                        [&](auto config) { made = make_configured<T, decltype(config)>(problem, options); });
  return made;
}

template std::unique_ptr<Backend<float>> make_tiled_backend<float>(const Problem&, const BackendOptions&,
                                                                   const std::string&);
template std::unique_ptr<Backend<double>> make_tiled_backend<double>(const Problem&, const BackendOptions&,
                                                                     const std::string&);

namespace {

// What a configuration moves and holds (the default of the order and precision when the name is empty).
struct Footprint {
  int arrays_per_point;  // read or written per interior point per step: the byte model
  int working_arrays;    // resident on the device
};
Footprint footprint(const Problem& p, std::size_t value_size, const std::string& configuration) {
  const Precision precision = value_size == sizeof(float) ? Precision::Float : Precision::Double;
  const std::string name = configuration.empty() ? tiled_default_configuration(p.order, precision) : configuration;
  Footprint f{};
  auto read = [&](auto config) { f = {decltype(config)::kArraysPerPoint, decltype(config)::kWorkingArrays}; };
  if (precision == Precision::Float)
    with_configuration<float>(p.order, name, read);
  else
    with_configuration<double>(p.order, name, read);
  return f;
}

// One entry for the default of each order and precision (configuration empty), or for one
// named configuration.
BackendEntry make_tiled_entry(const std::string& configuration) {
  BackendEntry e;
  e.name = configuration.empty() ? "tiled" : "tiled:" + configuration;
  e.description =
      "CUDA: 2.5D shared-memory kernels (tiles with halos, streamed along z): the step's Horner form, all four "
      "passes in one kernel at order 2, two per kernel at order 4 (and 6 in float), one otherwise";
  e.uses_cuda = true;
  // All four stages (or Horner passes) fused: u read once and written once. Two kernels add the
  // stage field written and read back (1+3), and the partial RK4 sum as well (2+2, 3+1); Horner's
  // passes move 5 two per kernel, 11 one per kernel.
  e.bytes_per_point = [configuration](const Problem& p, std::size_t size) {
    return double(footprint(p, size, configuration).arrays_per_point) * double(size);
  };
  e.working_bytes = [configuration](const Problem& p, std::size_t size) {
    return std::size_t(footprint(p, size, configuration).working_arrays) * p.grid.points() * size;
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
