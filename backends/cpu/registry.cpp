// Registers the cpu backends: `cpu`, the fast one every run on the host uses (fast_backend.hpp),
// and `cpu_reference`, the plain loops verify, --check and the tests compare against
// (reference_backend.hpp). Either steps one rank's box of a distributed run when made with an
// exchange: the ghost planes a pass or stage reads then hold exactly the values the neighbour
// computed, so the result does not depend on the rank count.
#include <type_traits>

#include "backends/cpu/fast_backend.hpp"
#include "backends/cpu/reference_backend.hpp"
#include "backends/registry.hpp"

namespace heat {

namespace {

// The cpu backend `Impl` for a grid (no exchange) or for a box whose ghost planes `exchange`
// fills. Wide ghosts (PerStep) hold enough of u that the later passes need no exchange of their
// own, so the fast backend's passes go in pairs; narrow ones need each pass's operand exchanged,
// which the fast backend overlaps with its interior (BackendOptions::halo_overlap). The
// reference stays plain: it exchanges (each stage's input with narrow ghosts), then computes.
//
// A radiation face's fill is not affine in the field, and the fast backend's factored step is RK4
// of an affine system alone: such a problem steps in the stage form, the reference's, on either.
template <template <typename> class Impl, typename T>
std::unique_ptr<Backend<T>> make_cpu_backend(const Problem& p, const BackendOptions& o, HaloExchange<T>* exchange) {
  if (steps_stage_form(p.boundaries, exchange)) return std::make_unique<CpuReferenceBackend<T>>(p, exchange);
  if (!exchange) return std::make_unique<Impl<T>>(p, o);
  if constexpr (std::is_same_v<Impl<T>, CpuFastBackend<T>>) {
    const auto grouping =
        exchange->scheme() == GhostScheme::PerStage ? CpuPassGrouping::Singles : CpuPassGrouping::Pairs;
    return std::make_unique<CpuFastBackend<T>>(p, exchange, grouping, best_cpu_isa(),
                                               o.halo_overlap.value_or(HaloOverlap::InteriorFirst));
  } else {
    return std::make_unique<Impl<T>>(p, exchange);
  }
}

template <template <typename> class Impl>
void set_cpu_factories(BackendEntry& e) {
  // r ghost planes exchanged before every pass or stage: no plane is computed twice.
  e.ghost_scheme = [](const Problem&) { return GhostScheme::PerStage; };
  e.halo_overlap = [](int) { return HaloOverlap::InteriorFirst; };
  e.make_float = make_cpu_backend<Impl, float>;
  e.make_double = make_cpu_backend<Impl, double>;
}

// The stage form's bytes a point a step: per stage, read the stage input and sum (and a source's
// rate; with material fields K, 1/K and 1/C), write k and sum, then read u and k and write the
// next stage input (3 times); the final pass reads u and sum and writes u.
double stage_form_bytes_per_point(const Problem& p, std::size_t size) {
  return double(4 * (4 + (p.source ? 1 : 0) + (p.materials ? 3 : 0)) + 3 * 3 + 3) * double(size);
}
std::size_t stage_form_working_bytes(const Problem& p, std::size_t size) {
  return (p.source ? 5 : 4) * p.grid.points() * size;
}

}  // namespace

void register_cpu_backends(BackendRegistry& registry) {
  BackendEntry fast;
  fast.name = "cpu";
  fast.description = "OpenMP on the host: the step's two quadratic factors, a factor per sweep, cache-blocked, "
                     "vectorised (" +
                     std::string(cpu_isa_name(best_cpu_isa())) + ")";
  fast.uses_cuda = false;
  fast.fills_boundaries = true;
  fast.adds_sources = true;
  fast.steps_materials = true;
  // The first factor reads u and writes w; the second reads w and writes the new u (and reads a
  // source's step increment). The first pass of each factor stays in cache. With material fields
  // each of the four single passes reads its operand, its base, K, 1/K and 1/C and writes its
  // result: 6 arrays a pass (and the last one the increment).
  fast.bytes_per_point = [](const Problem& p, std::size_t size) {
    if (any_radiation(p.boundaries)) return stage_form_bytes_per_point(p, size);
    const double arrays = p.materials ? 4 * 6 : 4;
    return (arrays + (p.source ? 1 : 0)) * double(size);
  };
  fast.working_bytes = [](const Problem& p, std::size_t size) {
    if (any_radiation(p.boundaries)) return stage_form_working_bytes(p, size);
    return (p.source ? 4 : 3) * p.grid.points() * size;
  };
  set_cpu_factories<CpuFastBackend>(fast);
  registry.add(std::move(fast));

  BackendEntry reference;
  reference.name = kCpuReferenceName;
  reference.description = "the reference: plain OpenMP loops on the host, one pass per RK4 stage";
  reference.uses_cuda = false;
  reference.fills_boundaries = true;
  reference.adds_sources = true;
  reference.steps_materials = true;
  reference.bytes_per_point = stage_form_bytes_per_point;
  reference.working_bytes = stage_form_working_bytes;
  set_cpu_factories<CpuReferenceBackend>(reference);
  registry.add(std::move(reference));
}

}  // namespace heat
