#include "apps/rank_backend.hpp"

#include "solver/distributed/cpu_slab_backend.hpp"

namespace heat {

template <typename T>
std::unique_ptr<Backend<T>> make_rank_backend(const BackendEntry& entry, const Problem& problem,
                                              const BackendOptions& options, const Slab& slab,
                                              HaloExchange<T>& exchange) {
  Problem box_problem = problem;
  box_problem.grid = slab.box_grid(problem.grid);
  if (!entry.uses_cuda) {
    // Alone, the registered backend itself: the fast cpu steps in pairs of passes, which no
    // exchange may come between.
    if (!slab.has_lower_neighbour() && !slab.has_upper_neighbour()) return entry.make<T>(box_problem, options);
    const auto kind = entry.name == kCpuReferenceName ? CpuSlabKind::Reference : CpuSlabKind::Fast;
    return make_cpu_slab_backend<T>(box_problem, GhostScheme::PerStage, exchange, kind);
  }
  auto backend = entry.make<T>(box_problem, options);
  backend->exchange_before_each_step(exchange);
  return backend;
}

template std::unique_ptr<Backend<float>> make_rank_backend(const BackendEntry&, const Problem&, const BackendOptions&,
                                                           const Slab&, HaloExchange<float>&);
template std::unique_ptr<Backend<double>> make_rank_backend(const BackendEntry&, const Problem&, const BackendOptions&,
                                                            const Slab&, HaloExchange<double>&);

}  // namespace heat
