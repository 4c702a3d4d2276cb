// The Horner pass in AVX2 vectors with FMA (compiled with -mavx2 -mfma: solver/CMakeLists.txt).
#include "solver/cpu/horner_sweep_kernel.hpp"

namespace heat::isa_kernels {

typedef float Avx2Floats __attribute__((vector_size(32)));
typedef double Avx2Doubles __attribute__((vector_size(32)));

void horner_pass_avx2(const CpuHornerPass<float>& pass) { sweep_any_radius<Avx2Floats>(pass); }
void horner_pass_avx2(const CpuHornerPass<double>& pass) { sweep_any_radius<Avx2Doubles>(pass); }

}  // namespace heat::isa_kernels
