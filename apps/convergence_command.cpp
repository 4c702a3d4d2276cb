// Placeholder until validation/ lands.
#include "apps/commands.hpp"
#include "solver/errors.hpp"

namespace heat {
void add_convergence_command(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("convergence", "observed orders of accuracy in space and time");
  sub->callback([&action] { action = []() -> int { throw InputError("convergence is not in this build yet"); }; });
}
}  // namespace heat
