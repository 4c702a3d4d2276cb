#include "apps/commands.hpp"
#include "apps/ranks.hpp"

int main(int argc, char** argv) {
  heat::Ranks ranks(argc, argv);  // joins the MPI job under mpirun
  return heat::run_command_line(argc, argv);
}
