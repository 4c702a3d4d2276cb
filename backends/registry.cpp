#include "backends/registry.hpp"

#include <stdexcept>

namespace heat {

void BackendRegistry::add(BackendEntry entry) {
  if (find(entry.name)) throw std::logic_error("backend registered twice: " + entry.name);
  if (!entry.ghost_scheme || !entry.halo_overlap || !entry.make_float || !entry.make_double)
    throw std::logic_error("backend " + entry.name + " registered without its ghost scheme, overlap or factories");
  entries_.push_back(std::move(entry));
}

const BackendEntry* BackendRegistry::find(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> BackendRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.name);
  return out;
}

std::string BackendRegistry::names_text() const {
  std::string text;
  for (const auto& e : entries_) text += (text.empty() ? "" : ", ") + e.name;
  return text;
}

const BackendRegistry& default_registry() {
  static const BackendRegistry registry = [] {
    BackendRegistry r;
    register_cpu_backends(r);
    register_cuda_backends(r);
    return r;
  }();
  return registry;
}

}  // namespace heat
