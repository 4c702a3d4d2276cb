#include "backends/cuda/source_arrays.hpp"

#include "backends/cpu/source_step.hpp"
#include "core/heat_source.hpp"

namespace heat {

bool fill_reads_source_rate(const Problem& p) {
  if (!p.source) return false;
  for (const BoundaryCondition& c : p.boundaries)
    if (c.kind == BoundaryKind::Temperature) return true;
  return false;
}

std::size_t device_source_bytes(const Problem& p, std::size_t value_size) {
  if (!p.source) return 0;
  return p.grid.points() * (value_size + (fill_reads_source_rate(p) ? sizeof(double) : 0));
}

template <typename T>
Field<T> source_increment_for(const Problem& p, double dt, bool whole_grid) {
  if (dt == p.dt) return field_cast<T>(p.source->step_increment);
  Problem shortened = p;
  shortened.dt = dt;
  return field_cast<T>(source_step_increment_of_dt(shortened, whole_grid));
}

template Field<float> source_increment_for<float>(const Problem&, double, bool);
template Field<double> source_increment_for<double>(const Problem&, double, bool);

}  // namespace heat
