// One rank's backend (docs/design.md §7): the registry's backend stepping the rank's box, made
// with the exchange that fills its ghost planes by the scheme its entry declares. On one rank the
// box is the grid and there is no exchange, so `run` and `verify` take this path alone, with or
// without mpirun.
#pragma once

#include <memory>
#include <optional>

#include "core/backend.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/ranks.hpp"
#include "backends/registry.hpp"

namespace heat {

// This rank's slab of `problem`'s grid, laid out for `entry`'s ghost scheme, the parts' boundaries
// at multiples of `part_alignment` where the grid allows, for the problem's faces, on `rank_grid`
// (none: z slabs) (decompose). InputError where the grid is too thin for the ranks.
inline Slab rank_slab(const Ranks& ranks, const BackendEntry& entry, const Problem& problem, int part_alignment = 1,
                      std::optional<RankGrid> rank_grid = std::nullopt) {
  return decompose(problem.grid, problem.order, rank_grid.value_or(z_slabs(ranks.size())), ranks.rank(),
                   entry.ghost_scheme(problem), part_alignment, entry.side_planes ? entry.side_planes(problem.order) : 0,
                   problem.boundaries);
}

// The rank grid `choice` (--ranks-grid) gives these ranks for `entry`'s backend on `problem`: at its
// stencil radius, with the ghost points of the entry's scheme at its order, for its faces
// (resolve_rank_grid, whose InputError names --ranks-grid).
inline RankGrid rank_grid_for(const RankGridChoice& choice, const Ranks& ranks, const BackendEntry& entry,
                              const Problem& problem) {
  const int r = problem.radius();
  return resolve_rank_grid(choice, ranks.size(), problem.grid, r, ghost_planes(entry.ghost_scheme(problem), r),
                           problem.boundaries);
}

// Whether a problem's z faces are periodic, so that several ranks wrap (decompose).
inline bool z_periodic(const Problem& p) { return p.boundaries[2 * 2].kind == BoundaryKind::Periodic; }

template <typename T>
struct RankBackend {
  std::unique_ptr<HaloExchange<T>> exchange;  // null for a rank without neighbours
  std::unique_ptr<Backend<T>> backend;        // destroyed before the exchange it holds

  // Collective, before the fields are uploaded: pays the exchange's start (the communicator, the
  // first connections, each field's first exchange) before the loop, so that its steps' time
  // holds none of it.
  void connect() {
    if (!exchange) return;
    exchange->connect();
    exchange->open(backend->exchanged_fields());
  }
  // The time the loop's exchanges took (HaloExchange::seconds_spent), 0 alone.
  double exchange_seconds() { return exchange ? exchange->seconds_spent() : released_exchange_seconds; }
  // Destroys the backend, then its exchange (collective where the exchange's end is), keeping the
  // exchange's time.
  void release() {
    released_exchange_seconds = exchange_seconds();
    backend.reset();
    exchange.reset();
  }

 private:
  double released_exchange_seconds = 0;
};

// Collective. `entry`'s backend for `slab`'s box of `problem` (rank_slab, box_problem), with its
// exchange:
// in host memory over MPI for cpu backends, in device memory by `gpu_route` for CUDA ones.
template <typename T>
RankBackend<T> make_rank_backend(const Ranks& ranks, const BackendEntry& entry, const Problem& problem,
                                 const BackendOptions& options, const Slab& slab, GpuHaloRoute gpu_route);

}  // namespace heat
