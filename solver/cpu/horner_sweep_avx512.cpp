// The Horner sweeps in AVX-512 vectors (compiled with -mavx512f: solver/CMakeLists.txt).
#include "solver/cpu/horner_sweep_kernel.hpp"

namespace heat::isa_kernels {

bool horner_sweep_avx512(const CpuHornerSweep<float>& sweep) { return sweep_any_radius<Lanes<Floats16>>(sweep); }
bool horner_sweep_avx512(const CpuHornerSweep<double>& sweep) { return sweep_any_radius<Lanes<Doubles8>>(sweep); }

}  // namespace heat::isa_kernels
