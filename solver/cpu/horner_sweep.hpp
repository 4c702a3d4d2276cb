// One Horner pass of the RK4 step (solver/tiled/horner_form.cuh) over a host field's interior,
// as the fast cpu backend runs it: out = u + c * alpha*Lap(in) at every interior point.
//
// The pass is compiled once per instruction set (horner_sweep_*.cpp, each with its own compiler
// flags) and the widest one the CPU has is chosen at run time, so one build runs on any x86-64.
// Within a run every interior point goes through the same instructions, whichever thread or
// block computes it and wherever it falls in a vector (lanes never mix), so the result is bitwise
// the same for any thread count.
#pragma once

#include <cstddef>

#include "stencils/stencil.hpp"

namespace heat {

enum class CpuIsa { Generic, Avx2, Avx512 };

const char* cpu_isa_name(CpuIsa isa);
// The widest instruction set this CPU runs and this build compiled.
CpuIsa best_cpu_isa();
// Values of `value_size` bytes in one vector of `isa` (1 for Generic: it computes point by point).
int cpu_isa_lanes(CpuIsa isa, std::size_t value_size);
// The instruction set a grid whose rows hold `row_points` interior points runs on: `best`, or a
// narrower one where a row is shorter than `best`'s vector (a vector never reaches past a row).
CpuIsa cpu_isa_for_rows(CpuIsa best, int row_points, std::size_t value_size);

// Everything a pass needs; the weights are those of make_weights, for radius `radius`.
template <typename T>
struct CpuHornerPass {
  const T* in;  // the operand of the stencil (u itself for the first pass)
  const T* u;   // read only at the point written, so `out` may be `u`
  T c;
  T* out;
  int nx, ny, nz, radius;
  T center;
  T axis[3][kMaxRadius];
};

// Runs the pass with the kernels of `isa`, which the CPU must have.
void run_horner_pass(CpuIsa isa, const CpuHornerPass<float>& pass);
void run_horner_pass(CpuIsa isa, const CpuHornerPass<double>& pass);

// The kernels of each instruction set (horner_sweep_*.cpp); run_horner_pass chooses among them.
namespace isa_kernels {
void horner_pass_generic(const CpuHornerPass<float>& pass);
void horner_pass_generic(const CpuHornerPass<double>& pass);
void horner_pass_avx2(const CpuHornerPass<float>& pass);
void horner_pass_avx2(const CpuHornerPass<double>& pass);
void horner_pass_avx512(const CpuHornerPass<float>& pass);
void horner_pass_avx512(const CpuHornerPass<double>& pass);
}  // namespace isa_kernels

}  // namespace heat
