#include "backends/registry.hpp"

namespace heat {

void register_naive_backend(BackendRegistry& registry);
void register_reuse_backend(BackendRegistry& registry);
void register_tiled_backend(BackendRegistry& registry);

void register_cuda_backends(BackendRegistry& registry) {
  register_naive_backend(registry);
  register_reuse_backend(registry);
  register_tiled_backend(registry);
}

}  // namespace heat
