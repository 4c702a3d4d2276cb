#include "backends/cuda/material_arrays.hpp"

#include "backends/cuda/source_arrays.hpp"
#include "core/materials.hpp"

namespace heat {

int material_arrays_per_stencil(int order) { return order == 2 ? 2 : 3 * (order / 2) + 1; }

bool fill_reads_conductivity(const Problem& p) {
  if (!p.materials) return false;
  for (const BoundaryCondition& c : p.boundaries)
    if (c.kind == BoundaryKind::Flux) return true;
  return fill_reads_source_rate(p);
}

bool fill_reads_heat_capacity(const Problem& p) { return p.materials && fill_reads_source_rate(p); }

std::size_t device_material_bytes(const Problem& p, std::size_t value_size) {
  if (!p.materials) return 0;
  const std::size_t points = p.grid.points();
  std::size_t bytes = points * std::size_t(material_arrays_per_stencil(p.order)) * value_size;
  if (p.order > 2) bytes += points * sizeof(double);
  if (fill_reads_conductivity(p)) bytes += points * sizeof(double);
  if (fill_reads_heat_capacity(p)) bytes += points * sizeof(double);
  for (const std::vector<double>& weights : p.materials->convective_weights) bytes += weights.size() * sizeof(double);
  return bytes;
}

}  // namespace heat
