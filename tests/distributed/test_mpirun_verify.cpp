// heatrk4 verify under mpirun on z slabs and on rank grids (docs/design.md §7): every case of the
// cpu backends passes, the boundary, source and material rows included, each box filling its own
// faces and the boxes gathered into the whole field on rank 0; so does every row of the CUDA
// backends on GPU ranks sharing one GPU (skipped without one); a --ranks-grid that does not fit
// the ranks is exit 2 before any case runs.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/gpu_info.hpp"
#include "check/boundary_cases.hpp"
#include "check/material_cases.hpp"
#include "mpirun_support.hpp"

namespace heat {
namespace {

using test::run_on;

// The result words verify printed for each (backend, case, precision) of its condition table: a
// row's "pass" or "FAIL", "skip" where every order was refused, "orders" where some were.
std::map<std::string, std::vector<std::string>> condition_results(const std::string& output) {
  std::map<std::string, std::vector<std::string>> results;
  std::istringstream lines(output.substr(output.find("conditions:")));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string backend, faces, precision, result;
    if (words >> backend >> faces >> precision >> result)
      results[backend + " " + faces + " " + precision].push_back(result);
  }
  return results;
}

// The names of verify's condition rows: each boundary case, the radiation case, each source case
// with "+source", and each of those with each material case.
std::vector<std::string> condition_row_names() {
  std::vector<std::string> names;
  for (const BoundaryCase& faces : boundary_cases()) names.push_back(faces.name);
  names.push_back(radiation_case().name);
  for (const BoundaryCase& faces : source_cases()) names.push_back(std::string(faces.name) + "+source");
  const Grid any{5, 5, 5};
  for (const MaterialCase& fields : material_cases(any, 1))
    for (const BoundaryCase& faces : source_cases())
      names.push_back(std::string(faces.name) + "+source+" + fields.name);
  return names;
}

// verify on `ranks` ranks laid out by --ranks-grid `rank_grid`: exit 0, and each condition row of
// cpu and cpu_reference ran (not skipped, no order left out) and passed, in both precisions.
void expect_every_cpu_row_passes(int ranks, const std::string& rank_grid) {
  // 40 points a side: the main matrix's boxes leave GPU ranks their 16 ghost points at order 8
  // where there are GPUs (the condition rows' grid widens itself for them).
  const auto result =
      run_on(ranks, {"verify", "--n", "40", "--steps", "2", "--ranks-grid", rank_grid, "--halo-exchange", "host"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("on " + std::to_string(ranks) + " rank(s), --ranks-grid " + rank_grid),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("FAIL"), std::string::npos) << result.output;
  ASSERT_NE(result.output.find("conditions:"), std::string::npos) << result.output;
  const auto results = condition_results(result.output);
  for (const std::string backend : {"cpu", "cpu_reference"})
    for (const std::string& name : condition_row_names())
      for (const std::string precision : {"float", "double"}) {
        const std::string row = backend + " " + name + " " + precision;
        const auto found = results.find(row);
        ASSERT_NE(found, results.end()) << row << " did not run:\n" << result.output;
        EXPECT_EQ(found->second, std::vector<std::string>{"pass"}) << row << ":\n" << result.output;
      }
}

TEST(MpirunVerify, EveryCpuRowPassesOnTwoSlabs) { expect_every_cpu_row_passes(2, "slabs"); }
TEST(MpirunVerify, EveryCpuRowPassesOnTwoByOneByOne) { expect_every_cpu_row_passes(2, "2x1x1"); }
TEST(MpirunVerify, EveryCpuRowPassesOnOneByTwoByOne) { expect_every_cpu_row_passes(2, "1x2x1"); }
TEST(MpirunVerify, EveryCpuRowPassesOnTwoByTwoByOne) { expect_every_cpu_row_passes(4, "2x2x1"); }

// The condition rows' cases, each with whether its x or y faces are periodic (which GPU ranks
// refuse to split: design.md §7).
std::vector<std::pair<std::string, bool>> condition_rows_with_periodic_plane() {
  const auto periodic_plane = [](const Boundaries& faces) {
    for (int face = 0; face < 4; ++face)
      if (faces[std::size_t(face)].kind == BoundaryKind::Periodic) return true;
    return false;
  };
  std::vector<std::pair<std::string, bool>> rows;
  for (const BoundaryCase& faces : boundary_cases()) rows.emplace_back(faces.name, periodic_plane(faces.faces));
  rows.emplace_back(radiation_case().name, periodic_plane(radiation_case().faces));
  for (const BoundaryCase& faces : source_cases())
    rows.emplace_back(std::string(faces.name) + "+source", periodic_plane(faces.faces));
  const Grid any{5, 5, 5};
  for (const MaterialCase& fields : material_cases(any, 1))
    for (const BoundaryCase& faces : source_cases())
      rows.emplace_back(std::string(faces.name) + "+source+" + fields.name, periodic_plane(faces.faces));
  return rows;
}

// GPU ranks sharing the machine's GPU on 2x2x1: verify passes, and each CUDA backend's condition
// rows ran (the grid widened for their ghosts), but where a periodic x or y is split, which is
// refused by name.
TEST(MpirunVerify, EveryGpuRowPassesOnTwoByTwoByOne) {
  HEAT_REQUIRE_GPU();
  const auto result = run_on(4, {"verify", "--n", "40", "--steps", "2", "--ranks-grid", "2x2x1", "--halo-exchange", "host"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.find("FAIL"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("conditions: 40 x 40 x 19 points"), std::string::npos) << result.output;
  const auto results = condition_results(result.output);
  for (const std::string backend : {"naive", "reuse", "tiled"})
    for (const auto& [name, periodic_plane] : condition_rows_with_periodic_plane())
      for (const std::string precision : {"float", "double"}) {
        const std::string row = backend + " " + name + " " + precision;
        const auto found = results.find(row);
        ASSERT_NE(found, results.end()) << row << " did not run:\n" << result.output;
        EXPECT_EQ(found->second.front(), periodic_plane ? "skip" : "pass") << row << ":\n" << result.output;
      }
}

TEST(MpirunVerify, AGridOfOtherRanksIsExit2BeforeAnyCase) {
  const auto result = run_on(2, {"verify", "--n", "40", "--steps", "2", "--ranks-grid", "2x2x1"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--ranks-grid 2x2x1 lays out 4 ranks, but the run has 2"), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("pass"), std::string::npos) << "verify ran:\n" << result.output;
}

}  // namespace
}  // namespace heat
