#include "apps/initial_field.hpp"

namespace heat {

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
  const Planes box{slab.box_begin, slab.box_planes()};
  const Grid box_grid = slab.box_grid(plan.problem.grid);
  initial.u = reads_final_field(plan, takes_device_snapshots(backend))
                  ? Field<T>(box_grid)
                  : Field<T>::uninitialized(box_grid.nx, box_grid.ny, box_grid.nz);
  if (!plan.check) {
    initial.upload = [&plan, box](Backend<T>& b) { b.upload_generated(plan.problem.grid, plan.init, box); };
    return initial;
  }
  // --check: the backend makes its field now, for the reference's copy; the loop uploads nothing.
  backend.upload_generated(plan.problem.grid, plan.init, box);
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
