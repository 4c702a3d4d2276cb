// The contract every backend meets (design section 2).
//
// - All calls are blocking: when one returns, its work is complete and any error has been thrown.
// - upload() copies the whole field, boundary layer included; the field then stays resident in
//   the backend's memory (the GPU's, for CUDA backends) between step() calls.
// - step(count) advances `count` classical RK4 steps of alpha*Lap on the interior; the boundary
//   layer (every point within r of a face) is never written.
// - download() copies the current field back, boundary layer included.
// - first_nonfinite() finds the first NaN or Inf of the current field where it lives (one read
//   of the field, cheap beside a step), so the time loop can stop a run that blew up.
// Errors: InputError for a problem the backend cannot take, RunError for a failure while running.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "solver/field.hpp"
#include "solver/problem.hpp"

namespace heat {

template <typename T>
class Backend {
 public:
  virtual ~Backend() = default;
  virtual void upload(const Field<T>& u) = 0;
  virtual void step(int count) = 0;
  virtual void download(Field<T>& u) = 0;
  // The flat index (Grid::index) of the first non-finite value of the current field, or -1.
  virtual long long first_nonfinite() = 0;
};

// Choices that are not part of the problem but of where and how it runs.
struct BackendOptions {
  int device = 0;  // CUDA device ordinal
};

// What a backend's entry in the registry says about it without building one.
struct BackendEntry {
  std::string name;
  std::string description;
  bool uses_cuda = false;
  // Bytes that must cross main memory per interior point per step under this backend's design:
  // each array read or written once, neighbours served by caches. The benchmark divides by it.
  std::function<double(const Problem&, std::size_t value_size)> bytes_per_point;
  // Bytes of the backend's own working memory (on the device for CUDA backends).
  std::function<std::size_t(const Problem&, std::size_t value_size)> working_bytes;
  std::function<std::unique_ptr<Backend<float>>(const Problem&, const BackendOptions&)> make_float;
  std::function<std::unique_ptr<Backend<double>>(const Problem&, const BackendOptions&)> make_double;

  template <typename T>
  std::unique_ptr<Backend<T>> make(const Problem& p, const BackendOptions& o) const {
    if constexpr (sizeof(T) == sizeof(float)) return make_float(p, o);
    else return make_double(p, o);
  }
};

// Fills both factories of an entry from one class template.
template <template <typename> class Impl>
void set_factories(BackendEntry& e) {
  e.make_float = [](const Problem& p, const BackendOptions& o) -> std::unique_ptr<Backend<float>> {
    return std::make_unique<Impl<float>>(p, o);
  };
  e.make_double = [](const Problem& p, const BackendOptions& o) -> std::unique_ptr<Backend<double>> {
    return std::make_unique<Impl<double>>(p, o);
  };
}

}  // namespace heat
