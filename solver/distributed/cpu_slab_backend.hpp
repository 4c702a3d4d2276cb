// A cpu backend for one rank's box: the fast cpu backend (solver/cpu/fast_backend.hpp), or the
// reference (solver/cpu/reference_backend.hpp), itself, with the ghost planes refreshed through a
// HaloExchange before every pass (stage, for the reference) or once per step (the slab's
// GhostScheme), so that the whole field comes out bitwise as one process computes it.
#pragma once

#include <memory>

#include "solver/backend.hpp"
#include "solver/distributed/halo_exchange.hpp"

namespace heat {

enum class CpuSlabKind { Fast, Reference };

// `box_problem` is the rank's box as a problem of its own (Slab::box_grid, the run's order,
// alpha and dt); upload() and download() take the box. `scheme` is the one the slab was made
// with. `exchange` (host memory) must outlive the backend.
template <typename T>
std::unique_ptr<Backend<T>> make_cpu_slab_backend(const Problem& box_problem, GhostScheme scheme,
                                                  HaloExchange<T>& exchange, CpuSlabKind kind = CpuSlabKind::Fast);

}  // namespace heat
