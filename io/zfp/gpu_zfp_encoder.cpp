#include "io/zfp/gpu_zfp_encoder.hpp"

#include <atomic>

namespace heat {

namespace {
// Set by the run's thread before its writer thread starts, read by the writer.
std::atomic<GpuZfpEncoder*> lent_encoder{nullptr};
}  // namespace

GpuZfpEncoder* snapshot_zfp_encoder() { return lent_encoder.load(); }

SnapshotEncoderScope::SnapshotEncoderScope(std::unique_ptr<GpuZfpEncoder> encoder) : encoder_(std::move(encoder)) {
  lent_encoder.store(encoder_.get());
}

SnapshotEncoderScope::~SnapshotEncoderScope() { lent_encoder.store(nullptr); }

}  // namespace heat
