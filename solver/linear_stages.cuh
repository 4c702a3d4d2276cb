// RK4 by linearity, as four stencil passes over one operand each: k1 = a*Lap(u), then
// k_{s+1} = k1 + c*dt * a*Lap(k_s), and the last pass forms u + dt/6*(k1 + 2k2 + 2k3 + k4) in place.
// Stage fields are zero on the boundary layer, which is what makes the identity hold there.
// The Ops follow global_stencil.cuh's interface (reuse runs them through its global-memory
// kernel): value(p), the stencil's operand at flat index p; centre(p), the other arrays the result
// needs at p, which a kernel may load ahead of time so their latency overlaps other work;
// store(p, lap, value, centre), what to do with a*Lap at p. The Horner form below is a list of
// passes instead, which tiled's 2.5D kernels read as arrays (plane_stencil.cuh's PassArgs).
#pragma once

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

// out = base + c * a*Lap(in): reuse's middle stages (k_{s+1} = k1 + c*dt * a*Lap(k_s)).
template <typename T>
struct BasePlusLap {
  const T* base;
  const T* in;
  T c;
  T* out;
  struct Centre {
    T base;
  };
  __device__ T value(long long p) const { return in[p]; }
  __device__ Centre centre(long long p) const { return {base[p]}; }
  __device__ void store(long long p, T lap, T, Centre here) const { out[p] = stage_input(here.base, c, lap); }
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
    const T k4 = stage_input(c.k1, dt, lap);
    u[p] = rk4_combine(c.u, dt_over_6, c.k1, c.k2, k3_here, k4);
  }
};

// One step: stage 1 reads u and writes k1 (2 arrays); stage 2 reads k1, writes k2 (2); stage 3
// reads k2 and k1, writes k3 (3); stage 4 reads k3, k1, k2 and u, writes u (5).
constexpr int kLinearStepArrays = 12;

// Runs one step's four passes through launch(op), a stencil kernel's launcher.
template <typename T, typename Rk, typename Launch>
void linear_rk4_step(Launch&& launch, T* u, T* k1, T* k2, T* k3, const Rk& rk) {
  launch(FirstStage<T>{u, k1});
  launch(BasePlusLap<T>{k1, k1, rk.stage_dt[0], k2});
  launch(BasePlusLap<T>{k1, k2, rk.stage_dt[1], k3});
  launch(LastStage<T>{u, k1, k2, k3, rk.stage_dt[2], rk.dt_over_6});
}

// The same step by Horner's rule. For a linear operator RK4 is the Taylor polynomial of degree 4,
// u + dt Lu + dt^2/2 L^2u + dt^3/6 L^3u + dt^4/24 L^4u = v4, where v0 = u and
// v_s = u + c_s * a*Lap(v_{s-1}) with c = dt/4, dt/3, dt/2, dt: four passes that each read one
// operand around the point and u at it, so a step moves 11 arrays instead of 12 and a pass holds
// one value ahead per point instead of up to three. On the boundary layer a*Lap is zero by
// definition, so there v_s = u: the scratch fields carry u's boundary layer.
template <typename T>
struct HornerConstants {
  T c[4];
};

template <typename T>
HornerConstants<T> make_horner_constants(double dt) {
  return {{static_cast<T>(dt / 4), static_cast<T>(dt / 3), static_cast<T>(dt / 2), static_cast<T>(dt)}};
}

// One pass of the Horner form: out = u + c * a*Lap(in), `in` being u itself for the first.
template <typename T>
struct HornerPass {
  const T* in;
  const T* u;
  T c;
  T* out;
};

// Pass 1 reads u and writes v1 (2 arrays); passes 2-4 read v_{s-1} and u and write (3 each).
constexpr int kHornerStepArrays = 11;

// One step through launch(op), with two scratch fields that alternate as v1, v2, v3.
template <typename T, typename Launch>
void horner_rk4_step(Launch&& launch, T* u, T* a, T* b, const HornerConstants<T>& h) {
  launch(HornerPass<T>{u, u, h.c[0], a});
  launch(HornerPass<T>{a, u, h.c[1], b});
  launch(HornerPass<T>{b, u, h.c[2], a});
  // The last pass writes u in place: it reads u only at the point it writes.
  launch(HornerPass<T>{a, u, h.c[3], u});
}

}  // namespace heat
