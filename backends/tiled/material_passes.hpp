// tiled with material fields K(x), C(x) (docs/design.md §1, "Materials"): the step's four single
// passes of the flux form, in the quadratic factors' form. A translation unit of its own, so that
// its kernels (four orders, two precisions, three kinds of pass) compile beside tiled.cu's.
#pragma once

#include <memory>
#include <string>

#include "core/backend.hpp"

namespace heat {

// The passes' kernel: the shared-memory tiles (material_pass.cuh), which the registry's tiled
// runs, or the global-memory kernel that naive and reuse run (global_material_stencil.cuh), named
// as a configuration so that a benchmark can time both in one call and a test hold them to the same bits.
enum class MaterialKernel { Tiles, GlobalMemory };
inline const std::string kGlobalMaterialConfiguration = "factors/global-memory";

// u and the passes' two scratch fields.
constexpr int kMaterialPassWorkingArrays = 3;

// `exchange` as for BackendEntry::make (a rank's box at order 2 alone: CudaBackend::take_exchange).
template <typename T>
std::unique_ptr<Backend<T>> make_material_pass_backend(const Problem& p, const BackendOptions& o,
                                                       HaloExchange<T>* exchange, MaterialKernel kernel);

}  // namespace heat
