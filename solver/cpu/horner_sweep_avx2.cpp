// The Horner sweeps in AVX2 vectors with FMA (compiled with -mavx2 -mfma: solver/CMakeLists.txt).
#include "solver/cpu/horner_sweep_kernel.hpp"

namespace heat::isa_kernels {

bool horner_sweep_avx2(const CpuHornerSweep<float>& sweep) { return sweep_any_radius<Lanes<Floats8>>(sweep); }
bool horner_sweep_avx2(const CpuHornerSweep<double>& sweep) { return sweep_any_radius<Lanes<Doubles4>>(sweep); }

}  // namespace heat::isa_kernels
