// Backends by name. Entries are added by explicit calls (register_cpu_backends,
// register_cuda_backends), not by static initialisers that a linker could drop.
#pragma once

#include <string>
#include <vector>

#include "core/backend.hpp"

namespace heat {

class BackendRegistry {
 public:
  void add(BackendEntry entry);
  const BackendEntry* find(const std::string& name) const;
  const std::vector<BackendEntry>& entries() const { return entries_; }
  std::vector<std::string> names() const;
  // "cpu, cpu_reference, naive, ...": the names as help texts and messages list them.
  std::string names_text() const;

 private:
  std::vector<BackendEntry> entries_;
};

// Adds cpu (the fast one) and cpu_reference (the ground truth of verify, --check and the tests).
void register_cpu_backends(BackendRegistry& registry);
constexpr const char* kCpuReferenceName = "cpu_reference";
// Adds naive, reuse and tiled when the build has CUDA; they are listed even without a GPU,
// and cuda_availability() says whether they can run.
void register_cuda_backends(BackendRegistry& registry);

// Every backend this build has, registered once.
const BackendRegistry& default_registry();

}  // namespace heat
