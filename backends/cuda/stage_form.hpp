// A problem with a radiation face on the CUDA backends (docs/design.md §1, "Boundary"): its fill
// is not affine in the field, so the pass form (tiled) and the linear stages (naive, reuse), which
// fill stage fields with the conditions' homogeneous part, do not hold for it. Every CUDA backend
// steps it in RK4's stage form instead, as the cpu backends step it in the reference's: each
// stage's input w = u + c k filled with the whole nonlinear closure before the stencil reads it.
// On one GPU alone: GPU ranks refuse it (stage_form_ranks_refusal), cpu ranks step it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "backends/registry.hpp"
#include "core/backend.hpp"
#include "core/boundary_conditions.hpp"

namespace heat {

// Why GPU ranks cannot step `b`'s faces, "" where they can: a radiation face's, with the fix.
inline std::string stage_form_ranks_refusal(const Boundaries& b) {
  for (int face = 0; face < kFaces; ++face)
    if (b[face].kind == BoundaryKind::Radiation)
      return std::string("cannot run on GPU ranks with --bc-") + face_name(face) + " " +
             boundary_condition_text(b[face]) +
             ": a radiation face steps in RK4's stage form, which the CUDA backends run on one GPU alone; run cpu "
             "ranks (--backend cpu) or a single process";
  return "";
}

// `e` with its factories and byte model routed to the stage form where a face radiates (the
// backend named as e is, e.g. "naive"), and as they were otherwise.
BackendEntry with_stage_form_for_radiation(BackendEntry e);

}  // namespace heat
