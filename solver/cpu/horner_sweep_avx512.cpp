// The Horner pass in AVX-512 vectors (compiled with -mavx512f: solver/CMakeLists.txt).
#include "solver/cpu/horner_sweep_kernel.hpp"

namespace heat::isa_kernels {

typedef float Avx512Floats __attribute__((vector_size(64)));
typedef double Avx512Doubles __attribute__((vector_size(64)));

void horner_pass_avx512(const CpuHornerPass<float>& pass) { sweep_any_radius<Avx512Floats>(pass); }
void horner_pass_avx512(const CpuHornerPass<double>& pass) { sweep_any_radius<Avx512Doubles>(pass); }

}  // namespace heat::isa_kernels
