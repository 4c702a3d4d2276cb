// The one CUDA device a process computes on, and the one place where its context is started,
// chosen and given back. What works on the device (a backend, an exchange, the GPU encoder) is
// handed the chosen ordinal and makes it current on the threads it runs on (cudaSetDevice: CUDA
// keeps the current device per thread); none of them starts a context or gives one back. Plain
// C++, so that apps and parallel/ need no nvcc.
#pragma once

namespace heat {

class ProcessGpu {
 public:
  // Starts `device`'s context before the run knows that it takes it (a rank's GPU, before MPI's
  // start: the slowest part of a rank's set-up). Never throws: an error shows again, reported,
  // when the device is chosen.
  void start_early(int device);
  // Takes `device` for the run and makes it current on this thread; a context started early on
  // another device is given back first. InputError where the device is not there.
  void choose(int device);
  // Gives back the chosen device's context, and one started early and not taken (a run on cpu
  // ranks), with every allocation on them, so that the process's exit has nothing left to tear
  // down there. No CUDA call may follow on them.
  void give_back();

 private:
  int started_ = -1;  // started early, not yet chosen nor given back
  int chosen_ = -1;
};

// The process's: CUDA's contexts belong to the process, so its record of them does too.
ProcessGpu& process_gpu();

}  // namespace heat
