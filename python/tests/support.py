"""What the Python tests share: random fields, bitwise comparison with a useful message, and the
command line's own run of a problem (heatrk4.run), whose first and last snapshots a test steps
between through heatrk4.step."""
import os

import numpy as np

import heatrk4

ORDERS = (2, 4, 6, 8)
PRECISIONS = ("float", "double")
DTYPES = {"float": np.float32, "double": np.float64}
SHAPE = (10, 11, 13)  # (nz, ny, nx): odd and even rows, every axis at least 2r + 1 = 9


def random_field(shape=SHAPE, dtype=np.float64, seed=1):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def assert_bitwise_equal(test, got, want, what):
    """Same dtype, shape and bits; on failure the first differing (i, j, k) with both values."""
    test.assertEqual(got.dtype, want.dtype, what)
    test.assertEqual(got.shape, want.shape, what)
    width = np.uint32 if got.dtype == np.float32 else np.uint64
    differ = np.argwhere(got.view(width) != want.view(width))
    if len(differ):
        k, j, i = differ[0]
        test.fail(f"{what}: {len(differ)} points differ; first at (i, j, k) = ({i}, {j}, {k}): "
                  f"{got[k, j, i]!r} vs {want[k, j, i]!r}")


def boundary_planes(u, r):
    """Every point within r of a face, flattened (the Dirichlet layer)."""
    mask = np.ones(u.shape, dtype=bool)
    mask[r:-r, r:-r, r:-r] = False
    return u[mask]


def command_line_run(directory, backend, order, precision, steps=3, shape=SHAPE):
    """heatrk4.run of a randn field with snapshots at the start and the end: (first, last) as
    heatrk4.read returns them."""
    nz, ny, nx = shape
    out = os.path.join(directory, f"{backend}-{order}-{precision}")
    heatrk4.run(nx=nx, ny=ny, nz=nz, order=order, precision=precision, backend=backend, init="randn",
                seed=7, steps=steps, output_every=steps, output=out, quiet=True)
    first = heatrk4.read(os.path.join(out, "heat_000000.hdf"))
    last = heatrk4.read(os.path.join(out, f"heat_{steps:06d}.hdf"))
    return first, last


def init_file_run(directory, first_path, backend, steps=3):
    """heatrk4 --init-file FIRST: the command line stepping a file's field; its last snapshot."""
    out = os.path.join(directory, "from-file")
    heatrk4.run(init_file=first_path, backend=backend, steps=steps, output=out, overwrite=True, quiet=True)
    return heatrk4.read(os.path.join(out, f"heat_{steps:06d}.hdf"))


def step_like(first, u, backend, steps=3):
    """heatrk4.step of u with the settings of a command line run's first snapshot."""
    s = first["settings"]
    heatrk4.step(u, dt=s["dt"], alpha=s["alpha"], h=first["h"], steps=steps, order=s["order"], backend=backend)
    return u


def assert_init_file_run_matches_step(test, backend, directory):
    """heatrk4 --init-file from a run's first snapshot and heatrk4.step of the same field agree
    bitwise on `backend`."""
    first, _ = command_line_run(directory, backend, 8, "float")
    from_file = init_file_run(directory, os.path.join(directory, f"{backend}-8-float", "heat_000000.hdf"), backend)
    u = step_like(first, first["u"].copy(), backend)
    assert_bitwise_equal(test, u, from_file["u"], f"{backend}: --init-file run against heatrk4.step")
