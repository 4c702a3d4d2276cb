// RK4 by linearity, as four stencil passes over one operand each: k1 = a*Lap(u), then
// k_{s+1} = k1 + c*dt * a*Lap(k_s), and the last pass forms u + dt/6*(k1 + 2k2 + 2k3 + k4) in place.
// Stage fields are zero on a layer face's boundary layer and hold the homogeneous conditions beyond
// the other faces (GlobalMemoryBackend says why), which is what makes the identity hold there.
// The Ops follow global_stencil.cuh's interface (reuse runs them through its global-memory
// kernel): value(p), the stencil's operand at flat index p; centre(p), the other arrays the result
// needs at p, which a kernel may load ahead of time so their latency overlaps other work;
// store(p, lap, value, centre), what to do with a*Lap at p. tiled runs the same step in the pass
// form (stencils/rk4_forms.hpp), whose pass shape the middle stages share (BasePlusLap).
#pragma once

#include "stencils/rk4_forms.hpp"
#include "stencils/stencil.hpp"

namespace heat {

// k1 = a*Lap(u).
template <typename T>
struct FirstStage {
  const T* u;
  T* k1;
  struct Centre {};
  __device__ T value(long long p) const { return u[p]; }
  __device__ Centre centre(long long) const { return {}; }
  __device__ void store(long long p, T lap, T, Centre) const { k1[p] = lap; }
};

// Op with a steady source's rate q/C added to its a*Lap before it is stored: a stage of the stage
// form, k_s = a*Lap(stage input) + q/C, as cpu_reference computes it. A type of its own, so that a
// run without a source launches Op itself, unchanged.
template <class Op, typename T>
struct AddingRate {
  Op op;
  const T* rate;
  using Centre = typename Op::Centre;
  __device__ T value(long long p) const { return op.value(p); }
  __device__ Centre centre(long long p) const { return op.centre(p); }
  __device__ void store(long long p, T lap, T value, Centre c) const { op.store(p, lap + rate[p], value, c); }
};

// launch(op), or with `rate` (device memory) non-null launch(AddingRate{op, rate}).
template <typename T, class Launch, class Op>
void launch_adding_rate(Launch&& launch, const Op& op, const T* rate) {
  if (rate) launch(AddingRate<Op, T>{op, rate});
  else launch(op);
}

// A pass out = base + c * a*Lap(in) (rk4_forms.hpp) as an Op: reuse's middle stages,
// k_{s+1} = k1 + c*dt * a*Lap(k_s).
template <typename T>
struct BasePlusLapOp {
  BasePlusLap<T> pass;
  struct Centre {
    T base;
  };
  __device__ T value(long long p) const { return pass.in[p]; }
  __device__ Centre centre(long long p) const { return {pass.base[p]}; }
  __device__ void store(long long p, T lap, T, Centre here) const {
    pass.out[p] = base_plus_lap(here.base, pass.c, lap);
  }
};

// k4 = k1 + dt * a*Lap(k3), then the RK4 combination into u (which this pass does not read
// around the point, so it is updated in place).
template <typename T>
struct LastStage {
  T* u;
  const T* k1;
  const T* k2;
  const T* k3;
  T dt;
  T dt_over_6;
  struct Centre {
    T u, k1, k2;
  };
  __device__ T value(long long p) const { return k3[p]; }
  __device__ Centre centre(long long p) const { return {u[p], k1[p], k2[p]}; }
  __device__ void store(long long p, T lap, T k3_here, Centre c) const {
    const T k4 = base_plus_lap(c.k1, dt, lap);
    u[p] = rk4_combine(c.u, dt_over_6, c.k1, c.k2, k3_here, k4);
  }
};

// One step: stage 1 reads u and writes k1 (2 arrays); stage 2 reads k1, writes k2 (2); stage 3
// reads k2 and k1, writes k3 (3); stage 4 reads k3, k1, k2 and u, writes u (5). A source's rate is
// read by stage 1 alone (linear_rk4_step).
constexpr int kLinearStepArrays = 12;
constexpr int kLinearStepSourceArrays = 1;

// Runs one step's four passes through launch(op), a stencil kernel's launcher, calling
// stage_written(k) after each stage field a later pass reads around its points is written. A steady
// source's `rate` (device memory; null: none) is k1's alone: the operator is affine, so
// k_{s+1} = L(u + c dt k_s) = L(u) + c dt a*Lap(k_s) = k1 + c dt a*Lap(k_s), source and all.
template <typename T, typename Rk, typename Launch, typename StageWritten>
void linear_rk4_step(Launch&& launch, StageWritten&& stage_written, T* u, T* k1, T* k2, T* k3, const Rk& rk,
                     const T* rate = nullptr) {
  launch_adding_rate(launch, FirstStage<T>{u, k1}, rate);
  stage_written(k1);
  launch(BasePlusLapOp<T>{{k1, k1, rk.stage_dt[0], k2}});
  stage_written(k2);
  launch(BasePlusLapOp<T>{{k1, k2, rk.stage_dt[1], k3}});
  stage_written(k3);
  launch(LastStage<T>{u, k1, k2, k3, rk.stage_dt[2], rk.dt_over_6});
}

}  // namespace heat
