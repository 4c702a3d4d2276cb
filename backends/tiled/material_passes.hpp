// tiled with material fields K(x), C(x) (docs/design.md §1, "Materials"): the step's four passes
// of the flux form, in the quadratic factors' form, one per kernel or at order 2 all four in one.
// A translation unit of its own, so that its kernels (four orders, two precisions, three kinds of
// pass, and the fused step) compile beside tiled.cu's.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/backend.hpp"

namespace heat {

// The passes' kernel: the single passes in shared-memory tiles (material_pass.cuh), which the
// registry's tiled runs; the global-memory kernel that naive and reuse run
// (global_material_stencil.cuh); or at order 2 all four passes in one kernel
// (material_four_passes.cuh), one row a thread (in float 768 threads a block, which beat 2 rows a
// thread's 384: 4.24 against 5.80 ms at 600^3, worklog m2). Each is named as a configuration, so
// that a benchmark can time them side by side in one call and a test hold them to the same bits.
enum class MaterialKernel { Tiles, GlobalMemory, FourPasses };
inline const std::string kTiledMaterialConfiguration = "factors/shared-memory";
inline const std::string kGlobalMaterialConfiguration = "factors/global-memory";
inline const std::string kFusedMaterialConfiguration = "all4/shared-memory/c2x1";

constexpr bool fuses_four_passes(MaterialKernel kernel) { return kernel == MaterialKernel::FourPasses; }

// The kernel a configuration of material fields names; none where `configuration` is another.
inline std::optional<MaterialKernel> material_kernel_named(const std::string& configuration) {
  if (configuration == kTiledMaterialConfiguration) return MaterialKernel::Tiles;
  if (configuration == kGlobalMaterialConfiguration) return MaterialKernel::GlobalMemory;
  if (configuration == kFusedMaterialConfiguration) return MaterialKernel::FourPasses;
  return std::nullopt;
}

// What a kernel moves and holds: arrays read or written per interior point per step beside the
// material arrays (`material_arrays` of them per stencil: material_arrays_per_stencil), and the
// fields resident on the device. Single passes read the material arrays in each pass, the fused
// step once.
int material_step_arrays(MaterialKernel kernel, int material_arrays);
int material_working_arrays(MaterialKernel kernel);

// `exchange` as for BackendEntry::make (a rank's box, laid out for PerStep's ghost planes).
// InputError for the fused step at another order, or where a face is not layer (its passes have no
// fill between them).
template <typename T>
std::unique_ptr<Backend<T>> make_material_pass_backend(const Problem& p, const BackendOptions& o,
                                                       HaloExchange<T>* exchange, MaterialKernel kernel);

}  // namespace heat
