"""The reference problem's RK4 step written plainly for array libraries, shared by the peer scripts:
peers.py (PyTorch on the GPU, numpy on the host) and cpu_peers.py (PyTorch on the CPU).

The step uses only slicing and arithmetic, so the same functions run on torch tensors and numpy
arrays. The constants are computed in double and rounded once to the working precision, and the
sums run in the order of stencils/stencil.hpp, so a float peer rounds like heatrk4 up to fused
multiply-adds. Needs nothing beyond the standard library; the caller brings the arrays.
"""
import struct
from dataclasses import dataclass

# Central second-derivative coefficients c_0..c_r (docs/design.md §1), by radius.
COEFFICIENTS = {
    1: [-2.0, 1.0],
    2: [-5.0 / 2.0, 4.0 / 3.0, -1.0 / 12.0],
    3: [-49.0 / 18.0, 3.0 / 2.0, -3.0 / 20.0, 1.0 / 90.0],
    4: [-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0],
}


@dataclass(frozen=True)
class Weights:
    center: float  # alpha * c0 * (1/hx^2 + 1/hy^2 + 1/hz^2)
    x: tuple  # alpha * c_k / hx^2, k = 1..r
    y: tuple
    z: tuple


@dataclass(frozen=True)
class Rk4:
    half_dt: float
    dt: float
    dt_over_6: float


def to_precision(value, dtype_name):
    """value rounded to float32 (to nearest, as numpy's float32() does) or kept in double."""
    return struct.unpack("f", struct.pack("f", value))[0] if dtype_name == "float32" else float(value)


def make_weights(alpha, hx, hy, hz, radius, dtype_name):
    c = COEFFICIENTS[radius]
    inv_h2 = [1.0 / (hx * hx), 1.0 / (hy * hy), 1.0 / (hz * hz)]
    center = to_precision(alpha * c[0] * (inv_h2[0] + inv_h2[1] + inv_h2[2]), dtype_name)
    axis = [tuple(to_precision(alpha * c[k] * inv_h2[a], dtype_name) for k in range(1, radius + 1)) for a in range(3)]
    return Weights(center, axis[0], axis[1], axis[2])


def make_rk4(dt, dtype_name):
    return Rk4(to_precision(0.5 * dt, dtype_name), to_precision(dt, dtype_name), to_precision(dt / 6.0, dtype_name))


def interior(shape, r):
    nz, ny, nx = shape
    return (slice(r, nz - r), slice(r, ny - r), slice(r, nx - r))


def alpha_laplacian(v, w, r):
    """alpha * Lap(v) on the interior (every point at least r from each face)."""
    nz, ny, nx = v.shape
    zc, yc, xc = interior(v.shape, r)
    acc = w.center * v[zc, yc, xc]
    for k in range(1, r + 1):
        acc = acc + w.x[k - 1] * (v[zc, yc, r + k : nx - r + k] + v[zc, yc, r - k : nx - r - k])
        acc = acc + w.y[k - 1] * (v[zc, r + k : ny - r + k, xc] + v[zc, r - k : ny - r - k, xc])
        acc = acc + w.z[k - 1] * (v[r + k : nz - r + k, yc, xc] + v[r - k : nz - r - k, yc, xc])
    return acc


def rk4_step(u, w, rk, r, copy_of):
    """One classical RK4 step; the boundary layer (r points from each face) keeps its values."""
    inner = interior(u.shape, r)

    def stage_input(c, k):
        v = copy_of(u)  # k is zero on the boundary layer, so the stage input there is u
        v[inner] = u[inner] + c * k
        return v

    k1 = alpha_laplacian(u, w, r)
    k2 = alpha_laplacian(stage_input(rk.half_dt, k1), w, r)
    k3 = alpha_laplacian(stage_input(rk.half_dt, k2), w, r)
    k4 = alpha_laplacian(stage_input(rk.dt, k3), w, r)
    out = copy_of(u)
    out[inner] = u[inner] + rk.dt_over_6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return out


def make_step(w, rk, r, copy_of):
    def step(u):
        return rk4_step(u, w, rk, r, copy_of)

    return step


def run_steps(step, u0, steps):
    u = u0
    for _ in range(steps):
        u = step(u)
    return u
