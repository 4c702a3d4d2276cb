// The cpu backend for one rank's box: the same loops and per-point arithmetic as the cpu
// backend (solver/cpu.cpp), with the ghost planes refreshed through a HaloExchange before every
// RK4 stage, so that the whole field comes out bitwise as one process computes it.
#pragma once

#include <memory>

#include "solver/backend.hpp"
#include "solver/distributed/halo_exchange.hpp"

namespace heat {

// `box_problem` is the rank's box as a problem of its own (Slab::box_grid, the run's order,
// alpha and dt); upload() and download() take the box. `exchange` (host memory) must outlive
// the backend.
template <typename T>
std::unique_ptr<Backend<T>> make_cpu_slab_backend(const Problem& box_problem, HaloExchange<T>& exchange);

}  // namespace heat
