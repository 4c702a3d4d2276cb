// A 3D scalar field on the host, x fastest: index (k*ny + j)*nx + i, shape (nz, ny, nx).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "core/problem.hpp"

namespace heat {

// Memory of large fields in transparent huge pages where the kernel offers them (madvise mode):
// a 600^3 field is 432 pages of 2 MiB instead of 211,000 of 4 KiB, so first touch, the driver's
// copies into pageable memory and the freeing at exit walk 500x fewer pages.
void* allocate_field_memory(std::size_t bytes);
void free_field_memory(void* p, std::size_t bytes) noexcept;

// Leaves elements of arithmetic type unwritten on construction, so a large field is first
// touched (page-faulted) by the OpenMP threads that fill it rather than zeroed by one thread: at
// 600^3 that serial zeroing was the largest part of a run's set-up.
template <typename T>
struct FirstTouchAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = FirstTouchAllocator<U>;
  };
  FirstTouchAllocator() = default;
  template <typename U>
  FirstTouchAllocator(const FirstTouchAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_field_memory(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { free_field_memory(p, n * sizeof(T)); }
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using FieldStorage = std::vector<T, FirstTouchAllocator<T>>;

// body(n) for every flat index n < count, spread over the OpenMP threads.
template <typename Body>
void parallel_for_points(std::size_t count, Body&& body) {
  const std::int64_t total = std::int64_t(count);
#pragma omp parallel for schedule(static)
  for (std::int64_t n = 0; n < total; ++n) body(std::size_t(n));
}

template <typename T>
class Field {
 public:
  Field() = default;
  Field(int nx, int ny, int nz, T value = T(0))
      : nx_(nx), ny_(ny), nz_(nz), data_(std::size_t(nx) * std::size_t(ny) * std::size_t(nz)) {
    T* data = data_.data();
    parallel_for_points(data_.size(), [&](std::size_t n) { data[n] = value; });
  }
  explicit Field(const Grid& g, T value = T(0)) : Field(g.nx, g.ny, g.nz, value) {}

  // Copies spread over the OpenMP threads: a 600^3 field is gigabytes, which one thread copies
  // (and first-touches) several times slower (--check copies the start and the result).
  Field(const Field& other) : Field(other.nx_, other.ny_, other.nz_, NoFill{}) {
    T* to = data_.data();
    const T* from = other.data_.data();
    parallel_for_points(data_.size(), [&](std::size_t n) { to[n] = from[n]; });
  }
  Field& operator=(const Field& other) {
    if (this != &other) *this = Field(other);
    return *this;
  }
  Field(Field&&) noexcept = default;
  Field& operator=(Field&&) noexcept = default;

  // A field whose values are not written yet: for code that writes every point itself.
  static Field uninitialized(int nx, int ny, int nz) { return Field(nx, ny, nz, NoFill{}); }
  static Field uninitialized(const Grid& g) { return uninitialized(g.nx, g.ny, g.nz); }

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  int nz() const { return nz_; }
  std::size_t size() const { return data_.size(); }
  std::size_t index(int i, int j, int k) const {
    return (std::size_t(k) * std::size_t(ny_) + std::size_t(j)) * std::size_t(nx_) + std::size_t(i);
  }

  T& operator()(int i, int j, int k) { return data_[index(i, j, k)]; }
  const T& operator()(int i, int j, int k) const { return data_[index(i, j, k)]; }
  T* data() { return data_.data(); }
  const T* data() const { return data_.data(); }
  FieldStorage<T>& values() { return data_; }
  const FieldStorage<T>& values() const { return data_; }

 private:
  struct NoFill {};
  Field(int nx, int ny, int nz, NoFill)
      : nx_(nx), ny_(ny), nz_(nz), data_(std::size_t(nx) * std::size_t(ny) * std::size_t(nz)) {}

  int nx_ = 0, ny_ = 0, nz_ = 0;
  FieldStorage<T> data_;
};

// Converts precision (used to hand a double field to a float run, and back for checks).
template <typename To, typename From>
Field<To> field_cast(const Field<From>& in) {
  auto out = Field<To>::uninitialized(in.nx(), in.ny(), in.nz());
  To* to = out.data();
  const From* from = in.data();
  parallel_for_points(in.size(), [&](std::size_t n) { to[n] = static_cast<To>(from[n]); });
  return out;
}

}  // namespace heat
