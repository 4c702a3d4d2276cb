// The tiled backend's tile configurations, for the tests and the benchmark that iterate them.
// A fused configuration is named "<grouping>/<region x>x<region y>/m<columns per thread>[b<blocks>]",
// for example "2+2/64x32/m2": stages 1-2 fused in one kernel and 3-4 in a second, each block
// streaming a 64 x 32 region of columns (its output tile plus the halo) along z, each thread
// owning two columns; "b2" asks the compiler to fit two blocks per SM. "4" as the grouping means
// all four stages fused in one kernel. "horner/<tile x>x<tile y>/c2x<rows>" runs the step as the
// four passes of its Horner form (solver/linear_stages.cuh), one 2.5D kernel each, on output tiles
// of that size, each thread owning an x pair of columns in that many rows; "pairs/..." runs those
// passes two per kernel (solver/paired_passes.cuh).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/backend.hpp"
#include "solver/registry.hpp"

namespace heat {

// The configurations built for an order and precision (empty for an unsupported order).
std::vector<std::string> tiled_configurations(int order, Precision precision);

// The configuration that the registry's "tiled" uses for an order and precision.
std::string tiled_default_configuration(int order, Precision precision);

// A tiled backend with the named configuration; InputError if it is not built for the order.
template <typename T>
std::unique_ptr<Backend<T>> make_tiled_backend(const Problem& problem, const BackendOptions& options,
                                               const std::string& configuration);

// A registry-style entry named "tiled:<configuration>" that builds that configuration, with
// its own byte model, so the benchmark can sweep configurations like backends.
BackendEntry tiled_configuration_entry(const std::string& configuration);

}  // namespace heat
