#include "apps/initial_field.hpp"

#include <array>
#include <vector>

#include "parallel/slab_field.hpp"

namespace heat {

namespace {

// Puts the generated field of the rank's box on `backend`: made there where the box is one run
// of points along each axis, else (a box that wraps) made here run by run, cut to the box and
// uploaded.
template <typename T>
void upload_generated_box(Backend<T>& backend, const RunPlan& plan, const Slab& slab) {
  const Grid& grid = plan.problem.grid;
  const std::array<std::vector<Planes>, 3> runs = box_source_runs(slab, grid);
  if (runs[0].size() == 1 && runs[1].size() == 1 && runs[2].size() == 1)
    return backend.upload_generated(grid, plan.init, GridBox{runs[0][0], runs[1][0], runs[2][0]});
  backend.upload(
      box_from_runs<T>(slab, grid, [&](const Planes& run) { return make_initial_field<T>(grid, plan.init, run); }));
}

}  // namespace

template <typename T>
InitialField<T> prepare_initial_field(const RunPlan& plan, Backend<T>& backend, LoadedField& loaded, const Slab& slab,
                                      const Ranks& ranks) {
  InitialField<T> initial;
  if (plan.init.kind == InitKind::File) {
    // Each rank read its box's planes, in double, which float data widens to exactly.
    initial.u = field_cast<T>(loaded.values);
    loaded.values = Field<double>();
    if (!plan.check) return initial;
    const Field<T> whole = ranks.gather_on_root(initial.u, slab, plan.problem.grid);
    if (ranks.is_root()) initial.check_start = field_cast<double>(whole);
    return initial;
  }
  // Each rank's backend makes its own box (on the GPU: nothing to upload); u then only receives
  // downloads: zeroed here by every OpenMP thread, so its pages are not first touched one by one
  // inside the driver's copy of the final field. Where nothing reads the final field (no check,
  // no snapshot written from the host: the loop downloads nothing), its pages are never touched.
  const Grid box_grid = slab.box_grid(plan.problem.grid);
  initial.u = reads_final_field(plan, takes_device_snapshots(backend))
                  ? Field<T>(box_grid)
                  : Field<T>::uninitialized(box_grid.nx, box_grid.ny, box_grid.nz);
  if (!plan.check) {
    initial.upload = [&plan, slab](Backend<T>& b) { upload_generated_box(b, plan, slab); };
    return initial;
  }
  // --check: the backend makes its field now, for the reference's copy; the loop uploads nothing.
  upload_generated_box(backend, plan, slab);
  backend.download(initial.u);
  const Field<T> whole = ranks.gather_on_root(initial.u, slab, plan.problem.grid);
  if (ranks.is_root()) initial.check_start = field_cast<double>(whole);
  initial.upload = [](Backend<T>&) {};
  return initial;
}

template InitialField<float> prepare_initial_field(const RunPlan&, Backend<float>&, LoadedField&, const Slab&,
                                                   const Ranks&);
template InitialField<double> prepare_initial_field(const RunPlan&, Backend<double>&, LoadedField&, const Slab&,
                                                    const Ranks&);

}  // namespace heat
