// Registers the cpu backends: `cpu`, the fast one every run on the host uses (fast_backend.hpp),
// and `cpu_reference`, the plain loops verify, --check and the tests compare against
// (reference_backend.hpp).
#include "solver/cpu/fast_backend.hpp"
#include "solver/cpu/reference_backend.hpp"
#include "solver/registry.hpp"

namespace heat {

void register_cpu_backends(BackendRegistry& registry) {
  BackendEntry fast;
  fast.name = "cpu";
  fast.description = "OpenMP on the host: the step's two quadratic factors, a factor per sweep, cache-blocked, "
                     "vectorised (" +
                     std::string(cpu_isa_name(best_cpu_isa())) + ")";
  fast.uses_cuda = false;
  // The first factor reads u and writes w; the second reads w and writes the new u. The first pass
  // of each factor stays in cache.
  fast.bytes_per_point = [](const Problem&, std::size_t size) { return 4.0 * double(size); };
  fast.working_bytes = [](const Problem& p, std::size_t size) { return 3 * p.grid.points() * size; };
  set_factories<CpuFastBackend>(fast);
  registry.add(std::move(fast));

  BackendEntry reference;
  reference.name = kCpuReferenceName;
  reference.description = "the reference: plain OpenMP loops on the host, one pass per RK4 stage";
  reference.uses_cuda = false;
  // Per stage: read the stage input and sum, write k and sum, then read u and k and write the
  // next stage input (3 times); the final pass reads u and sum and writes u.
  reference.bytes_per_point = [](const Problem&, std::size_t size) { return double(4 * 4 + 3 * 3 + 3) * double(size); };
  reference.working_bytes = [](const Problem& p, std::size_t size) { return 4 * p.grid.points() * size; };
  set_factories<CpuReferenceBackend>(reference);
  registry.add(std::move(reference));
}

}  // namespace heat
