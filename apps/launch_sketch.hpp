// What a command line asks of the process, read before MPI and CUDA start (main.cpp), so that the
// CUDA driver can start beside MPI_Init and a plain run can see its one GPU. It is read by the
// command line's own options (build_command_line), a --config file included, with no command run:
// there is no second list of which options take values.
#pragma once

#include <string>

namespace heat {

struct LaunchSketch {
  bool parsed = false;      // false where the line does not parse: the real parse reports why
  std::string command;      // run, backends, verify, compare or convergence
  std::string backend;      // the command's --backend, given or default; empty where it has none
  int device = 0;           // the command's --device, given or default

  // False where the process will use no GPU: compare, or a cpu backend (run and convergence).
  // True where the line does not parse: set-up started early costs little.
  bool may_take_a_gpu() const;
  // A run on CUDA device 0 (the default), which needs no other GPU to be visible.
  bool runs_on_device_zero() const;
};

LaunchSketch sketch_command_line(int argc, const char* const* argv);

// True for a process started without an MPI launcher whose command line is a run on device 0
// that may take a GPU, with CUDA_VISIBLE_DEVICES unset.
bool plain_run_on_the_default_gpu(const LaunchSketch& sketch);

}  // namespace heat
