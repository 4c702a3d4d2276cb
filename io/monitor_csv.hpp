// The run's monitors as a CSV file (docs/design.md §4, "Monitors"): a row of core/monitors.hpp's
// values at each monitored step, appended as the run goes. A restart continues the file.
#pragma once

#include <string>
#include <vector>

#include "core/monitors.hpp"

namespace heat {

// "monitors.csv": the file's name in the run's output directory.
inline const char* const kMonitorFileName = "monitors.csv";

// The header line: step, time, a column per probe, min, max, mean, total_heat, then heat_in_x_low
// ... heat_in_z_high.
std::string monitor_csv_header(const std::vector<Probe>& probes);
// One row; a face without a heat rate (layer) an empty cell. Numbers to 17 digits.
std::string monitor_csv_row(int step, double time, const MonitorValues& values);

// The lines of an existing file a restart from `start_step` keeps (header included): its rows
// before that step, none cut short. InputError naming the file where its header is not `header`
// (other probes: a restart cannot continue it) or a row does not read; "" where there is no file.
std::string monitor_rows_kept(const std::string& path, const std::string& header, int start_step);

// Writes one run's rows. The file takes its first row safely (written whole under a temporary
// name with what it keeps, then renamed over an earlier file), so a run that fails before its
// first row changes nothing; later rows are appended and flushed one by one, so a run that is
// killed leaves every row it wrote (and at most one line cut short, which a restart drops).
class MonitorCsv {
 public:
  // `kept`: what the file starts with (monitor_rows_kept, or the header alone).
  MonitorCsv(std::string path, std::string kept);
  ~MonitorCsv();
  MonitorCsv(const MonitorCsv&) = delete;
  MonitorCsv& operator=(const MonitorCsv&) = delete;
  // Throws RunError naming the file when it cannot be written.
  void append(const std::string& row);
  const std::string& path() const { return path_; }

 private:
  std::string path_, kept_;
  int fd_ = -1;
};

}  // namespace heat
