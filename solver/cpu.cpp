// The cpu backend: the reference every other backend is checked against.
// Straightforward loops over the interior, OpenMP over (z, y) rows and a unit-stride x loop
// that the compiler vectorises. Each point is computed independently of the thread that owns
// it, so the result is bitwise the same for any thread count.

#include "solver/dispatch.hpp"
#include "solver/first_nonfinite.hpp"
#include "solver/registry.hpp"
#include "stencils/stencil.hpp"

namespace heat {
namespace {

template <typename T>
class CpuBackend final : public Backend<T> {
 public:
  CpuBackend(const Problem& p, const BackendOptions&)
      : problem_(p),
        rk_(make_rk4_constants<T>(p.dt)),
        u_(Field<T>::uninitialized(p.grid)),
        stage_input_(Field<T>::uninitialized(p.grid)),
        k_(p.grid),
        sum_(p.grid) {}

  // The boundary layer of a stage input is the boundary of u, so both start as u.
  void upload(const Field<T>& u) override {
    copy_points(u, u_);
    copy_points(u, stage_input_);
  }

  void step(int count) override {
    with_radius(problem_.order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const auto& g = problem_.grid;
      const auto w = make_weights<R, T>(problem_.alpha, g.hx, g.hy, g.hz);
      for (int n = 0; n < count; ++n) step_once<R>(w);
    });
  }

  void download(Field<T>& u) override { copy_points(u_, u); }

  long long first_nonfinite() override { return first_nonfinite_on_host(u_.data(), u_.size()); }

 private:
  // Calls body(p) for the flat index p of every interior point.
  template <typename Body>
  void for_interior(Body&& body) const {
    const Grid& g = problem_.grid;
    const int r = problem_.radius();
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = r; k < g.nz - r; ++k)
      for (int j = r; j < g.ny - r; ++j) {
        const std::size_t row = g.index(0, j, k);
#pragma omp simd
        for (int i = r; i < g.nx - r; ++i) body(row + std::size_t(i));
      }
  }

  template <int R>
  void step_once(const StencilWeights<R, T>& w) {
    const Grid& g = problem_.grid;
    const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
    for (int stage = 0; stage < 4; ++stage) {
      // k_s = alpha*Lap(stage input); the stage input of stage 1 is u itself.
      const T* in = stage == 0 ? u_.data() : stage_input_.data();
      T* k = k_.data();
      T* sum = sum_.data();
      for_interior([&](std::size_t p) {
        const T ks = apply_stencil<R, T>(w, in[p], [&](int axis, int d) {
          return in[p + d * stride[axis]] + in[p - d * stride[axis]];
        });
        k[p] = ks;
        sum[p] = rk4_accumulate(sum[p], stage, ks);
      });
      if (stage < 3) {
        const T stage_dt = rk_.stage_dt[stage];
        T* next = stage_input_.data();
        const T* u = u_.data();
        for_interior([&](std::size_t p) { next[p] = stage_input(u[p], stage_dt, k[p]); });
      }
    }
    T* u = u_.data();
    const T* sum = sum_.data();
    const T dt6 = rk_.dt_over_6;
    for_interior([&](std::size_t p) { u[p] = rk4_finish(u[p], dt6, sum[p]); });
  }

  static void copy_points(const Field<T>& from, Field<T>& to) {
    const T* src = from.data();
    T* dst = to.data();
    parallel_for_points(from.size(), [&](std::size_t n) { dst[n] = src[n]; });
  }

  Problem problem_;
  Rk4Constants<T> rk_;
  Field<T> u_, stage_input_, k_, sum_;
};

}  // namespace

void register_cpu_backends(BackendRegistry& registry) {
  BackendEntry e;
  e.name = "cpu";
  e.description = "reference: OpenMP loops on the host, one pass per RK4 stage";
  e.uses_cuda = false;
  // Per stage: read the stage input and sum, write k and sum, then read u and k and write the
  // next stage input (3 times); the final pass reads u and sum and writes u.
  e.bytes_per_point = [](const Problem&, std::size_t size) { return double(4 * 4 + 3 * 3 + 3) * double(size); };
  e.working_bytes = [](const Problem& p, std::size_t size) { return 4 * p.grid.points() * size; };
  set_factories<CpuBackend>(e);
  registry.add(std::move(e));
}

}  // namespace heat
