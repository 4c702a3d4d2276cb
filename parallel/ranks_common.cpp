#include "parallel/ranks_common.hpp"

#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

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

// Each value the command line gives `option` (`--option VALUE` or `--option=VALUE`); an option
// last on the line, without its value, gives an empty one.
std::vector<std::string_view> values_of(std::string_view option, int argc, const char* const* argv) {
  std::vector<std::string_view> values;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == option)
      values.push_back(i + 1 < argc ? argv[i + 1] : "");
    else if (word.size() > option.size() && word.substr(0, option.size()) == option && word[option.size()] == '=')
      values.push_back(word.substr(option.size() + 1));
  }
  return values;
}

// The commands besides run; all but compare look for a GPU (verify and convergence step on one).
constexpr std::string_view kOtherCommands[] = {"backends", "verify", "compare", "convergence"};

bool names_command(int argc, const char* const* argv, std::string_view command) {
  for (int i = 1; i < argc; ++i)
    if (argv[i] == command) return true;
  return false;
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

bool command_line_may_take_a_gpu(int argc, const char* const* argv) {
  if (names_command(argc, argv, "compare")) return false;
  for (const std::string_view backend : values_of("--backend", argc, argv))
    if (backend == "cpu" || backend == "cpu_reference") return false;
  return true;
}

bool plain_run_on_the_default_gpu(int argc, const char* const* argv) {
  if (std::getenv("CUDA_VISIBLE_DEVICES") || started_by_mpi_launcher() || !command_line_may_take_a_gpu(argc, argv) ||
      !values_of("--config", argc, argv).empty())
    return false;
  for (const std::string_view command : kOtherCommands)
    if (names_command(argc, argv, command)) return false;
  for (const std::string_view device : values_of("--device", argc, argv))
    if (device != "0") return false;
  return true;
}

}  // namespace heat
