// Two neighbouring columns of an array as one 8-byte (float) or 16-byte (double) access: the 2.5D
// kernels' threads own x pairs of columns, and a pair whose first index is even is aligned, since
// cudaMalloc aligns every array to 256 bytes.
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

// p must be aligned to a pair (an even index into a cudaMalloc'd array, or a shared slot so placed).
template <typename T>
__device__ __forceinline__ Pair<T> load_pair(const T* p) {
  return *reinterpret_cast<const Pair<T>*>(p);
}
template <typename T>
__device__ __forceinline__ void store_pair(T* p, T first, T second) {
  *reinterpret_cast<Pair<T>*>(p) = Pair<T>{first, second};
}

// What an Op loads at a pair of columns besides its operand (linear_stages.cuh's Centre).
template <class Centre>
struct CentrePair {
  Centre lane[2];
};

}  // namespace heat
