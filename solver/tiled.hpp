// The tiled backend's tile configurations, for the tests and the benchmark that iterate them.
// A configuration is named "<grouping>/<tile x>x<tile y>/m<items per thread>", for example
// "1+3/32x16/m2": stage 1 in one kernel and stages 2-4 fused in a second, on 32x16 output tiles,
// each thread owning two 16-byte vectors per stage. "4" as the grouping means all four stages
// fused in one kernel.
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
