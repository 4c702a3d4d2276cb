#include "parallel/rank_backend.hpp"

namespace heat {

template <typename T>
RankBackend<T> make_rank_backend(const Ranks& ranks, const BackendEntry& entry, const Problem& problem,
                                 const BackendOptions& options, const Slab& slab, GpuHaloRoute gpu_route) {
  RankBackend<T> rank;
  // Alone, the registered backend itself: the fast cpu steps in pairs of passes, which no
  // exchange may come between.
  if (slab.exchanges())
    rank.exchange = ranks.make_halo_exchange<T>(slab, problem.grid, entry.uses_cuda, gpu_route);
  rank.backend = entry.make<T>(box_problem(problem, slab), options, rank.exchange.get());
  return rank;
}

template RankBackend<float> make_rank_backend(const Ranks&, const BackendEntry&, const Problem&, const BackendOptions&,
                                              const Slab&, GpuHaloRoute);
template RankBackend<double> make_rank_backend(const Ranks&, const BackendEntry&, const Problem&, const BackendOptions&,
                                               const Slab&, GpuHaloRoute);

}  // namespace heat
