// The cpu backend (solver/cpu/fast_backend.hpp) stepping one rank's box: the ghost planes a
// pass reads hold exactly the values the neighbour computed, so the result does not depend on
// the rank count.

#include "solver/distributed/cpu_slab_backend.hpp"

#include "solver/cpu/fast_backend.hpp"

namespace heat {

template <typename T>
std::unique_ptr<Backend<T>> make_cpu_slab_backend(const Problem& box_problem, GhostScheme scheme,
                                                  HaloExchange<T>& exchange) {
  // Wide ghosts (PerStep) hold enough of u that the later stages need no exchange of their own.
  auto fill_ghosts = [scheme, &exchange](T* field, int pass) {
    if (pass == 0 || scheme == GhostScheme::PerStage) exchange.exchange(field);
  };
  return std::make_unique<CpuFastBackend<T>>(box_problem, fill_ghosts);
}

template std::unique_ptr<Backend<float>> make_cpu_slab_backend(const Problem&, GhostScheme, HaloExchange<float>&);
template std::unique_ptr<Backend<double>> make_cpu_slab_backend(const Problem&, GhostScheme, HaloExchange<double>&);

}  // namespace heat
