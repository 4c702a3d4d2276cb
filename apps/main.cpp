#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "apps/commands.hpp"
#include "apps/launch_sketch.hpp"
#include "parallel/ranks.hpp"
#include "core/errors.hpp"

namespace {

// Why standard output, whose stream has failed, cannot be written: the failed write's errno is
// long overwritten by then, so one byte more (the output is incomplete already) finds it again.
std::string standard_output_failure() {
  if (::write(STDOUT_FILENO, "\n", 1) < 0) return std::strerror(errno);
  return "an earlier write to it failed";
}

}  // namespace

int main(int argc, char** argv) {
  // A write past the file size limit (ulimit -f) then fails with EFBIG, which the writers report
  // as a failed write (exit 3, their temporary file removed), instead of killing the process
  // with a half-written temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  // A closed pipe on standard output or error (`heatrk4 | head -1`) makes a write fail with EPIPE
  // instead of killing the run midway with its lock and snapshots unfinished: the run goes on, a
  // progress or note line is lost, and the summary that cannot be written is exit 3 (below).
  std::signal(SIGPIPE, SIG_IGN);
  // The GPU code is loaded when the CUDA context is made (set-up), not at each kernel's first
  // launch inside the timed steps, where a short run's compute time would count it. A value the user set is kept.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  // CUDA's start takes every visible GPU in turn: on a 4-GPU node 1.0 s, against 0.29 s with one
  // visible. A plain run on device 0, the default, sees GPU 0 alone where the user left the
  // visible GPUs unset; it is device 0 either way.
  const heat::LaunchSketch launch = heat::sketch_command_line(argc, argv);
  if (heat::plain_run_on_the_default_gpu(launch)) setenv("CUDA_VISIBLE_DEVICES", "0", 0);
  heat::Ranks ranks(argc, argv, launch.may_take_a_gpu());  // joins the MPI job under mpirun
  const int exit_code = heat::run_command_line(argc, argv);
  // The summary, a table or the help went to stdout: a full disk or a closed pipe there is a
  // failed run (exit 3), not a success whose output was lost.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "heatrk4: cannot write to standard output: %s\n", standard_output_failure().c_str());
    return exit_code == 0 ? heat::exit_code::run_failure : exit_code;
  }
  return exit_code;
}
