#include "solver/distributed/ranks.hpp"
// What both Ranks implementations share: the process's Ranks.
#pragma once

namespace heat {

void set_process_ranks(const Ranks* ranks);

}  // namespace heat
