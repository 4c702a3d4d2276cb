// The pass sweeps in AVX-512 vectors (compiled with -mavx512f: backends/CMakeLists.txt).
#include "backends/cpu/pass_sweep_kernel.hpp"

namespace heat::isa_kernels {

bool pass_sweep_avx512(const CpuPassSweep<float>& sweep) { return sweep_any_radius<Lanes<Floats16>>(sweep); }
bool pass_sweep_avx512(const CpuPassSweep<double>& sweep) { return sweep_any_radius<Lanes<Doubles8>>(sweep); }

}  // namespace heat::isa_kernels
