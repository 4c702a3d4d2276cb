// HD marks a function that the host and the device both compile (nvcc), and plain C++ elsewhere;
// HEAT_UNROLL asks either compiler to unroll a short loop (the stencil's radius, a ZFP block's side).
#pragma once

#if defined(__CUDACC__)
#define HD __host__ __device__
#define HEAT_UNROLL _Pragma("unroll")
#else
#define HD
#define HEAT_UNROLL _Pragma("GCC unroll 8")
#endif
