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

  static std::string quote(const std::string& s) {
    std::ostringstream out;
    out << '"';
    for (unsigned char c : s) {
      if (c == '"' || c == '\\') out << '\\' << c;
      else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out << buf;
      } else out << c;
    }
    out << '"';
    return out.str();
  }

 private:
  JsonObject& raw(const std::string& key, const std::string& value) {
    body_ += (body_.empty() ? "" : ", ") + quote(key) + ": " + value;
    return *this;
  }
  std::string body_;
};

}  // namespace heat
