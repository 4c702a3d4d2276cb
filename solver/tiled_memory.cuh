// 16-byte vectors of float (4) or double (2), and the block barrier the tiled kernel's
// warp roles share. Everything the kernel moves through shared memory is one of these vectors.
#pragma once

#include <cuda_runtime.h>

namespace heat {

template <typename T>
struct Vector16;
template <>
struct Vector16<float> {
  using type = float4;
  static constexpr int kWidth = 4;
};
template <>
struct Vector16<double> {
  using type = double2;
  static constexpr int kWidth = 2;
};

// Register copy of one vector, indexable with compile-time indices after unrolling.
template <typename T>
struct Lanes {
  T v[Vector16<T>::kWidth];
};

__device__ inline Lanes<float> unpack(float4 f) { return Lanes<float>{{f.x, f.y, f.z, f.w}}; }
__device__ inline Lanes<double> unpack(double2 d) { return Lanes<double>{{d.x, d.y}}; }
__device__ inline float4 pack(const Lanes<float>& l) { return make_float4(l.v[0], l.v[1], l.v[2], l.v[3]); }
__device__ inline double2 pack(const Lanes<double>& l) { return make_double2(l.v[0], l.v[1]); }

template <typename T>
__device__ inline Lanes<T> load_shared(const T* vector_start) {
  return unpack(*reinterpret_cast<const typename Vector16<T>::type*>(vector_start));
}
template <typename T>
__device__ inline void store_shared(T* vector_start, const Lanes<T>& value) {
  *reinterpret_cast<typename Vector16<T>::type*>(vector_start) = pack(value);
}

// Read-only global vector through the non-coherent path: u and the stage fields a kernel reads
// are never written by the same launch.
template <typename T>
__device__ inline Lanes<T> load_global_vector(const T* vector_start) {
  return unpack(__ldg(reinterpret_cast<const typename Vector16<T>::type*>(vector_start)));
}
template <typename T>
__device__ inline void store_global_vector(T* vector_start, const Lanes<T>& value) {
  *reinterpret_cast<typename Vector16<T>::type*>(vector_start) = pack(value);
}

// The kernel's warps play different roles in different branches and meet at one barrier per
// plane. barrier.sync (unlike bar.sync, which __syncthreads may emit) does not require every
// warp to be at the same instruction; it orders shared-memory accesses like __syncthreads.
__device__ inline void block_barrier() { asm volatile("barrier.sync 0;" ::: "memory"); }

}  // namespace heat
