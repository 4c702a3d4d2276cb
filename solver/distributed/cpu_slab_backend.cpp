// Each point is computed by the same expression as in solver/cpu.cpp, in the same order, and
// the ghost planes a stage reads hold exactly the values the neighbour computed: the result
// does not depend on the rank count.

#include "solver/distributed/cpu_slab_backend.hpp"

#include "solver/dispatch.hpp"
#include "solver/first_nonfinite.hpp"
#include "stencils/stencil.hpp"

namespace heat {
namespace {

template <typename T>
class CpuSlabBackend final : public Backend<T> {
 public:
  CpuSlabBackend(const Problem& p, HaloExchange<T>& exchange)
      : problem_(p),
        exchange_(exchange),
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
  // This rank's box only (its own index); a distributed time loop must combine the ranks' answers.
  long long first_nonfinite() override { return first_nonfinite_on_host(u_.data(), u_.size()); }

 private:
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
      // The stencil reads r planes beyond this rank's own: the neighbours' values of this stage's input.
      T* in = stage == 0 ? u_.data() : stage_input_.data();
      exchange_.exchange(in);
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
  HaloExchange<T>& exchange_;
  Rk4Constants<T> rk_;
  Field<T> u_, stage_input_, k_, sum_;
};

}  // namespace

template <typename T>
std::unique_ptr<Backend<T>> make_cpu_slab_backend(const Problem& box_problem, HaloExchange<T>& exchange) {
  return std::make_unique<CpuSlabBackend<T>>(box_problem, exchange);
}

template std::unique_ptr<Backend<float>> make_cpu_slab_backend(const Problem&, HaloExchange<float>&);
template std::unique_ptr<Backend<double>> make_cpu_slab_backend(const Problem&, HaloExchange<double>&);

}  // namespace heat
