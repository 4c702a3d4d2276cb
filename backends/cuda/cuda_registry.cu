#include "backends/cuda/stage_form.hpp"
#include "backends/registry.hpp"

namespace heat {

void register_naive_backend(BackendRegistry& registry);
void register_reuse_backend(BackendRegistry& registry);
void register_tiled_backend(BackendRegistry& registry);

// Each steps a problem with a radiation face in the stage form (stage_form.hpp), as cpu steps it
// in the reference's.
void register_cuda_backends(BackendRegistry& registry) {
  BackendRegistry own;
  register_naive_backend(own);
  register_reuse_backend(own);
  register_tiled_backend(own);
  for (const BackendEntry& entry : own.entries()) registry.add(with_stage_form_for_radiation(entry));
}

}  // namespace heat
