#include "parallel/mpi_gather.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "parallel/mpi_check.hpp"

namespace heat {

namespace {

// The part of `s` as [begin, end) along x, y and z, in global indices.
std::array<std::pair<int, int>, 3> part_of(const Slab& s) {
  return {std::pair{s.x.part_begin, s.x.part_end}, std::pair{s.y.part_begin, s.y.part_end},
          std::pair{s.part_begin, s.part_end}};
}

// A block of `count` (x, y, z) points from `start` within an array of `size`, as one MPI type.
template <typename T>
MPI_Datatype block_type(const std::array<int, 3>& size, const std::array<int, 3>& count, const std::array<int, 3>& start) {
  const int sizes[3] = {size[2], size[1], size[0]}, counts[3] = {count[2], count[1], count[0]},
            starts[3] = {start[2], start[1], start[0]};
  MPI_Datatype type = MPI_DATATYPE_NULL;
  HEAT_MPI_CHECK(MPI_Type_create_subarray(3, sizes, counts, starts, MPI_ORDER_C, mpi_value_type<T>(), &type));
  HEAT_MPI_CHECK(MPI_Type_commit(&type));
  return type;
}

// The planes of the whole field from every rank's part, for z slabs, whose parts are runs of
// whole planes: one MPI_Gatherv.
template <typename T>
Field<T> gather_slabs(const Field<T>& box, const Slab& slab, const Grid& global, MPI_Comm comm) {
  // Counts and displacements in whole planes.
  MPI_Datatype plane = make_planes_type<T>(global, 1);

  const int root = 0;
  std::vector<int> part_planes(std::size_t(slab.ranks)), part_begins(std::size_t(slab.ranks));
  const int mine[2] = {slab.part_planes(), slab.part_begin};
  std::vector<int> all(2 * std::size_t(slab.ranks));
  int status = MPI_Gather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, root, comm);
  for (int r = 0; r < slab.ranks; ++r) {
    part_planes[std::size_t(r)] = all[2 * std::size_t(r)];
    part_begins[std::size_t(r)] = all[2 * std::size_t(r) + 1];
  }

  Field<T> whole;
  if (slab.rank == root) whole = Field<T>::uninitialized(global);
  const T* part = box.data() + box.index(0, 0, slab.part_begin - slab.box_begin);
  if (status == MPI_SUCCESS)
    status = MPI_Gatherv(part, slab.part_planes(), plane, whole.data(), part_planes.data(), part_begins.data(), plane,
                         root, comm);
  MPI_Type_free(&plane);
  HEAT_MPI_CHECK(status);
  return whole;
}

}  // namespace

template <typename T>
Field<T> gather_whole_field(const Field<T>& box, const Slab& slab, const Grid& global, MPI_Comm comm) {
  if (slab.is_slab()) return gather_slabs(box, slab, global, comm);
  std::vector<std::pair<int, int>> planes(std::size_t(slab.ranks), {0, 0});
  planes[0] = {0, global.nz};
  return regroup_into_planes(box, slab, global, planes, comm,
                             [](MPI_Request& request) { HEAT_MPI_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE)); });
}

template <typename T>
Field<T> regroup_into_planes(const Field<T>& box, const Slab& slab, const Grid& global,
                             const std::vector<std::pair<int, int>>& planes_of_rank, MPI_Comm comm,
                             const std::function<void(MPI_Request&)>& wait) {
  const int ranks = slab.ranks;
  const auto [first, last] = planes_of_rank[std::size_t(slab.rank)];
  Field<T> planes = last > first ? Field<T>::uninitialized(global.nx, global.ny, last - first) : Field<T>();
  const std::array<int, 3> box_size{box.nx(), box.ny(), box.nz()};
  const std::array<int, 3> box_begin{slab.x.box_begin, slab.y.box_begin, slab.box_begin};
  const std::array<int, 3> planes_size{global.nx, global.ny, std::max(last - first, 1)};
  const auto mine = part_of(slab);
  std::vector<int> send_counts(std::size_t(ranks), 0), receive_counts(std::size_t(ranks), 0);
  std::vector<int> displacements(std::size_t(ranks), 0);
  std::vector<MPI_Datatype> send_types(std::size_t(ranks), MPI_BYTE), receive_types(std::size_t(ranks), MPI_BYTE);
  for (int other = 0; other < ranks; ++other) {
    const std::size_t o = std::size_t(other);
    // What this rank sends `other`: its part's planes within other's run.
    const auto [other_first, other_last] = planes_of_rank[o];
    const int z0 = std::max(mine[2].first, other_first), z1 = std::min(mine[2].second, other_last);
    if (z1 > z0) {
      send_counts[o] = 1;
      send_types[o] = block_type<T>(
          box_size, {mine[0].second - mine[0].first, mine[1].second - mine[1].first, z1 - z0},
          {mine[0].first - box_begin[0], mine[1].first - box_begin[1], z0 - box_begin[2]});
    }
    // What `other` sends this rank: its part's planes within this rank's run.
    const auto theirs = part_of(slab_of_rank(slab, global, other));
    const int w0 = std::max(theirs[2].first, first), w1 = std::min(theirs[2].second, last);
    if (w1 > w0) {
      receive_counts[o] = 1;
      receive_types[o] = block_type<T>(
          planes_size, {theirs[0].second - theirs[0].first, theirs[1].second - theirs[1].first, w1 - w0},
          {theirs[0].first, theirs[1].first, w0 - first});
    }
  }
  MPI_Request request = MPI_REQUEST_NULL;
  const int status =
      MPI_Ialltoallw(box.data(), send_counts.data(), displacements.data(), send_types.data(), planes.data(),
                     receive_counts.data(), displacements.data(), receive_types.data(), comm, &request);
  if (status == MPI_SUCCESS) wait(request);
  for (std::size_t o = 0; o < std::size_t(ranks); ++o) {
    if (send_counts[o]) MPI_Type_free(&send_types[o]);
    if (receive_counts[o]) MPI_Type_free(&receive_types[o]);
  }
  HEAT_MPI_CHECK(status);
  return planes;
}

template Field<float> gather_whole_field(const Field<float>&, const Slab&, const Grid&, MPI_Comm);
template Field<double> gather_whole_field(const Field<double>&, const Slab&, const Grid&, MPI_Comm);
template Field<float> regroup_into_planes(const Field<float>&, const Slab&, const Grid&,
                                          const std::vector<std::pair<int, int>>&, MPI_Comm,
                                          const std::function<void(MPI_Request&)>&);
template Field<double> regroup_into_planes(const Field<double>&, const Slab&, const Grid&,
                                           const std::vector<std::pair<int, int>>&, MPI_Comm,
                                           const std::function<void(MPI_Request&)>&);

}  // namespace heat
