#include "parallel/mpi_halo_exchange.hpp"

#include <vector>

#include "parallel/mpi_check.hpp"

namespace heat {

namespace {

// Upwards and downwards, so that two ranks that wrap are each other's lower and upper neighbour
// and still match each block; z's, then x's and y's.
constexpr int kUpTag = 1, kDownTag = 2;
int face_tag(int axis, bool up) { return 3 + 2 * axis + (up ? 0 : 1); }

}  // namespace

template <typename T>
MpiHaloExchange<T>::MpiHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line, MPI_Comm comm)
    : SlabHaloExchange<T>(slab, global, line), comm_(comm) {
  if (line.has_lower_neighbour()) lower_ = line.lower;
  if (line.has_upper_neighbour()) upper_ = line.upper;
  side_type_ = make_planes_type<T>(line.plane_values, line.planes);
}

template <typename T>
MpiHaloExchange<T>::MpiHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm)
    : MpiHaloExchange(slab, global, z_line(slab, global), comm) {
  const Grid box = slab.box_grid(global);
  box_values_ = box.points();
  // A face across x or y is no run of memory: MPI packs it by a subarray type, from host memory
  // as it is, so that no buffer of ours stands between the box and the message.
  const AxisSplit* across[2] = {&slab.x, &slab.y};
  const int sizes[3] = {box.nz, box.ny, box.nx};  // C order: z slowest
  for (int axis = 0; axis < 2; ++axis) {
    const AxisSplit& a = *across[axis];
    if (!a.has_lower_neighbour() && !a.has_upper_neighbour()) continue;
    Face& f = faces_[std::size_t(axis)];
    if (a.has_lower_neighbour()) f.lower = slab.neighbour(axis, -1);
    if (a.has_upper_neighbour()) f.upper = slab.neighbour(axis, 1);
    f.blocks = face_blocks(slab, global, axis);
    const std::array<int, 3>& extent = f.blocks.extent;
    const int subsizes[3] = {extent[2], extent[1], extent[0]}, starts[3] = {0, 0, 0};
    HEAT_MPI_CHECK(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, mpi_value_type<T>(), &f.type));
    HEAT_MPI_CHECK(MPI_Type_commit(&f.type));
  }
}

template <typename T>
MpiHaloExchange<T>::~MpiHaloExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  MPI_Type_free(&side_type_);
  for (Face& f : faces_)
    if (f.type != MPI_DATATYPE_NULL) MPI_Type_free(&f.type);
}

template <typename T>
void MpiHaloExchange<T>::start(T* box) {
  exchange_face(box, 0);
  exchange_face(box, 1);
  start_blocks(box + layout_.lower_edge, box + layout_.upper_edge, box + layout_.lower_ghost,
               box + layout_.upper_ghost);
}

template <typename T>
void MpiHaloExchange<T>::exchange_across(T* box, int axis) {
  if (axis < 2) return exchange_face(box, axis);
  start_blocks(box + layout_.lower_edge, box + layout_.upper_edge, box + layout_.lower_ghost,
               box + layout_.upper_ghost);
  finish();
}

template <typename T>
void MpiHaloExchange<T>::exchange_face(T* box, int axis) {
  const Face& f = faces_[std::size_t(axis)];
  if (f.type == MPI_DATATYPE_NULL) return;
  std::array<MPI_Request, 4> requests{MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  const int up = face_tag(axis, true), down = face_tag(axis, false);
  timed(seconds_, [&] {
    HEAT_MPI_CHECK(MPI_Irecv(box + f.blocks.lower_ghost, 1, f.type, f.lower, up, comm_, &requests[0]));
    HEAT_MPI_CHECK(MPI_Irecv(box + f.blocks.upper_ghost, 1, f.type, f.upper, down, comm_, &requests[1]));
    HEAT_MPI_CHECK(MPI_Isend(box + f.blocks.upper_edge, 1, f.type, f.upper, up, comm_, &requests[2]));
    HEAT_MPI_CHECK(MPI_Isend(box + f.blocks.lower_edge, 1, f.type, f.lower, down, comm_, &requests[3]));
    HEAT_MPI_CHECK(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  });
}

template <typename T>
void MpiHaloExchange<T>::start_blocks(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost) {
  // A missing neighbour is MPI_PROC_NULL, for which MPI completes the request at once. Receives
  // first, so a send never waits for its buffer.
  timed(seconds_, [&] {
    HEAT_MPI_CHECK(MPI_Irecv(lower_ghost, 1, side_type_, lower_, kUpTag, comm_, &requests_[0]));
    HEAT_MPI_CHECK(MPI_Irecv(upper_ghost, 1, side_type_, upper_, kDownTag, comm_, &requests_[1]));
    HEAT_MPI_CHECK(MPI_Isend(upper_edge, 1, side_type_, upper_, kUpTag, comm_, &requests_[2]));
    HEAT_MPI_CHECK(MPI_Isend(lower_edge, 1, side_type_, lower_, kDownTag, comm_, &requests_[3]));
  });
}

template <typename T>
void MpiHaloExchange<T>::finish() {
  timed(seconds_, [&] { HEAT_MPI_CHECK(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE)); });
}

template <typename T>
void MpiHaloExchange<T>::connect() {
  const double before = seconds_;
  if (faces_[0].type != MPI_DATATYPE_NULL || faces_[1].type != MPI_DATATYPE_NULL) {
    std::vector<T> box(box_values_, T(0));
    exchange_face(box.data(), 0);
    exchange_face(box.data(), 1);
  }
  if (lower_ != MPI_PROC_NULL || upper_ != MPI_PROC_NULL) {
    // Both edges are sent from one block (only read); not counted as an exchange of the run's.
    std::vector<T> edges(layout_.side_values, T(0)), lower_ghost(layout_.side_values),
        upper_ghost(layout_.side_values);
    start_blocks(edges.data(), edges.data(), lower_ghost.data(), upper_ghost.data());
    finish();
  }
  seconds_ = before;
}

template class MpiHaloExchange<float>;
template class MpiHaloExchange<double>;

}  // namespace heat
