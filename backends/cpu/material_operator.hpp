// The operator of a problem with material fields on the host, (1/C) div(K grad u) in flux form
// (stencils/material_stencil.hpp), in the working precision: K, 1/K and 1/C rounded once from
// the problem's double fields, which hold the ghosts of its faces (core/materials.hpp). The cpu
// backends and a source's step increment (source_step.hpp) apply it where the constant problem
// applies alpha Lap.
#pragma once

#include <cstddef>

#include "core/field.hpp"
#include "core/materials.hpp"
#include "core/problem.hpp"
#include "stencils/material_stencil.hpp"

namespace heat {

// K, 1/K and 1/C of a problem's materials; empty without them.
template <typename T>
struct HostMaterialFields {
  Field<T> conductivity, inverse_conductivity, inverse_heat_capacity;

  HostMaterialFields() = default;
  explicit HostMaterialFields(const Problem& p) {
    if (!p.materials) return;
    const Materials& m = *p.materials;
    conductivity = field_cast<T>(m.conductivity);
    inverse_conductivity = Field<T>::uninitialized(p.grid);
    inverse_heat_capacity = Field<T>::uninitialized(p.grid);
    const double *k = m.conductivity.data(), *c = m.heat_capacity.data();
    T *inverse_k = inverse_conductivity.data(), *inverse_c = inverse_heat_capacity.data();
    parallel_for_points(conductivity.size(), [&](std::size_t n) {
      inverse_k[n] = static_cast<T>(1.0 / k[n]);
      inverse_c[n] = static_cast<T>(1.0 / c[n]);
    });
  }
  bool empty() const { return conductivity.size() == 0; }
};

// (1/C) div(K grad u) at an interior point, radius R.
template <int R, typename T>
struct HostMaterialOperator {
  MaterialWeights<R, T> weights;
  const T* conductivity;
  const T* inverse_conductivity;
  const T* inverse_heat_capacity;
  long long stride[3];

  HostMaterialOperator(const Grid& g, const HostMaterialFields<T>& f)
      : weights(make_material_weights<R, T>(g.hx, g.hy, g.hz)),
        conductivity(f.conductivity.data()),
        inverse_conductivity(f.inverse_conductivity.data()),
        inverse_heat_capacity(f.inverse_heat_capacity.data()),
        stride{1, g.nx, (long long)g.nx * g.ny} {}

  T operator()(const T* in, std::size_t point) const {
    const long long n = (long long)point;
    const T divergence = apply_material_stencil<R, T>(
        weights, in[n], [&](int axis, int m) { return in[n + m * stride[axis]]; },
        [&](int axis, int m) { return conductivity[n + m * stride[axis]]; },
        [&](int axis, int m) { return inverse_conductivity[n + m * stride[axis]]; });
    return inverse_heat_capacity[n] * divergence;
  }
};

}  // namespace heat
