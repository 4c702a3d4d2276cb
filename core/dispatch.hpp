// Turns the run-time order into the compile-time radius that the stencil code is built for.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

namespace heat {

template <int R>
using Radius = std::integral_constant<int, R>;

// Calls f(Radius<order/2>{}) for order in {2, 4, 6, 8}.
template <typename F>
decltype(auto) with_radius(int order, F&& f) {
  switch (order) {
    case 2: return f(Radius<1>{});
    case 4: return f(Radius<2>{});
    case 6: return f(Radius<3>{});
    case 8: return f(Radius<4>{});
  }
  throw std::invalid_argument("order " + std::to_string(order) + " is not one of 2, 4, 6, 8");
}

}  // namespace heat
