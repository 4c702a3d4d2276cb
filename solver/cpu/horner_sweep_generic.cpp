// The Horner sweeps for any x86-64 (or other) CPU: point by point, with the build's own flags.
#include "solver/cpu/horner_sweep_kernel.hpp"

namespace heat::isa_kernels {

bool horner_sweep_generic(const CpuHornerSweep<float>& sweep) { return sweep_any_radius<float>(sweep); }
bool horner_sweep_generic(const CpuHornerSweep<double>& sweep) { return sweep_any_radius<double>(sweep); }

}  // namespace heat::isa_kernels
