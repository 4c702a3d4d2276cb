// The distributed cpu time loop under mpirun: every rank steps its box with a cpu backend made
// with an MPI halo exchange (the registry's entry with an exchange: before every pass or stage,
// or once per step with wide ghosts; the fast backend's single passes with their interior computed
// while the ghost planes travel, and without); the gathered field is bitwise the same backend's in
// a single process for every order and precision, on any rank count the grid allows. The same
// with boundary conditions: each kind on the z faces (periodic wrapping across ranks) and on the
// x and y faces, the box's problem as a run makes it (box_problem), ghost planes included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// `boundaries`: the whole problem's faces (all layer unless given); `steps`: how many.
template <typename T>
void check_against_one_process(const std::string& backend_name, int order, int nz, GhostScheme scheme,
                               HaloOverlap overlap, const Boundaries& boundaries = {}, int steps = kSteps,
                               const std::string& faces = "") {
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
  p.conductivity = 1.6;
  p.heat_capacity = 2.0;
  p.boundaries = boundaries;
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.2);
  const Field<T> start = field_cast<T>(randn_field(p.grid, 7 + std::uint64_t(order * nz)));

  const Slab slab = decompose(p.grid, order, test::world_size(), test::world_rank(), scheme, 1, 0, boundaries);
  MpiHaloExchange<T> exchange(slab, p.grid, MPI_COMM_WORLD);
  exchange.connect();
  const BackendEntry& entry = *default_registry().find(backend_name);
  BackendOptions options;
  options.halo_overlap = overlap;
  auto backend = entry.make<T>(box_problem(p, slab), options, &exchange);
  Field<T> box = box_of(start, slab);
  backend->upload(box);
  backend->step(1);
  backend->step(steps - 1);
  backend->download(box);
  const Field<T> distributed = gather_whole_field(box, slab, p.grid, MPI_COMM_WORLD);

  long long differences = 0, changed = 0, non_finite = 0;
  if (test::world_rank() == 0) {
    auto reference = entry.make<T>(p, BackendOptions{});
    Field<T> expected = start;
    reference->upload(start);
    reference->step(steps);
    reference->download(expected);
    differences = test::bitwise_differences(distributed, expected);
    changed = test::bitwise_differences(distributed, start);
    non_finite = std::count_if(distributed.data(), distributed.data() + distributed.size(),
                               [](T v) { return !std::isfinite(v); });
  }
  const std::string label = backend_name + " " +
                            std::string(precision_name(sizeof(T) == 4 ? Precision::Float : Precision::Double)) +
                            " order " + std::to_string(order) + " nz " + std::to_string(nz) + " on " +
                            std::to_string(test::world_size()) + " ranks, ghost " + std::to_string(slab.ghost) +
                            (overlap == HaloOverlap::Off ? ", no overlap" : ", interior first") + faces;
  EXPECT_EQ(test::from_rank0(differences), 0) << label << ": points that differ from one process";
  EXPECT_EQ(test::from_rank0(non_finite), 0) << label << ": blew up";
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

// Each kind of condition on the z faces (the end ranks' boxes fill them; periodic wraps the ranks)
// and on the x and y faces (every box fills them), with r and 4r ghost planes, on slabs as thin as
// the ghosts allow and on thicker ones (odd plane counts: uneven slabs), for 40 steps.
template <typename T>
void check_boundary_conditions(const std::string& backend_name) {
  const int ranks = std::max(3, test::world_size());
  const BoundaryCondition kinds[] = {
      {BoundaryKind::Temperature, 0.75}, {BoundaryKind::Insulated}, {BoundaryKind::Flux, -1.5},
      {BoundaryKind::Convective, 2.5, 0.25}, {BoundaryKind::Periodic}};
  for (int order : {2, 8}) {
    const int r = order / 2;
    for (const BoundaryCondition& kind : kinds)
      for (int axes : {0b100, 0b011}) {
        Boundaries b;
        for (int axis = 0; axis < 3; ++axis)
          if (axes >> axis & 1) b[2 * axis] = b[2 * axis + 1] = kind;
        // The high faces of a reflecting kind another kind's: each face filled on its own.
        if (kind.kind != BoundaryKind::Periodic)
          for (int axis = 0; axis < 3; ++axis)
            if (axes >> axis & 1) b[2 * axis + 1] = BoundaryCondition{BoundaryKind::Insulated};
        const std::string faces = ", " + boundary_condition_text(kind) + (axes == 0b100 ? " on z" : " on x and y");
        for (int nz : {(ranks + 2) * r + 1, (3 * ranks + 2) * r + 3})
          check_against_one_process<T>(backend_name, order, nz, GhostScheme::PerStage, HaloOverlap::Off, b, 40, faces);
        check_against_one_process<T>(backend_name, order, (4 * ranks + 2) * r + 1, GhostScheme::PerStep,
                                     HaloOverlap::Off, b, 40, faces);
      }
  }
}

TEST(CpuSlabBackend, BoundaryConditionsBitwiseEqualToTheCpuBackendFloat) { check_boundary_conditions<float>("cpu"); }
TEST(CpuSlabBackend, BoundaryConditionsBitwiseEqualToTheCpuBackendDouble) { check_boundary_conditions<double>("cpu"); }
TEST(CpuSlabBackend, BoundaryConditionsBitwiseEqualToTheCpuReferenceFloat) {
  check_boundary_conditions<float>(kCpuReferenceName);
}
TEST(CpuSlabBackend, BoundaryConditionsBitwiseEqualToTheCpuReferenceDouble) {
  check_boundary_conditions<double>(kCpuReferenceName);
}

TEST(CpuSlabBackend, BitwiseEqualToTheCpuBackendFloat) { check_every_order<float>("cpu"); }
TEST(CpuSlabBackend, BitwiseEqualToTheCpuBackendDouble) { check_every_order<double>("cpu"); }
TEST(CpuSlabBackend, BitwiseEqualToTheCpuReferenceFloat) { check_every_order<float>(kCpuReferenceName); }
TEST(CpuSlabBackend, BitwiseEqualToTheCpuReferenceDouble) { check_every_order<double>(kCpuReferenceName); }

}  // namespace
}  // namespace heat
