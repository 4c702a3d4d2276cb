// The run's end (--steps or --t-end) and its monitors (--probe, --monitor-every) in its plan
// (docs/design.md §3, "End time and monitors").
#pragma once

#include "apps/run_options.hpp"

namespace heat {

// --steps, or --t-end (both given: InputError naming both); with --t-end plan.steps waits for
// plan_steps_to_end_time, once the start time is known.
void plan_steps_or_end_time(RunPlan& plan, const RunOptions& options);
// With --t-end: plan.steps and plan.last_step_dt from the run's start time (a restart's, set
// before) to t_end, every step dt but the last, which lands on it (a step within 1e-9 dt of it
// is not added). InputError for a t_end not past the start time or past the last step heatrk4
// counts. Without: nothing.
void plan_steps_to_end_time(RunPlan& plan);

// The probes (--probe), each inside the domain (InputError naming it and the bounds).
void plan_probes(RunPlan& plan, const RunOptions& options);
// The monitors' period once plan.steps is known: --monitor-every, or with --probe alone every
// ceil(steps / kDefaultMonitorRows) steps. InputError for a negative one.
constexpr int kDefaultMonitorRows = 100;
void plan_monitor_period(RunPlan& plan, const RunOptions& options);

}  // namespace heat
