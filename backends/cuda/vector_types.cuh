// CUDA's built-in vector types by element type and width, for kernels that load or store several
// values in one access (the tiled kernels' column pairs, the blow-up search's 16-byte loads).
#pragma once

#include <cuda_runtime.h>

namespace heat {

template <typename T, int N>
struct VectorTypeOf;
template <>
struct VectorTypeOf<float, 2> {
  using type = float2;
};
template <>
struct VectorTypeOf<float, 4> {
  using type = float4;
};
template <>
struct VectorTypeOf<double, 2> {
  using type = double2;
};

template <typename T, int N>
using VectorOf = typename VectorTypeOf<T, N>::type;

}  // namespace heat
