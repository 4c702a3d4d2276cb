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

}  // namespace heat
