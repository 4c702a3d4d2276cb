// The global-memory kernel of material fields (docs/design.md §1, "Materials"): global_stencil.cuh's
// kernel (a thread per (x, y) interior point marching along z, the 2r+1 z operands in registers,
// x and y neighbours through L1) with (1/C) div(K grad u) in flux form
// (stencils/material_stencil.hpp) as its operator where the constant path's is alpha Lap, and the
// same Ops (value, centre, store: linear_stages.cuh).
#pragma once

#include "backends/cuda/device_materials.cuh"
#include "backends/cuda/global_stencil.cuh"
#include "stencils/material_stencil.hpp"

namespace heat {

// (1/C) div(K grad u) at p, each pair's M from the material view.
template <int R, typename T>
struct FluxForm {
  MaterialWeights<R, T> w;
  DeviceMaterialView<R, T> m;
  template <typename ValueAt>
  __device__ T operator()(const GridDims&, long long p, const T (&column)[2 * R + 1], ValueAt&& value_at) const {
    const T divergence = apply_conductance_stencil<R, T>(
        w, column[R],
        [&](int axis, int dist) { return axis == 2 ? column[R + dist] : value_at(p + dist * m.stride[axis]); },
        [&](int axis, int dist, int lo) { return m.pair(axis, dist, p + lo * m.stride[axis]); });
    return m.inverse_heat_capacity[p] * divergence;
  }
};

template <int R, typename T, typename Op>
void launch_global_material_stencil(const Grid& g, const MaterialWeights<R, T>& w, const DeviceMaterialView<R, T>& m,
                                    const Op& op) {
  launch_global_operator<R, T>(g, FluxForm<R, T>{w, m}, op);
}

}  // namespace heat
