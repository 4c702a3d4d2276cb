// The cpu backends (solver/cpu/) stepping one rank's box: the ghost planes a pass or stage reads
// hold exactly the values the neighbour computed, so the result does not depend on the rank
// count.

#include "solver/distributed/cpu_slab_backend.hpp"

#include "solver/cpu/fast_backend.hpp"
#include "solver/cpu/reference_backend.hpp"

namespace heat {

template <typename T>
std::unique_ptr<Backend<T>> make_cpu_slab_backend(const Problem& box_problem, GhostScheme scheme,
                                                  HaloExchange<T>& exchange, CpuSlabKind kind) {
  // Wide ghosts (PerStep) hold enough of u that the later passes need no exchange of their own,
  // so the fast backend's passes go in pairs; narrow ones need each pass's operand exchanged.
  auto fill_ghosts = [scheme, &exchange](T* field, int index) {
    if (index == 0 || scheme == GhostScheme::PerStage) exchange.exchange(field);
  };
  if (kind == CpuSlabKind::Reference) return std::make_unique<CpuReferenceBackend<T>>(box_problem, fill_ghosts);
  const auto grouping = scheme == GhostScheme::PerStage ? CpuPassGrouping::Singles : CpuPassGrouping::Pairs;
  return std::make_unique<CpuFastBackend<T>>(box_problem, fill_ghosts, grouping);
}

template std::unique_ptr<Backend<float>> make_cpu_slab_backend(const Problem&, GhostScheme, HaloExchange<float>&,
                                                               CpuSlabKind);
template std::unique_ptr<Backend<double>> make_cpu_slab_backend(const Problem&, GhostScheme, HaloExchange<double>&,
                                                                CpuSlabKind);

}  // namespace heat
