// Bitwise comparison of fields, for the tests that demand identical results (the same run on any
// rank count, a restart against a straight run).
#pragma once

#include <cstring>

#include "core/field.hpp"

namespace heat::test {

// Points where two fields differ in any bit; -1 when their sizes differ.
template <typename T>
long long bitwise_differences(const Field<T>& a, const Field<T>& b) {
  if (a.size() != b.size()) return -1;
  long long differences = 0;
  for (std::size_t n = 0; n < a.size(); ++n) differences += std::memcmp(a.data() + n, b.data() + n, sizeof(T)) != 0;
  return differences;
}

}  // namespace heat::test
