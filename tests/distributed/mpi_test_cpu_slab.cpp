// The distributed cpu time loop under mpirun: every rank steps its box with a cpu backend made
// with an MPI halo exchange (the registry's entry with an exchange: before every pass or stage,
// or once per step with wide ghosts; the fast backend's single passes with their interior computed
// while the ghost planes travel, and without); the gathered field is bitwise the same backend's in
// a single process for every order and precision, on any rank count the grid allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "mpi_support.hpp"
#include "parallel/mpi_gather.hpp"
#include "parallel/mpi_halo_exchange.hpp"
#include "parallel/slab_field.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"

namespace heat {
namespace {

constexpr int kSteps = 3;

template <typename T>
void check_against_one_process(const std::string& backend_name, int order, int nz, GhostScheme scheme,
                               HaloOverlap overlap) {
  const int r = order / 2;
  Problem p;
  p.grid.nx = 2 * r + 6;
  p.grid.ny = 2 * r + 5;
  p.grid.nz = nz;
  p.grid.hx = 0.9;
  p.grid.hy = 1.3;
  p.grid.hz = 0.7;
  p.order = order;
  p.alpha = 0.8;
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.2);
  const Field<T> start = field_cast<T>(randn_field(p.grid, 7 + std::uint64_t(order * nz)));

  const Slab slab = decompose(p.grid, order, test::world_size(), test::world_rank(), scheme);
  Problem box_problem = p;
  box_problem.grid = slab.box_grid(p.grid);
  MpiHaloExchange<T> exchange(slab, p.grid, MPI_COMM_WORLD);
  exchange.connect();
  const BackendEntry& entry = *default_registry().find(backend_name);
  BackendOptions options;
  options.halo_overlap = overlap;
  auto backend = entry.make<T>(box_problem, options, &exchange);
  Field<T> box = box_of(start, slab);
  backend->upload(box);
  backend->step(1);
  backend->step(kSteps - 1);
  backend->download(box);
  const Field<T> distributed = gather_whole_field(box, slab, p.grid, MPI_COMM_WORLD);

  long long differences = 0, changed = 0;
  if (test::world_rank() == 0) {
    auto reference = entry.make<T>(p, BackendOptions{});
    Field<T> expected = start;
    reference->upload(start);
    reference->step(kSteps);
    reference->download(expected);
    differences = test::bitwise_differences(distributed, expected);
    changed = test::bitwise_differences(distributed, start);
  }
  const std::string label = backend_name + " " +
                            std::string(precision_name(sizeof(T) == 4 ? Precision::Float : Precision::Double)) +
                            " order " + std::to_string(order) + " nz " + std::to_string(nz) + " on " +
                            std::to_string(test::world_size()) + " ranks, ghost " + std::to_string(slab.ghost) +
                            (overlap == HaloOverlap::Off ? ", no overlap" : ", interior first");
  EXPECT_EQ(test::from_rank0(differences), 0) << label << ": points that differ from one process";
  // A backend that did nothing would differ from the start at no point.
  EXPECT_GT(test::from_rank0(changed), (long long)p.interior_points() / 2) << label << ": the interior barely changed";
}

// Plane counts per order and scheme: uneven slabs, 3 ranks (or the job's ranks, where more) that
// own exactly as many planes as their neighbours' ghosts need (r, or 4r once per step), and per
// stage, slabs thick enough for planes that read no ghost plane (computed while the ghosts travel).
template <typename T>
void check_every_order(const std::string& backend_name) {
  const int ranks = std::max(3, test::world_size());
  for (int order : {2, 4, 6, 8}) {
    const int r = order / 2;
    for (HaloOverlap overlap : {HaloOverlap::InteriorFirst, HaloOverlap::Off}) {
      for (int nz : {(ranks + 2) * r + 2, (ranks + 2) * r, (4 * ranks + 2) * r + 2})
        check_against_one_process<T>(backend_name, order, nz, GhostScheme::PerStage, overlap);
      for (int nz : {(4 * ranks + 2) * r + 2, (4 * ranks + 2) * r})
        check_against_one_process<T>(backend_name, order, nz, GhostScheme::PerStep, overlap);
    }
  }
}

TEST(CpuSlabBackend, BitwiseEqualToTheCpuBackendFloat) { check_every_order<float>("cpu"); }
TEST(CpuSlabBackend, BitwiseEqualToTheCpuBackendDouble) { check_every_order<double>("cpu"); }
TEST(CpuSlabBackend, BitwiseEqualToTheCpuReferenceFloat) { check_every_order<float>(kCpuReferenceName); }
TEST(CpuSlabBackend, BitwiseEqualToTheCpuReferenceDouble) { check_every_order<double>(kCpuReferenceName); }

}  // namespace
}  // namespace heat
