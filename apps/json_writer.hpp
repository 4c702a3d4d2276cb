// A minimal JSON object writer for the run summary: flat keys, numbers, strings and nested
// objects, enough for --json without a dependency the GPU machine lacks.
#pragma once

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace heat {

class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  JsonObject& add(const std::string& key, const char* value) { return raw(key, quote(value)); }
  JsonObject& add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  JsonObject& add(const std::string& key, double value) {
    if (!std::isfinite(value)) return raw(key, "null");
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    return raw(key, buf);
  }
  JsonObject& add(const std::string& key, long long value) { return raw(key, std::to_string(value)); }
  JsonObject& add(const std::string& key, unsigned long long value) { return raw(key, std::to_string(value)); }
  JsonObject& add(const std::string& key, int value) { return raw(key, std::to_string(value)); }
  JsonObject& add(const std::string& key, const JsonObject& value) { return raw(key, value.str()); }
  JsonObject& add(const std::string& key, const std::vector<std::string>& values) {
    std::string list;
    for (const auto& v : values) list += (list.empty() ? "" : ", ") + quote(v);
    return raw(key, "[" + list + "]");
  }
  JsonObject& add(const std::string& key, const std::vector<long long>& values) {
    std::string list;
    for (long long v : values) list += (list.empty() ? "" : ", ") + std::to_string(v);
    return raw(key, "[" + list + "]");
  }
  std::string str() const { return "{" + body_ + "}"; }

  // JSON text is UTF-8: a byte that begins no valid UTF-8 sequence (a path's raw bytes) is written
  // as U+FFFD, the replacement character, so the file stays JSON that any reader takes.
  static std::string quote(const std::string& s) {
    std::ostringstream out;
    out << '"';
    for (std::size_t i = 0; i < s.size();) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      const std::size_t length = utf8_length_at(s, i);
      if (length == 0) {
        out << "\\ufffd";
        ++i;
        continue;
      }
      if (c == '"' || c == '\\') out << '\\' << c;
      else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out << buf;
      } else out << s.substr(i, length);
      i += length;
    }
    out << '"';
    return out.str();
  }

 private:
  // The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong form, no
  // surrogate, nothing past U+10FFFF), or 0.
  static std::size_t utf8_length_at(const std::string& s, std::size_t i) {
    const auto byte = [&s](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
    const unsigned c = byte(i);
    if (c < 0x80) return 1;
    const std::size_t length = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (length == 0) return 0;
    for (std::size_t k = 1; k < length; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return 0;
    const unsigned second = byte(i + 1);
    if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) || (c == 0xF0 && second < 0x90) ||
        (c == 0xF4 && second > 0x8F))
      return 0;
    return length;
  }

  JsonObject& raw(const std::string& key, const std::string& value) {
    body_ += (body_.empty() ? "" : ", ") + quote(key) + ": " + value;
    return *this;
  }
  std::string body_;
};

}  // namespace heat
