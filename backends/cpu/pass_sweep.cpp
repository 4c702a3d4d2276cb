// Chooses the pass sweep kernels of the widest instruction set the CPU has.
#include "backends/cpu/pass_sweep.hpp"

#include "core/errors.hpp"

namespace heat {

const char* cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::Generic: return "generic";
    case CpuIsa::Avx2: return "avx2";
    case CpuIsa::Avx512: return "avx512";
  }
  return "?";
}

CpuIsa best_cpu_isa() {
#if defined(HEAT_CPU_X86_KERNELS)
  // The AVX-512 kernels are compiled with AVX2 and FMA as well.
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2 && __builtin_cpu_supports("avx512f")) return CpuIsa::Avx512;
  if (avx2) return CpuIsa::Avx2;
#endif
  return CpuIsa::Generic;
}

int cpu_isa_lanes(CpuIsa isa, std::size_t value_size) {
  const int vector_bytes = isa == CpuIsa::Avx512 ? 64 : isa == CpuIsa::Avx2 ? 32 : int(value_size);
  return vector_bytes / int(value_size);
}

CpuIsa cpu_isa_for_rows(CpuIsa best, int row_points, std::size_t value_size) {
  if (best == CpuIsa::Avx512 && row_points < cpu_isa_lanes(CpuIsa::Avx512, value_size)) best = CpuIsa::Avx2;
  if (best == CpuIsa::Avx2 && row_points < cpu_isa_lanes(CpuIsa::Avx2, value_size)) best = CpuIsa::Generic;
  return best;
}

template <typename T>
static bool run_kernels(CpuIsa isa, const CpuPassSweep<T>& sweep) {
  switch (isa) {
#if defined(HEAT_CPU_X86_KERNELS)
    case CpuIsa::Avx512: return isa_kernels::pass_sweep_avx512(sweep);
    case CpuIsa::Avx2: return isa_kernels::pass_sweep_avx2(sweep);
#endif
    default: return isa_kernels::pass_sweep_generic(sweep);
  }
}

template <typename T>
static void run_sweep(CpuIsa isa, const CpuPassSweep<T>& sweep) {
  if (!run_kernels(isa, sweep)) throw RunError("the cpu backend could not allocate its block buffers (out of memory)");
}

void run_pass_sweep(CpuIsa isa, const CpuPassSweep<float>& sweep) { run_sweep(isa, sweep); }
void run_pass_sweep(CpuIsa isa, const CpuPassSweep<double>& sweep) { run_sweep(isa, sweep); }

}  // namespace heat
