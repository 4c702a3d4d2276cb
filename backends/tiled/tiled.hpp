// The tiled backend's configurations, for the tests and the benchmark that iterate them. tiled.cu's
// DefaultOf holds the default of each order and precision (`heatrk4 backends` prints them): the
// only configurations a default build compiles (-DHEAT_WITH_TILED_SWEEP=ON builds the others too).
// A configuration is named "<kernels>/<tile x>x<tile y>/c2x<rows>[...]": "factors" runs the step's
// four passes (its two quadratic factors) one per kernel, "factor-pairs" a factor per kernel,
// "all4" Horner's four passes in one kernel, on output tiles of that size, each thread owning an x
// pair of columns in that many rows; for example "factors/64x16/c2x1/a2" (order 8 float's default)
// loads what a plane needs two planes ahead, and ".../tma2" has the copy engine bring each plane
// into shared memory two planes ahead of need.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "backends/registry.hpp"

namespace heat {

// The configurations built for an order and precision (empty for an unsupported order).
std::vector<std::string> tiled_configurations(int order, Precision precision);

// The configuration that the registry's "tiled" uses for an order and precision.
std::string tiled_default_configuration(int order, Precision precision);
// The one it uses where a face's condition is not layer: single passes, each operand's ghosts
// filled before the pass reads them (the default itself where it runs single passes).
std::string tiled_boundary_configuration(int order, Precision precision);
// Whether a rank's box steps its interior while its ghost planes travel (BackendEntry::halo_overlap).
HaloOverlap tiled_halo_overlap(int order);

// A tiled backend with the named configuration; InputError if it is not built for the order, or
// if it applies the operator more than once per launch and a face of `problem` is not layer.
// `exchange` as for BackendEntry::make: null for a grid alone.
template <typename T>
std::unique_ptr<Backend<T>> make_tiled_backend(const Problem& problem, const BackendOptions& options,
                                               const std::string& configuration, HaloExchange<T>* exchange = nullptr);

// A registry-style entry named "tiled:<configuration>" that builds that configuration, with
// its own byte model, so the benchmark can sweep configurations like backends.
BackendEntry tiled_configuration_entry(const std::string& configuration);

}  // namespace heat
