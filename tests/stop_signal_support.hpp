// What the tests of a run stopped by SIGINT or SIGTERM share: a command started in the background
// (so the test can signal it while it runs), waited for with a deadline, and the checks that the
// run it stopped left its output consistent.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "io/series_files.hpp"
#include "test_support.hpp"
#include "check/shell_quote.hpp"

namespace heat::test {

// `prefix heatrk4 args`, its output to `log`, started in the background through sh, which execs
// the first word of `prefix` (or heatrk4): the returned pid is that program's, to signal it.
inline pid_t start_heatrk4(const std::vector<std::string>& args, const std::string& log,
                           const std::string& prefix = "") {
  std::string command = "exec " + prefix + " " + shell_quote(HEATRK4_EXE);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " >" + shell_quote(log) + " 2>&1";
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// How a child ended: "exit N" or "killed by signal N"; after `seconds`, "hung" (and it is killed).
inline std::string wait_for_end(pid_t pid, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
      return "killed by signal " + std::to_string(WTERMSIG(status));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return "hung";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Waits until `path` exists (false after `seconds`).
inline bool wait_for_file(const std::string& path, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!std::filesystem::exists(path))
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return true;
}

// The step a stopped run's JSON summary names, and the signal it says stopped it (-1: none said).
struct StopRecord {
  int final_step = -1, signal = -1;
};
inline StopRecord read_stop_record(const std::string& json_path) {
  std::ifstream in(json_path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  StopRecord record;
  std::smatch m;
  if (std::regex_search(text, m, std::regex("\"final_step\": (\\d+)"))) record.final_step = std::stoi(m[1]);
  if (std::regex_search(text, m, std::regex("\"stopped_by_signal\": (\\d+)"))) record.signal = std::stoi(m[1]);
  return record;
}

// A run of `steps` steps with a snapshot every `every` that a signal stopped at `stop_step`: the
// series lists the snapshots before the stop and none at it, exactly the .hdf files there (each
// with its ranks' slab files), and no temporary file is left.
inline void expect_output_of_a_stopped_run(const std::string& out, int stop_step, int steps, int every, int ranks) {
  namespace fs = std::filesystem;
  EXPECT_GT(stop_step, every) << "stopped before a second snapshot: the test signalled too early";
  EXPECT_LT(stop_step, steps) << "the run was not stopped";
  std::vector<std::string> listed, expected, on_disk;
  for (const auto& e : read_hdf_series_entries(out + "/heat.hdf.series")) listed.push_back(e.name);
  for (int step = 0; step < stop_step; step += every) expected.push_back(snapshot_name(step, "hdf"));
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "a temporary file is left: " << name;
    if (entry.path().extension() == ".hdf") on_disk.push_back(name);
  }
  std::sort(on_disk.begin(), on_disk.end());
  EXPECT_EQ(listed, expected) << "stopped after step " << stop_step;
  EXPECT_EQ(on_disk, expected) << "stopped after step " << stop_step;
  if (ranks > 1)
    for (int step = 0; step < stop_step; step += every)
      for (int rank = 0; rank < ranks; ++rank)
        EXPECT_TRUE(fs::exists(out + "/" + slab_file_name(step, rank, ranks))) << slab_file_name(step, rank, ranks);
}

}  // namespace heat::test
