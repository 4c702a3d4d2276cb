// A problem with a radiation face on the CUDA backends (docs/design.md §1, "Boundary"): its fill
// is not affine in the field, so the pass form (tiled) and the linear stages (naive, reuse), which
// fill stage fields with the conditions' homogeneous part, do not hold for it. Every CUDA backend
// steps it in RK4's stage form instead, as the cpu backends step it in the reference's: each
// stage's input w = u + c k filled with the whole nonlinear closure before the stencil reads it.
// A rank's box steps whole after the exchange of u, as naive's (PerStep's ghost planes).
#pragma once

#include "backends/registry.hpp"
#include "core/backend.hpp"

namespace heat {

// `e` with its factories, byte model and ghost scheme routed to the stage form where a face
// radiates (the backend named as e is, e.g. "naive"), and as they were otherwise.
BackendEntry with_stage_form_for_radiation(BackendEntry e);

}  // namespace heat
