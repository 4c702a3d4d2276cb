// Error checking for every NCCL call: file, line, the call and NCCL's message, thrown as
// RunError (exit code 3).
#pragma once

#include <nccl.h>

#include <string>

#include "core/errors.hpp"

namespace heat {

[[noreturn]] inline void throw_nccl_error(ncclResult_t result, const char* expr, const char* file, int line) {
  throw RunError(std::string("NCCL error at ") + file + ":" + std::to_string(line) + ": " + expr + ": " +
                 ncclGetErrorString(result));
}

}  // namespace heat

#define HEAT_NCCL_CHECK(expr)                                                                                     \
  do {                                                                                                            \
    const ncclResult_t heat_nccl_status_ = (expr);                                                                \
    if (heat_nccl_status_ != ncclSuccess) ::heat::throw_nccl_error(heat_nccl_status_, #expr, __FILE__, __LINE__); \
  } while (0)
