// Numbers written as a comma list in an option's value ("convective:H,T_INF", "--probe X,Y,Z").
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace heat {

// The comma-separated numbers of `text`; InputError(not_a_number(item)) for an item that is not a
// finite number (an empty one included).
std::vector<double> finite_comma_numbers(const std::string& text,
                                         const std::function<std::string(const std::string& item)>& not_a_number);

// The numbers of a "name:N1,N2,..." value (`text` is what follows the colon), comma separated;
// InputError naming `option`, the `whole` value and its `form` for text that is not `count` finite
// numbers. Shared by the conditions, the sources and --init uniform:T.
std::vector<double> parse_spec_numbers(const std::string& text, std::size_t count, const std::string& option,
                                       const std::string& whole, const char* form);

}  // namespace heat
