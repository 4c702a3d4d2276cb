#include "parallel/ranks_common.hpp"

#include <cstdlib>
#include <utility>

namespace heat {

namespace {

const Ranks* the_process_ranks = nullptr;

// The environment variable's value as a number from 0, or none.
std::optional<int> whole_number(const char* variable) {
  const char* text = std::getenv(variable);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 0 || value > 1 << 30) return std::nullopt;
  return int(value);
}

}  // namespace

bool started_by_mpi_launcher() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(variable)) return true;
  return false;
}

std::optional<int> launcher_local_rank_of_several() {
  for (const auto& [size_variable, local_rank_variable] :
       {std::pair{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"}, std::pair{"PMI_SIZE", "MPI_LOCALRANKID"}}) {
    const std::optional<int> size = whole_number(size_variable), local_rank = whole_number(local_rank_variable);
    if (size && local_rank && *size > 1 && *local_rank < *size) return local_rank;
  }
  return std::nullopt;
}

void set_process_ranks(const Ranks* ranks) { the_process_ranks = ranks; }

const Ranks& process_ranks() {
  static const Ranks single;
  return the_process_ranks ? *the_process_ranks : single;
}

}  // namespace heat
