#include "core/comma_numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"

namespace heat {

std::vector<double> finite_comma_numbers(const std::string& text,
                                         const std::function<std::string(const std::string& item)>& not_a_number) {
  std::vector<double> numbers;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    char* stop = nullptr;
    const double value = item.empty() ? 0.0 : std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !std::isfinite(value)) throw InputError(not_a_number(item));
    numbers.push_back(value);
    begin = end + 1;
  }
  return numbers;
}

std::vector<double> parse_spec_numbers(const std::string& text, std::size_t count, const std::string& option,
                                       const std::string& whole, const char* form) {
  const std::vector<double> numbers = finite_comma_numbers(text, [&](const std::string& item) {
    return option + " " + shown_value(whole) + ": " + shown_value(item.empty() ? "(nothing)" : item) +
           " is not a finite number (the form is " + form + ")";
  });
  if (numbers.size() != count)
    throw InputError(option + " " + shown_value(whole) + " has " + std::to_string(numbers.size()) +
                     " numbers: the form is " + form);
  return numbers;
}

}  // namespace heat
