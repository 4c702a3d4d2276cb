// What the CUDA backends hold of a steady heat source (Problem::source, docs/design.md §1,
// "Sources"), in plain C++: each array is made here on the host, uploaded once and read where a
// kernel needs it.
//
// - The stage form (naive, reuse) adds the rate q/C to a stage's alpha Lap, in the run's precision
//   as cpu_reference does; the pass form (tiled) adds the step increment s = dt phi(dt A) q/C in
//   its last pass, in the run's precision too: rounding s to float errs by 2^-24 |s| a step, no
//   more than the rounding of u + s itself, and a float array keeps the read to 4 bytes a point.
// - A temperature face's fill reads the rate in double (FaceFill::source_rate), as the host's
//   fill does, so that the device's ghosts are the host's bits.
#pragma once

#include <cstddef>

#include "core/field.hpp"
#include "core/problem.hpp"

namespace heat {

// Whether p's fill of its faces (the full part) reads the source's rate: a source and a
// temperature face.
bool fill_reads_source_rate(const Problem& p);

// Bytes of device memory a CUDA backend holds for p's source in values of `value_size` bytes: one
// array (the rate or the increment), and the rate in double where the fill reads it; 0 without one.
std::size_t device_source_bytes(const Problem& p, std::size_t value_size);

// The step increment of p's source for steps of `dt` (backends/cpu/source_step.hpp) in T: one that
// set-up made (the step's, or the --t-end shortened last step's, which a rank's box must take:
// `whole_grid` false), else on a whole grid made anew as set-up makes it.
template <typename T>
Field<T> source_increment_for(const Problem& p, double dt, bool whole_grid);

}  // namespace heat
