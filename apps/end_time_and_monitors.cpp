#include "apps/end_time_and_monitors.hpp"

#include <climits>
#include <cmath>

#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {

void plan_steps_or_end_time(RunPlan& plan, const RunOptions& o) {
  if (!o.was_given("t-end")) {
    if (o.steps < 1) throw InputError("--steps " + std::to_string(o.steps) + " must be at least 1");
    plan.steps = o.steps;
    return;
  }
  if (o.was_given("steps"))
    throw InputError("--steps " + std::to_string(o.steps) + " and --t-end " + number_text(o.t_end) +
                     " both given: give one (--t-end T runs to time T, its last step shortened to land on it)");
  if (!std::isfinite(o.t_end))
    throw InputError("--t-end " + number_text(o.t_end) + " is not a finite number: give the time the run ends at");
  plan.t_end = o.t_end;
  // The file's plan holds only while the run keeps the file's dt.
  if (o.stored_end_step && !o.dt_stored_in.empty()) {
    plan.stored_end_step = o.stored_end_step;
    plan.stored_last_step_dt = o.stored_last_step_dt;
  }
}

void plan_steps_to_end_time(RunPlan& plan) {
  if (!plan.t_end) return;
  const double end = *plan.t_end, start = plan.start_time, dt = plan.problem.dt;
  const std::string from = plan.start_step ? "the snapshot's time " + number_text(start) : "the start time 0";
  if (!(end > start))
    throw InputError("--t-end " + number_text(end) + " is not past " + from +
                     ": give a later time (--t-end is absolute, not the time to add" +
                     (plan.start_step ? "; a restart goes on to its file's t_end unless --steps or --t-end is given)"
                                      : ")"));
  // A last step within a rounding of dt is dt's, not a step of almost nothing after it.
  const double whole_steps = std::ceil((end - start) / dt - 1e-9);
  if (!(whole_steps <= INT_MAX - plan.start_step))
    throw InputError("--t-end " + number_text(end) + " is " + number_text(whole_steps) + " steps of dt " +
                     number_text(dt) + " after " + from + ", past step " + std::to_string(INT_MAX) +
                     ", the last heatrk4 counts: give a larger --dt or --cfl, or an earlier --t-end");
  if (plan.stored_end_step > plan.start_step) {
    plan.steps = plan.stored_end_step - plan.start_step;
    plan.last_step_dt = plan.stored_last_step_dt;
    return;
  }
  plan.steps = std::max(1, int(whole_steps));
  const double last = (end - start) - (plan.steps - 1) * dt;
  plan.last_step_dt = last == dt ? 0 : last;
}

void plan_probes(RunPlan& plan, const RunOptions& o) {
  if (o.probe.empty()) return;
  plan.probes = parse_probes(o.probe);
  require_probes_inside(plan.problem, plan.probes);
}

void plan_monitor_period(RunPlan& plan, const RunOptions& o) {
  if (o.monitor_every < 0)
    throw InputError("--monitor-every " + std::to_string(o.monitor_every) + " must be 0 (no monitors) or more");
  plan.monitor_every = o.monitor_every;
  plan.monitors_continue = o.start_had_monitors;
  if (!o.was_given("monitor-every") && !plan.probes.empty())
    plan.monitor_every = (plan.steps + kDefaultMonitorRows - 1) / kDefaultMonitorRows;
}

}  // namespace heat
