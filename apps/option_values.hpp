// The text every option's value must be, alike for every command and for a --config file.
// CLI11 reads an integer with C's base detection (010 is eight, 0x10 sixteen; 2.4 also takes
// 0b101, 0o17, 1_000 and "true"), a number with a fraction with strtod (0x1p3, nan, inf), and an
// empty value as 0 or as "not given". heatrk4 takes decimal text only and refuses an empty value,
// so that a value means what it reads as and a mistyped one is exit 2, naming the option.
#pragma once

#include <CLI/CLI.hpp>
#include <climits>
#include <cstddef>

namespace heat {

// The longest value of any option: the longest path.
constexpr std::size_t kMaxValueBytes = PATH_MAX;

// How an option's value is read, from the type name CLI11 shows in --help ("INT", "UINT", "FLOAT",
// "[INT,INT,INT]"): a whole number, one from 0 up, one that may have a fraction, or text.
enum class NumberKind { None, Integer, Unsigned, Fraction };
NumberKind number_kind(const CLI::Option& option);

// Adds the checks to every option of `app` and of its subcommands that takes a value, by the type
// CLI11 reads it as: an integer is "-"? and decimal digits without a leading zero ("0" alone is
// zero; unsigned: no "-"); a number with a fraction is decimal, with an optional exponent (0.05,
// -2, 1e-3); any value is not empty and at most kMaxValueBytes. Call it once the options are all
// added.
void require_plain_values(CLI::App& app);

// "X is not a decimal number: write it as ...", of the value shown as `shown` (nan, 0x1p3).
std::string not_a_decimal_number(const std::string& shown);
// What is wrong with a text value, alike from every route: empty, longer than kMaxValueBytes or
// holding a NUL (which only a file or a caller can give); "" where nothing is.
std::string text_value_problem(const std::string& text);

}  // namespace heat
