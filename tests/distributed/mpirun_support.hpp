// What the tests of heatrk4 under mpirun share: a run on N ranks (under `timeout`, whose exit
// code 124 the tests name) and the comparison of two runs' snapshots.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "io/input_file.hpp"
#include "test_support.hpp"
#include "tests/bitwise.hpp"

namespace heat::test {

constexpr int kHangSeconds = 60;

// `heatrk4 args` on `ranks` ranks: without mpirun for one (a plain run), else under mpirun with
// its own session directory (concurrent OpenMPI 4 mpiruns collide in a shared one).
// `launcher`: a command between mpirun and heatrk4 (run by each rank).
inline CommandResult run_on(int ranks, const std::vector<std::string>& args, const std::string& environment = "",
                            const std::string& launcher = "") {
  std::string prefix = environment + " timeout -k 5 " + std::to_string(kHangSeconds);
  if (ranks > 1)
    prefix += " env " HEAT_MPI_TEST_ENV " TMPDIR=" + temp_directory("mpi-session") + " " + HEAT_MPIEXEC + " " +
              HEAT_MPIEXEC_FLAGS + " -np " + std::to_string(ranks) + " " + launcher;
  return run_heatrk4(args, prefix);
}

// A launcher for mpirun (run_on's `launcher`) that limits one rank's files to `bytes` and sets
// `environment` ("NAME=value ...") for it alone, the rank as OpenMPI's or a PMI launcher's
// variable says. OpenMPI's shared-memory transport would fail under the limit (its segment is a
// file), so the runs that use it talk over TCP.
inline std::string limit_files_of_rank(int rank, long bytes, const std::string& environment = "") {
  return "sh -c 'if [ \"${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-$PMIX_RANK}}\" = " + std::to_string(rank) +
         " ]; then trap \"\" XFSZ; exec env " + environment + " prlimit --fsize=" + std::to_string(bytes) +
         " \"$0\" \"$@\"; fi; exec \"$0\" \"$@\"'";
}

// The numbers of the JSON array `key` holds.
inline std::vector<long long> json_numbers(const std::string& json, const std::string& key) {
  std::vector<long long> numbers;
  std::size_t at = json.find("\"" + key + "\": [");
  if (at == std::string::npos) return numbers;
  at = json.find('[', at) + 1;
  const std::size_t end = json.find(']', at);
  long long value = 0;
  int consumed = 0;
  while (at < end && std::sscanf(json.c_str() + at, " %lld ,%n", &value, &consumed) >= 1 && consumed > 0) {
    numbers.push_back(value);
    at += std::size_t(consumed);
  }
  if (at < end && std::sscanf(json.c_str() + at, " %lld", &value) == 1) numbers.push_back(value);
  return numbers;
}

// Every .hdf snapshot in `a` is bitwise the one of the same name in `b` (materials.hdf's K and C
// too), the series files list the same snapshots and times, and `b` has no snapshot that `a` lacks.
inline void expect_same_snapshots(const std::string& a, const std::string& b, const std::string& label) {
  namespace fs = std::filesystem;
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(a)) {
    if (entry.path().extension() != ".hdf") continue;
    const std::string name = entry.path().filename().string();
    if (name == "materials.hdf") {
      for (const char* array : {"conductivity", "heat_capacity"})
        EXPECT_EQ(bitwise_differences(read_point_array((fs::path(b) / name).string(), array).values,
                                      read_point_array(entry.path().string(), array).values),
                  0)
            << label << " " << name << " " << array;
      continue;
    }
    const PointArray expected = read_point_array(entry.path().string(), "u");
    const PointArray got = read_point_array((fs::path(b) / name).string(), "u");
    EXPECT_EQ(got.stored_as_float, expected.stored_as_float) << label << " " << name;
    EXPECT_EQ(bitwise_differences(got.values, expected.values), 0) << label << " " << name;
    ++compared;
  }
  EXPECT_GE(compared, 2) << label;
  EXPECT_EQ(read_text(b + "/heat.hdf.series"), read_text(a + "/heat.hdf.series")) << label;
}

}  // namespace heat::test
