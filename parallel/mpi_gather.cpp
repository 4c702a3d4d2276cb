#include "parallel/mpi_gather.hpp"

#include <vector>

#include "parallel/mpi_check.hpp"

namespace heat {

template <typename T>
Field<T> gather_whole_field(const Field<T>& box, const Slab& slab, const Grid& global, MPI_Comm comm) {
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

template Field<float> gather_whole_field(const Field<float>&, const Slab&, const Grid&, MPI_Comm);
template Field<double> gather_whole_field(const Field<double>&, const Slab&, const Grid&, MPI_Comm);

}  // namespace heat
