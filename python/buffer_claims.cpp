#include "python/buffer_claims.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <vector>

namespace heat::python {
namespace {

struct Claims {
  std::mutex mutex;
  std::condition_variable released;
  std::vector<std::pair<const char*, const char*>> held;  // [begin, end) of each claim

  bool overlaps(const char* begin, const char* end) const {
    return std::any_of(held.begin(), held.end(), [&](const auto& c) { return begin < c.second && c.first < end; });
  }
};

Claims& claims() {
  static Claims all;
  return all;
}

}  // namespace

BufferClaim::BufferClaim(const void* data, std::size_t bytes)
    : begin_(static_cast<const char*>(data)), end_(begin_ + std::max<std::size_t>(bytes, 1)) {
  Claims& c = claims();
  std::unique_lock<std::mutex> lock(c.mutex);
  c.released.wait(lock, [&] { return !c.overlaps(begin_, end_); });
  c.held.emplace_back(begin_, end_);
}

BufferClaim::~BufferClaim() {
  Claims& c = claims();
  {
    const std::lock_guard<std::mutex> lock(c.mutex);
    c.held.erase(std::find(c.held.begin(), c.held.end(), std::make_pair(begin_, end_)));
  }
  c.released.notify_all();
}

}  // namespace heat::python
