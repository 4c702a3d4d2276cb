// The Horner pass for any x86-64 (or other) CPU: point by point, with the build's own flags.
#include "solver/cpu/horner_sweep_kernel.hpp"

namespace heat::isa_kernels {

void horner_pass_generic(const CpuHornerPass<float>& pass) { sweep_any_radius<float>(pass); }
void horner_pass_generic(const CpuHornerPass<double>& pass) { sweep_any_radius<double>(pass); }

}  // namespace heat::isa_kernels
