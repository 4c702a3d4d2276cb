// One rank's backend (docs/design.md §7): the registry's backend stepping the rank's box, its
// ghost planes filled through a halo exchange. On one rank the box is the grid and the exchange
// has nothing to do, so `run` and `verify` take this path alone, with or without mpirun.
#pragma once

#include <memory>

#include "solver/backend.hpp"
#include "solver/distributed/decomposition.hpp"
#include "solver/distributed/halo_exchange.hpp"
#include "solver/registry.hpp"

namespace heat {

// How a rank's ghost planes are kept right: the cpu backends exchange before each pass or stage; the
// CUDA backends exchange once per step over wider ghosts, which also keeps tiled's fused stages
// whole (benchmarks/distributed_model.md).
inline GhostScheme ghost_scheme_of(const BackendEntry& entry) {
  return entry.uses_cuda ? GhostScheme::PerStep : GhostScheme::PerStage;
}

// `entry`'s backend for `slab`'s box of `problem`, which fills its ghost planes through
// `exchange` (which must outlive it).
template <typename T>
std::unique_ptr<Backend<T>> make_rank_backend(const BackendEntry& entry, const Problem& problem,
                                              const BackendOptions& options, const Slab& slab,
                                              HaloExchange<T>& exchange);

}  // namespace heat
