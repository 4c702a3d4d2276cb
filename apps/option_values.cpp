#include "apps/option_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"

namespace heat {

// The type name's part before the descriptions of the option's own checks (":NUMBER >= 0").
NumberKind number_kind(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::string base = type.substr(0, type.find(':'));
  if (base.find("UINT") != std::string::npos) return NumberKind::Unsigned;
  if (base.find("INT") != std::string::npos) return NumberKind::Integer;
  if (base.find("FLOAT") != std::string::npos) return NumberKind::Fraction;
  return NumberKind::None;
}

namespace {

// Whether the decimal digits `digits` (no leading zero) name a number above `largest`'s.
bool above(const std::string& digits, const std::string& largest) {
  return digits.size() != largest.size() ? digits.size() > largest.size() : digits > largest;
}

// `largest`: the type's largest value in digits; a negative value may reach one more.
std::string integer_problem(const std::string& text, bool may_be_negative, const std::string& largest) {
  const std::size_t sign = may_be_negative && !text.empty() && text.front() == '-' ? 1 : 0;
  const std::string digits = text.substr(sign);
  const bool all_digits = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
  if (all_digits && (digits.size() == 1 || digits.front() != '0')) {
    const std::string limit = sign ? std::to_string(std::stoull(largest) + 1) : largest;
    if (!above(digits, limit)) return "";
    return shown_value(text) + " is out of range: the " + (sign ? "smallest value is -" : "largest value is ") + limit;
  }
  if (all_digits) {
    const std::string decimal = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    return shown_value(text) + " has a leading zero, which can mean octal: write " +
           shown_value(text.substr(0, sign) + decimal);
  }
  return shown_value(text) + " is not a whole number in decimal digits" + (may_be_negative ? "" : " from 0 up") +
         ": write it in decimal digits, such as 16 (not 0x10, 020, 1e1, 1_000 or true)";
}

// -?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?, scanned once: std::regex recurses per
// character and overflows the stack on a value of some 100,000 digits.
bool is_decimal_number(const std::string& text) {
  std::size_t at = 0;
  const auto skip = [&text, &at](char one, char other) {
    at += at < text.size() && (text[at] == one || text[at] == other);
  };
  const auto digits = [&text, &at] {
    const std::size_t begin = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    return at - begin;
  };
  skip('-', '-');
  std::size_t mantissa = digits();
  if (at < text.size() && text[at] == '.') ++at, mantissa += digits();
  if (mantissa == 0) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    skip('+', '-');
    if (digits() == 0) return false;
  }
  return at == text.size();
}

std::string fraction_problem(const std::string& text) {
  if (is_decimal_number(text)) {
    // A double holds it: not one that would read as inf, nor a non-zero one that would read as 0.
    const double value = std::strtod(text.c_str(), nullptr);
    if (std::isinf(value)) return shown_value(text) + " is out of range: the largest number is 1.7e308";
    const std::string mantissa = text.substr(0, text.find_first_of("eE"));
    if (value == 0 && mantissa.find_first_of("123456789") != std::string::npos)
      return shown_value(text) + " is too small to tell from 0: the smallest number is 4.9e-324";
    return "";
  }
  return not_a_decimal_number(shown_value(text));
}

// No description: the checks add nothing to the type --help shows. `wide`: a 64-bit integer.
CLI::Validator plain_check(NumberKind kind, bool wide) {
  const std::string largest = kind == NumberKind::Unsigned ? (wide ? "18446744073709551615" : "4294967295")
                                                            : (wide ? "9223372036854775807" : "2147483647");
  return CLI::Validator(
      [kind, largest](std::string& text) -> std::string {
        switch (kind) {
          case NumberKind::Integer: return integer_problem(text, true, largest);
          case NumberKind::Unsigned: return integer_problem(text, false, largest);
          case NumberKind::Fraction: return fraction_problem(text);
          case NumberKind::None: break;
        }
        return "";
      },
      "");
}

// Not empty, and no longer than the longest path (PATH_MAX): no value heatrk4 takes is longer, and
// a megabyte of text is refused here, before any message or file name can carry it.
CLI::Validator value_length_check() {
  return CLI::Validator(
      [](std::string& text) { return text_value_problem(text); }, "");
}

}  // namespace

std::string not_a_decimal_number(const std::string& shown) {
  return shown + " is not a decimal number: write it as, say, 0.05, 2 or 1e-3 (not hex such as 0x1p3, nor nan or inf)";
}

std::string text_value_problem(const std::string& text) {
  if (text.empty()) return "the value is empty: give one, or leave the option out";
  if (text.size() > kMaxValueBytes)
    return shown_value(text) + " is longer than " + std::to_string(kMaxValueBytes) +
           " bytes (PATH_MAX), the longest value heatrk4 takes";
  if (text.find('\0') != std::string::npos) return "the value holds a NUL character (\\u0000), which no option value can";
  return "";
}

void require_plain_values(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_expected_max() == 0) continue;  // a flag
    const NumberKind kind = number_kind(*option);
    // The option's own check (a tolerance, a seed) says more than these of a value it refuses;
    // the length, which it may not look at, first of all (transform puts it at the front).
    if (kind != NumberKind::None) option->check(plain_check(kind, option->get_type_name().find("64") != std::string::npos));
    option->transform(value_length_check());
  }
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) require_plain_values(*command);
}

}  // namespace heat
