// Ranks in a build without MPI: always one rank (parallel's layer is then only the
// decomposition, with nothing to exchange).
#include <stdexcept>

#include "backends/cuda/process_gpu.hpp"
#include "parallel/ranks.hpp"
#include "parallel/ranks_common.hpp"

namespace heat {

Ranks::Ranks() = default;
Ranks::Ranks(int&, char**&, bool) { set_process_ranks(this); }
Ranks::~Ranks() { set_process_ranks(nullptr); }

void Ranks::validate_everywhere(const std::function<void()>& validate) const { validate(); }
double Ranks::slowest(double seconds) const { return seconds; }
std::vector<double> Ranks::largest(std::vector<double> values) const { return values; }
bool Ranks::on_any_rank(bool value) const { return value; }
std::string Ranks::same_on_every_rank(const std::string& text) const { return text; }
void Ranks::wait_for_every_rank() const {}
void Ranks::wait_for_every_snapshot_writer() const {}
void Ranks::pass_down_between_snapshot_writers(const void*, void*, std::size_t) const {}
std::vector<double> Ranks::gather_between_snapshot_writers(const std::vector<double>& values) const { return values; }
bool Ranks::snapshots_beside_the_loop() const { return true; }
int Ranks::end_every_rank(int exit_code) const { return exit_code; }

int Ranks::select_gpu(int device_option, GpuHaloRoute) const {
  process_gpu().choose(device_option);
  return device_option;
}

GpuHaloRoute Ranks::gpu_route(std::optional<GpuHaloRoute> asked, const std::vector<std::pair<int, int>>&) const {
  return asked.value_or(GpuHaloRoute::Peer);
}

template <typename T>
std::unique_ptr<HaloExchange<T>> Ranks::make_halo_exchange(const Slab&, const Grid&, bool, GpuHaloRoute) const {
  throw std::logic_error("a single rank has no neighbours to exchange ghost planes with");
}

template <typename T>
Field<T> Ranks::gather_on_root(const Field<T>& box, const Slab&, const Grid&) const {
  return box;
}

template <typename T>
Field<T> Ranks::planes_between_snapshot_writers(const Field<T>& box, const Slab&, const Grid&,
                                                const std::vector<std::pair<int, int>>&) const {
  return box;
}

template std::unique_ptr<HaloExchange<float>> Ranks::make_halo_exchange(const Slab&, const Grid&, bool, GpuHaloRoute) const;
template std::unique_ptr<HaloExchange<double>> Ranks::make_halo_exchange(const Slab&, const Grid&, bool, GpuHaloRoute) const;
template Field<float> Ranks::gather_on_root(const Field<float>&, const Slab&, const Grid&) const;
template Field<double> Ranks::gather_on_root(const Field<double>&, const Slab&, const Grid&) const;
template Field<float> Ranks::planes_between_snapshot_writers(const Field<float>&, const Slab&, const Grid&,
                                                             const std::vector<std::pair<int, int>>&) const;
template Field<double> Ranks::planes_between_snapshot_writers(const Field<double>&, const Slab&, const Grid&,
                                                              const std::vector<std::pair<int, int>>&) const;

}  // namespace heat
