#include <sys/mman.h>

#include <cstdlib>
#include <new>

#include "core/field.hpp"

namespace heat {
namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
}  // namespace

void* allocate_field_memory(std::size_t bytes) {
  if (bytes < kHugePage) return ::operator new(bytes);
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
  // A hint: where the kernel has no transparent huge pages the field lives in small ones, as before.
  madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void free_field_memory(void* p, std::size_t bytes) noexcept {
  if (bytes < kHugePage) ::operator delete(p);
  else std::free(p);
}

}  // namespace heat
