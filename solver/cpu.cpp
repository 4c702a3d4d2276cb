// Registers the cpu backend (solver/cpu_backend.hpp).
#include "solver/cpu_backend.hpp"
#include "solver/registry.hpp"

namespace heat {

void register_cpu_backends(BackendRegistry& registry) {
  BackendEntry e;
  e.name = "cpu";
  e.description = "reference: OpenMP loops on the host, one pass per RK4 stage";
  e.uses_cuda = false;
  // Per stage: read the stage input and sum, write k and sum, then read u and k and write the
  // next stage input (3 times); the final pass reads u and sum and writes u.
  e.bytes_per_point = [](const Problem&, std::size_t size) { return double(4 * 4 + 3 * 3 + 3) * double(size); };
  e.working_bytes = [](const Problem& p, std::size_t size) { return 4 * p.grid.points() * size; };
  set_factories<CpuBackend>(e);
  registry.add(std::move(e));
}

}  // namespace heat
