// A --config file as TOML (toml++): each top-level key with its line and its value as TOML typed
// it, in the file's order. What the keys mean to heatrk4 is config_file.cpp's to judge.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace heat {

// One value, typed, and its text for messages: a string decoded (escapes and all); an integer in
// decimal digits, whichever base the file wrote it in; a float as the shortest decimal text that
// reads back as the same double ("nan" and "inf" as such); a boolean "true" or "false"; for Other,
// what it is ("an array", "a table", "a date").
struct TomlValue {
  enum class Type { String, Integer, Float, Boolean, Other };
  Type type = Type::Other;
  std::string text;
  std::int64_t integer = 0;  // an Integer's value
  double number = 0;         // a Float's value
  bool boolean = false;      // a Boolean's value
};

struct TomlKey {
  std::string key;
  int line = 0;
  bool array = false;             // `values` are the array's items
  bool table = false;             // a [section], a dotted key (a.b = 1) or an inline table: no values
  std::vector<TomlValue> values;  // one unless `array`
  std::vector<TomlKey> members;   // a table's keys, ordered by line (read to a depth of two tables)
};

// "--config FILE line N: what" (`option` for --config).
std::string placed_in_config(const std::string& file, int line, const std::string& what,
                             const std::string& option = "--config");

// The top-level keys of `text`, ordered by line. Throws InputError naming the file, the line and
// the column where `text` is not TOML (a duplicate key, an unclosed string, True for true), or the
// line of a byte that is not text or of a non-ASCII character that toml++ 3.3 cannot read safely.
// `option` names the file in the messages ("--config", "--materials").
std::vector<TomlKey> read_toml_keys(const std::string& text, const std::string& file,
                                    const std::string& option = "--config");

}  // namespace heat
