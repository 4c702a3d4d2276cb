// Built with -fmad=false (backends/CMakeLists.txt), as core/initial_conditions.cpp is built without FMA
// contraction: the same formulas round the same way on both sides.

#include "backends/cuda/cuda_check.cuh"
#include "backends/cuda/device_buffer.cuh"
#include "backends/cuda/device_initial_fields.hpp"
#include "core/initial_values.hpp"

namespace heat {
namespace {

struct RandnPoint {
  std::uint64_t seed;
  __device__ double operator()(long long n, int, int, int) const {
    return initial_values::standard_normal(seed, std::uint64_t(n));
  }
};

struct GaussianPoint {
  initial_values::GaussianShape shape;
  __device__ double operator()(long long, int i, int j, int k) const { return initial_values::gaussian(shape, i, j, k); }
};

// The profiles come from the host's sin, so only products are computed here.
struct SinePoint {
  const double *sx, *sy, *sz;
  __device__ double operator()(long long, int i, int j, int k) const {
    return initial_values::sine(sx[i], sy[j], sz[k]);
  }
};

struct UniformPoint {
  double temperature;
  __device__ double operator()(long long, int, int, int) const { return temperature; }
};

// u[m] = point m of `box` (box_point) of a grid of nx x ny points a plane.
template <typename T, class Point>
__global__ void fill_points(T* u, int nx, int ny, GridBox box, long long count, Point point) {
  for (long long m = blockIdx.x * (long long)blockDim.x + threadIdx.x; m < count;
       m += (long long)gridDim.x * blockDim.x) {
    const BoxPoint p = box_point(nx, ny, box, m);
    u[m] = static_cast<T>(point(p.n, p.i, p.j, p.k));
  }
}

template <typename T, class Point>
void fill(T* u, const Grid& whole, const GridBox& box, Point point) {
  const long long count = (long long)box.x.count * box.y.count * box.z.count;
  constexpr int kThreads = 256;
  const unsigned blocks = grid_stride_blocks(count, kThreads, 1 << 16);
  fill_points<T><<<blocks, kThreads>>>(u, whole.nx, whole.ny, box, count, point);
  HEAT_CUDA_CHECK_LAUNCH();
  HEAT_CUDA_CHECK(cudaStreamSynchronize(0));
}

}  // namespace

template <typename T>
void make_initial_field_on_device(T* u, const Grid& g, const InitSpec& spec, const GridBox& box) {
  switch (spec.kind) {
    case InitKind::Randn: return fill(u, g, box, RandnPoint{spec.seed});
    case InitKind::Gaussian: return fill(u, g, box, GaussianPoint{initial_values::gaussian_shape(g)});
    case InitKind::Sine: {
      DeviceBuffer<double> sx(std::size_t(g.nx)), sy(std::size_t(g.ny)), sz(std::size_t(g.nz));
      sx.copy_from_host(sine_profile(g.nx, spec.modes[0]).data());
      sy.copy_from_host(sine_profile(g.ny, spec.modes[1]).data());
      sz.copy_from_host(sine_profile(g.nz, spec.modes[2]).data());
      return fill(u, g, box, SinePoint{sx.get(), sy.get(), sz.get()});
    }
    case InitKind::Uniform: return fill(u, g, box, UniformPoint{spec.temperature});
    case InitKind::File: break;
  }
  throw InputError("an initial field from a file is read on the host and uploaded, not made on the device");
}

template void make_initial_field_on_device<float>(float*, const Grid&, const InitSpec&, const GridBox&);
template void make_initial_field_on_device<double>(double*, const Grid&, const InitSpec&, const GridBox&);

}  // namespace heat
