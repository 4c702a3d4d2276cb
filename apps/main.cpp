#include <csignal>

#include "apps/commands.hpp"
#include "apps/ranks.hpp"

int main(int argc, char** argv) {
  // A write past the file size limit (ulimit -f) then fails with EFBIG, which the writers report
  // as a failed write (exit 3, their temporary file removed), instead of killing the process
  // with a half-written temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  heat::Ranks ranks(argc, argv);  // joins the MPI job under mpirun
  return heat::run_command_line(argc, argv);
}
