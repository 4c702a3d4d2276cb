#include <cudaTypedefs.h>

#include <cstdint>
#include <string>

#include "backends/cuda/cuda_check.cuh"
#include "backends/tiled/plane_copies.hpp"

namespace heat {

bool plane_copies_possible(const Grid& g, std::size_t value_bytes, int device) {
  int major = 0;
  HEAT_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9 && (std::size_t(g.nx) * value_bytes) % 16 == 0;
}

namespace {

// The driver's encoder, through the runtime, so that the build links no driver library (CI has
// none, and the CPU backends must run there).
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  HEAT_CUDA_CHECK(
      cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || function == nullptr)
    throw RunError("this CUDA driver has no cuTensorMapEncodeTiled (plane copies need CUDA 12 or later)");
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
}

}  // namespace

CUtensorMap plane_box_map(const void* field, std::size_t value_bytes, const Grid& g, int box_x, int box_y) {
  CUtensorMap map{};
  const cuuint64_t dims[3] = {cuuint64_t(g.nx), cuuint64_t(g.ny), cuuint64_t(g.nz)};
  const cuuint64_t strides[2] = {cuuint64_t(g.nx) * value_bytes, cuuint64_t(g.nx) * cuuint64_t(g.ny) * value_bytes};
  const cuuint32_t box[3] = {cuuint32_t(box_x), cuuint32_t(box_y), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult status = tensor_map_encoder()(
      &map, value_bytes == sizeof(float) ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3,
      const_cast<void*>(field), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
  if (status != CUDA_SUCCESS)
    throw RunError("cuTensorMapEncodeTiled refused a " + std::to_string(box_x) + " x " + std::to_string(box_y) +
                   " box of a " + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " + std::to_string(g.nz) +
                   " grid (CUresult " + std::to_string(int(status)) + ")");
  return map;
}

}  // namespace heat
