#include "parallel/rank_backend.hpp"

#include "core/heat_source.hpp"

namespace heat {

template <typename T>
RankBackend<T> make_rank_backend(const Ranks& ranks, const BackendEntry& entry, const Problem& problem,
                                 const BackendOptions& options, const Slab& slab, GpuHaloRoute gpu_route) {
  Problem box_problem = problem;
  box_problem.grid = slab.box_grid(problem.grid);
  // The box's planes of the whole grid's source: its step increment then needs no neighbour's.
  if (problem.source)
    box_problem.source = std::make_shared<const HeatSource>(problem.source->planes(slab.box_begin, slab.box_end));
  RankBackend<T> rank;
  // Alone, the registered backend itself: the fast cpu steps in pairs of passes, which no
  // exchange may come between.
  if (slab.has_lower_neighbour() || slab.has_upper_neighbour())
    rank.exchange = ranks.make_halo_exchange<T>(slab, problem.grid, entry.uses_cuda, gpu_route);
  rank.backend = entry.make<T>(box_problem, options, rank.exchange.get());
  return rank;
}

template RankBackend<float> make_rank_backend(const Ranks&, const BackendEntry&, const Problem&, const BackendOptions&,
                                              const Slab&, GpuHaloRoute);
template RankBackend<double> make_rank_backend(const Ranks&, const BackendEntry&, const Problem&, const BackendOptions&,
                                               const Slab&, GpuHaloRoute);

}  // namespace heat
