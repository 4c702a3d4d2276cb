// The pass sweeps in AVX2 vectors with FMA (compiled with -mavx2 -mfma: backends/CMakeLists.txt).
#include "backends/cpu/pass_sweep_kernel.hpp"

namespace heat::isa_kernels {

bool pass_sweep_avx2(const CpuPassSweep<float>& sweep) { return sweep_any_radius<Lanes<Floats8>>(sweep); }
bool pass_sweep_avx2(const CpuPassSweep<double>& sweep) { return sweep_any_radius<Lanes<Doubles4>>(sweep); }

}  // namespace heat::isa_kernels
