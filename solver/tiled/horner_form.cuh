// The RK4 step in Horner form, which every tiled kernel computes: four stencil passes, each
// reading one operand around the point and u at it (linear_stages.cuh has the stage form).
#pragma once

namespace heat {

// For a linear operator RK4 is the Taylor polynomial of degree 4,
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
