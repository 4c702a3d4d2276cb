// Two neighbouring columns as one 8-byte (float) or 16-byte (double) access: the 2.5D kernels'
// threads own x pairs of columns, and their shared planes place every pair a thread reads aligned.
#pragma once

namespace heat {

template <typename T>
struct PairOf;
template <>
struct PairOf<float> {
  using type = float2;
};
template <>
struct PairOf<double> {
  using type = double2;
};
template <typename T>
using Pair = typename PairOf<T>::type;

// p must be aligned to a pair.
template <typename T>
__device__ __forceinline__ Pair<T> load_pair(const T* p) {
  return *reinterpret_cast<const Pair<T>*>(p);
}
template <typename T>
__device__ __forceinline__ void store_pair(T* p, T first, T second) {
  *reinterpret_cast<Pair<T>*>(p) = Pair<T>{first, second};
}

}  // namespace heat
