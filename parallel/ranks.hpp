// The ranks one run is spread over (docs/design.md §7): the single process of a plain `heatrk4`,
// or every rank of `mpirun -np N heatrk4`. The commands (apps/) ask this object and make no MPI
// call of their own, so a build without MPI runs the same code path with one rank.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "core/field.hpp"

namespace heat {

class Ranks {
 public:
  // Joins the MPI job when the process was started by an MPI launcher (and the build has MPI),
  // for the lifetime of this object; otherwise the one process is the only rank and MPI is
  // never initialised, so a plain run is what it was before distributed runs existed. The
  // object becomes process_ranks(). `may_take_a_gpu` (the command line's answer, read before
  // MPI starts): whether a rank's GPU context is worth starting beside MPI_Init.
  Ranks(int& argc, char**& argv, bool may_take_a_gpu = true);
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  // The ranks on this rank's node, which share its memory and GPUs.
  int local_size() const { return local_size_; }

  // Collective. Runs `validate`; an InputError on any rank becomes the same InputError (the
  // lowest failing rank's message) on every rank, so that all exit 2 and none waits on another.
  void validate_everywhere(const std::function<void()>& validate) const;
  // Collective. Returns once every rank has called it.
  void wait_for_every_rank() const;
  // Collective. The largest of every rank's value (the slowest rank's time).
  double slowest(double seconds) const;
  // Collective. Each of `values` (the same count on every rank) as its largest over every rank.
  std::vector<double> largest(std::vector<double> values) const;
  // Collective. True when `value` is true on some rank.
  bool on_any_rank(bool value) const;
  // Collective. Rank 0's `text` on every rank (one name for the run, drawn on rank 0).
  std::string same_on_every_rank(const std::string& text) const;
  // Collective over the snapshot writers alone: returns once every rank's writer has called it.
  // Its own communicator, so a writer thread may call it while the loop's thread exchanges halos
  // (where snapshots_beside_the_loop()).
  void wait_for_every_snapshot_writer() const;
  // Collective over the snapshot writers, on their communicator: sends `bytes` at `to_lower` to the
  // rank below and receives the rank above's into `from_upper` (none on rank 0 and the last rank).
  void pass_down_between_snapshot_writers(const void* to_lower, void* from_upper, std::size_t bytes) const;
  // Collective over the snapshot writers, on their communicator: every rank's `values` (as many as
  // it has) one after the other in rank order on rank 0; empty on the others.
  std::vector<double> gather_between_snapshot_writers(const std::vector<double>& values) const;
  // Collective over the snapshot writers, on their communicator: the runs of whole planes
  // `planes_of_rank` (snapshot_planes_of_ranks, or the monitors' runs, which overlap) made of every
  // rank's part of its box (regroup_into_planes): this rank's run. `box` itself on one rank.
  template <typename T>
  Field<T> planes_between_snapshot_writers(const Field<T>& box, const Slab& slab, const Grid& global,
                                           const std::vector<std::pair<int, int>>& planes_of_rank) const;
  // True when snapshots may be written on a thread of their own while the loop steps on: always on
  // one rank; on several, where MPI lets any thread call it (MPI_THREAD_MULTIPLE).
  bool snapshots_beside_the_loop() const;
  // Chooses this rank's GPU for the process (ProcessGpu::choose) and returns it: `device_option`
  // on one rank; under mpirun the node-local rank's GPU, by `route`'s rule
  // (parallel/gpu_halo_exchange.hpp). InputError when this rank has no GPU to take.
  int select_gpu(int device_option, GpuHaloRoute route) const;
  // The route GPU ranks take: `asked` where given, else the copy engines (peer) when every rank
  // is on this node and the GPUs of each pair of `neighbours` (ranks, neighbouring_ranks) reach
  // each other, NCCL otherwise. Not collective: every rank comes to the same answer.
  GpuHaloRoute gpu_route(std::optional<GpuHaloRoute> asked, const std::vector<std::pair<int, int>>& neighbours) const;
  // Collective. The exchange that fills `slab`'s ghost planes (a slab with a neighbour): in host
  // memory over MPI for cpu ranks, in device memory by `gpu_route` for GPU ranks (`on_gpu`).
  template <typename T>
  std::unique_ptr<HaloExchange<T>> make_halo_exchange(const Slab& slab, const Grid& global, bool on_gpu,
                                                      GpuHaloRoute gpu_route) const;
  // Collective. The whole field on rank 0 from every rank's box; an empty field elsewhere.
  template <typename T>
  Field<T> gather_on_root(const Field<T>& box, const Slab& slab, const Grid& global) const;
  // Ends every rank with `exit_code` (MPI_Abort), so that none waits on this one; on one rank,
  // returns `exit_code` for the caller to return from main.
  int end_every_rank(int exit_code) const;

 private:
  Ranks();
  friend const Ranks& process_ranks();
  bool joined_mpi_ = false;
  int rank_ = 0, size_ = 1, local_size_ = 1;
};

// The Ranks main made, or a single rank when there is none (tests that drive the command line
// inside their own process).
const Ranks& process_ranks();

}  // namespace heat
