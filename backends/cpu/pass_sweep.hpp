// The passes of the RK4 step (stencils/rk4_forms.hpp: out = base + c * alpha*Lap(in) at every
// interior point) over a host field's interior, one or a factor's two per sweep, as the fast cpu
// backend runs them.
//
// The sweeps are compiled once per instruction set (pass_sweep_*.cpp, each with its own compiler
// flags) and the widest one the CPU has is chosen at run time, so one build runs on any x86-64.
// Every interior point goes through the same operations, whichever thread or block computes it
// and wherever it falls in a vector (lanes never mix; the fused multiply-adds are explicit), so
// the result is bitwise the same for any thread count, and AVX2 and AVX-512 agree bitwise. The
// generic kernels, for CPUs without FMA, round without it.
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

// One sweep over the field: one pass, out = base + c[0] * a*Lap(in), or two in a row (a quadratic
// factor), out = base + c[1] * a*Lap(v) with v = base + c[0] * a*Lap(in), where v never goes to memory: each
// block computes it into a ring of planes in cache, r rows and columns beyond its own (a
// neighbour's too), and the second pass reads it there. The weights are those of make_weights.
template <typename T>
struct CpuPassSweep {
  const T* in;    // the operand of the first pass (`base` itself for a factor's first)
  const T* base;  // read at the point written (and, for two passes, r around it)
  T* out;         // may be `base` for one pass, never for two (a block's neighbours read it around it)
  const T* add;   // null, or added at each point after the last pass (BasePlusLap::add)
  int passes;     // 1 or 2
  T c[2];
  int nx, ny, nz, radius;
  T center;
  T axis[3][kMaxRadius];
};

// Runs the sweep with the kernels of `isa`, which the CPU must have. Throws RunError where the
// memory for a two-pass sweep's rings (a few hundred KiB per thread) cannot be had.
void run_pass_sweep(CpuIsa isa, const CpuPassSweep<float>& sweep);
void run_pass_sweep(CpuIsa isa, const CpuPassSweep<double>& sweep);

// The kernels of each instruction set (pass_sweep_*.cpp); run_pass_sweep chooses among them.
// False where a ring could not be allocated.
namespace isa_kernels {
bool pass_sweep_generic(const CpuPassSweep<float>& sweep);
bool pass_sweep_generic(const CpuPassSweep<double>& sweep);
bool pass_sweep_avx2(const CpuPassSweep<float>& sweep);
bool pass_sweep_avx2(const CpuPassSweep<double>& sweep);
bool pass_sweep_avx512(const CpuPassSweep<float>& sweep);
bool pass_sweep_avx512(const CpuPassSweep<double>& sweep);
}  // namespace isa_kernels

}  // namespace heat
