#include "io/monitor_csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "io/safe_write.hpp"

namespace heat {
namespace {

// %.17g: a value read back is the value written, bit for bit.
std::string cell(double value) {
  if (std::isnan(value)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return buf;
}

}  // namespace

std::string monitor_csv_header(const std::vector<Probe>& probes) {
  std::string header = "step,time";
  for (const Probe& q : probes)
    header += ",probe(" + number_text(q.x) + " " + number_text(q.y) + " " + number_text(q.z) + ")";
  header += ",min,max,mean,total_heat";
  for (int face = 0; face < kFaces; ++face) {
    std::string name = std::string("heat_in_") + face_name(face);
    std::replace(name.begin(), name.end(), '-', '_');
    header += "," + name;
  }
  return header + "\n";
}

std::string monitor_csv_row(int step, double time, const MonitorValues& values) {
  std::string row = std::to_string(step) + "," + cell(time);
  for (double probe : values.probes) row += "," + cell(probe);
  for (double value : {values.min, values.max, values.mean, values.total_heat}) row += "," + cell(value);
  for (double rate : values.heat_in) row += "," + cell(rate);
  return row + "\n";
}

std::string monitor_rows_kept(const std::string& path, const std::string& header, int start_step) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  if (text.compare(0, header.size(), header) != 0)
    throw InputError(path + " holds monitors of other columns (its first line is not \"" +
                     header.substr(0, header.size() - 1) +
                     "\"): give this run the probes of the run it continues, or another --output");
  const auto columns = std::count(header.begin(), header.end(), ',');
  std::string kept = header;
  std::size_t at = header.size();
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos) break;  // a last line cut short
    const std::string line = text.substr(at, end - at + 1);
    at = end + 1;
    char* after = nullptr;
    const long step = std::strtol(line.c_str(), &after, 10);
    if (after == line.c_str() || *after != ',' || std::count(line.begin(), line.end(), ',') != columns) continue;
    if (step < start_step) kept += line;
  }
  return kept;
}

MonitorCsv::MonitorCsv(std::string path, std::string kept) : path_(std::move(path)), kept_(std::move(kept)) {}

MonitorCsv::~MonitorCsv() {
  if (fd_ >= 0) ::close(fd_);
}

void MonitorCsv::append(const std::string& row) {
  if (fd_ < 0) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
    write_text_file_safely(path_, kept_ + row);
    kept_.clear();
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd_ < 0) throw RunError("cannot open " + path_ + " to append monitors: " + std::strerror(errno));
    return;
  }
  write_all_to(fd_, row, path_);
}

}  // namespace heat
