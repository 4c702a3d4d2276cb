// One step at a time on the same memory: heatrk4.step reads an array, steps a copy (or the array
// itself on a device) and writes it back, so two threads stepping the same array (or overlapping
// views of it) at once would each start from the same field and one's steps would be lost. A
// step claims its array's bytes and waits, without the GIL, while another step holds any of them.
#pragma once

#include <cstddef>

namespace heat::python {

class BufferClaim {
 public:
  BufferClaim(const void* data, std::size_t bytes);  // waits for overlapping claims to end
  ~BufferClaim();
  BufferClaim(const BufferClaim&) = delete;
  BufferClaim& operator=(const BufferClaim&) = delete;

 private:
  const char* begin_;
  const char* end_;
};

}  // namespace heat::python
