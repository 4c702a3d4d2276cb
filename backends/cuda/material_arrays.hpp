// What the CUDA backends hold of material fields K(x), C(x) (Problem::materials, docs/design.md
// §1, "Materials"), in plain C++: the arrays the stencil reads and the copies the boundary fill
// reads, and their bytes. The stencil's arrays, by bytes against arithmetic:
//
// - Order 2: 1/K and 1/C in the run's precision (2 arrays), each pair's M (the harmonic mean,
//   one division) computed where it is read: 6 divisions a point a pass cost less than the 2
//   more arrays that stored conductances would move.
// - Orders 4 to 8: each pair's M stored at its lower point, per axis and distance (3r arrays),
//   and 1/C (3r + 1 arrays: 7, 10, 13). Computed where read, M costs 3 divisions a pair and 6r
//   pairs a point a pass (72 divisions at order 8, about 1000 instructions a point a pass with
//   the sums: 26 ms a step at 600^3 on an H200 at peak issue), against 13 arrays read (12.7 ms a
//   step at copy rate, all 62 arrays of the single passes counted). M is made once in set-up
//   on the device from K in double and rounded once.
#pragma once

#include <cstddef>

#include "core/problem.hpp"

namespace heat {

// Arrays of the run's precision the stencil reads at each point where a problem has material
// fields: 1/K and 1/C at order 2, the pairs' M (3r) and 1/C above.
int material_arrays_per_stencil(int order);

// Whether p's fill of its faces reads K (in double, at each row's face point): a flux face, or a
// temperature face with a source; and C: a temperature face with a source. Only with materials.
bool fill_reads_conductivity(const Problem& p);
bool fill_reads_heat_capacity(const Problem& p);

// Bytes of device memory a CUDA backend holds for p's material fields in values of `value_size`
// bytes: the stencil's arrays, the fill's copies of K and C in double and the convective faces'
// weights, and set-up's K in double where it makes the conductances (freed after); 0 without.
std::size_t device_material_bytes(const Problem& p, std::size_t value_size);

}  // namespace heat
