#include "test_support.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <random>

#include "backends/registry.hpp"
#include "check/shell_quote.hpp"

namespace heat::test {


CommandResult run_heatrk4(const std::vector<std::string>& args, const std::string& prefix) {
  std::string cmd = prefix + " " + shell_quote(HEATRK4_EXE);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " 2>&1";
  CommandResult result;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return result;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) result.output += buf;
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::vector<std::string> cuda_backend_names() {
  std::vector<std::string> names;
  for (const auto& e : default_registry().entries())
    if (e.uses_cuda) names.push_back(e.name);
  return names;
}

std::string temp_directory(const std::string& tag) {
  namespace fs = std::filesystem;
  static std::vector<fs::path> made;
  static const struct Cleanup {
    ~Cleanup() {
      std::error_code ec;
      for (const auto& p : made) fs::remove_all(p, ec);
    }
  } cleanup;
  std::random_device rd;
  fs::path p = fs::temp_directory_path() / ("heatrk4-" + tag + "-" + std::to_string(rd()));
  fs::create_directories(p);
  made.push_back(p);
  return p.string();
}

}  // namespace heat::test
