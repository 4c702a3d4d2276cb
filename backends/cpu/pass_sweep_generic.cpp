// The pass sweeps for any x86-64 (or other) CPU: point by point, with the build's own flags.
#include "backends/cpu/pass_sweep_kernel.hpp"

namespace heat::isa_kernels {

bool pass_sweep_generic(const CpuPassSweep<float>& sweep) { return sweep_any_radius<float>(sweep); }
bool pass_sweep_generic(const CpuPassSweep<double>& sweep) { return sweep_any_radius<double>(sweep); }

}  // namespace heat::isa_kernels
