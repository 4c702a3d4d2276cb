#include "apps/option_values.hpp"

#include <algorithm>
#include <regex>
#include <string>

namespace heat {
namespace {

enum class NumberKind { None, Integer, Unsigned, Fraction };

// From the type name CLI11 shows in --help ("INT", "UINT", "FLOAT", "[INT,INT,INT]"), before the
// descriptions of the option's own checks (":NUMBER >= 0").
NumberKind number_kind(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::string base = type.substr(0, type.find(':'));
  if (base.find("UINT") != std::string::npos) return NumberKind::Unsigned;
  if (base.find("INT") != std::string::npos) return NumberKind::Integer;
  if (base.find("FLOAT") != std::string::npos) return NumberKind::Fraction;
  return NumberKind::None;
}

std::string integer_problem(const std::string& text, bool may_be_negative) {
  const std::size_t sign = may_be_negative && !text.empty() && text.front() == '-' ? 1 : 0;
  const std::string digits = text.substr(sign);
  const bool all_digits = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
  if (all_digits && (digits.size() == 1 || digits.front() != '0')) return "";
  if (all_digits) {
    const std::string decimal = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    return text + " has a leading zero, which can mean octal: write " + text.substr(0, sign) + decimal;
  }
  return text + " is not a whole number in decimal digits" + (may_be_negative ? "" : " from 0 up") +
         ": write it in decimal digits, such as 16 (not 0x10, 020, 1e1, 1_000 or true)";
}

std::string fraction_problem(const std::string& text) {
  static const std::regex decimal("-?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  if (std::regex_match(text, decimal)) return "";
  return text + " is not a decimal number: write it as, say, 0.05, 2 or 1e-3 (not hex such as 0x1p3, nor nan or inf)";
}

// No description: the checks add nothing to the type --help shows.
CLI::Validator plain_check(NumberKind kind) {
  return CLI::Validator(
      [kind](std::string& text) -> std::string {
        switch (kind) {
          case NumberKind::Integer: return integer_problem(text, true);
          case NumberKind::Unsigned: return integer_problem(text, false);
          case NumberKind::Fraction: return fraction_problem(text);
          case NumberKind::None: break;
        }
        return "";
      },
      "");
}

CLI::Validator not_empty_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "the value is empty: give one, or leave the option out" : "";
      },
      "");
}

}  // namespace

void require_plain_values(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_expected_max() == 0) continue;  // a flag
    const NumberKind kind = number_kind(*option);
    // The option's own check (a tolerance, a seed) says more than these of a value it refuses;
    // emptiness, which it may not look for, first of all (transform puts it at the front).
    if (kind != NumberKind::None) option->check(plain_check(kind));
    option->transform(not_empty_check());
  }
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) require_plain_values(*command);
}

}  // namespace heat
