// A 3D scalar field on the host, x fastest: index (k*ny + j)*nx + i, shape (nz, ny, nx).
#pragma once

#include <cstddef>
#include <vector>

#include "solver/problem.hpp"

namespace heat {

template <typename T>
class Field {
 public:
  Field() = default;
  Field(int nx, int ny, int nz, T value = T(0))
      : nx_(nx), ny_(ny), nz_(nz), data_(std::size_t(nx) * std::size_t(ny) * std::size_t(nz), value) {}
  explicit Field(const Grid& g, T value = T(0)) : Field(g.nx, g.ny, g.nz, value) {}

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
  std::vector<T>& values() { return data_; }
  const std::vector<T>& values() const { return data_; }

 private:
  int nx_ = 0, ny_ = 0, nz_ = 0;
  std::vector<T> data_;
};

// Converts precision (used to hand a double field to a float run, and back for checks).
template <typename To, typename From>
Field<To> field_cast(const Field<From>& in) {
  Field<To> out(in.nx(), in.ny(), in.nz());
  for (std::size_t n = 0; n < in.size(); ++n) out.data()[n] = static_cast<To>(in.data()[n]);
  return out;
}

}  // namespace heat
