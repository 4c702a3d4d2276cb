// Quoting for POSIX sh: the validation tools and the tests build command lines for popen/system.
#pragma once

#include <string>

namespace heat {

// s in single quotes, each ' written as '\'' so the shell passes s through unchanged.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// s as one shell word: unchanged when the shell would take it as it is, else quoted.
inline std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                       "0123456789_./=:,+@%-") == std::string::npos;
  return plain ? s : shell_quote(s);
}

}  // namespace heat
