// What both Ranks implementations share: the process's Ranks.
#pragma once

#include "apps/ranks.hpp"

namespace heat {

void set_process_ranks(const Ranks* ranks);

}  // namespace heat
