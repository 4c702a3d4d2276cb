// heatrk4 convergence: observed orders of accuracy in space and time for one backend
// (check/convergence.hpp says how they are measured).
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "apps/run_options.hpp"
#include "apps/scratch_file.hpp"
#include "io/output_paths.hpp"
#include "io/output_target.hpp"
#include "io/safe_write.hpp"
#include "core/errors.hpp"
#include "check/convergence.hpp"

namespace heat {
namespace {

struct ConvergenceOptions {
  std::string backend = "cpu";
  std::string precision = "double";
  int device = 0;
  std::string csv, plot;
};

int convergence(const ConvergenceOptions& o) {
  find_runnable_backend(o.backend);  // refuse a bad name before printing anything
  require_device_ordinal(o.device);
  if (!o.csv.empty()) require_writable_file(o.csv, "--csv");
  if (!o.plot.empty()) {
    require_output_apart({"--plot", o.plot}, {{"--csv", o.csv}}, "");
    require_writable_file(o.plot, "--plot");
  }
  ConvergenceRequest request;
  request.backend = o.backend;
  request.precision = o.precision == "float" ? Precision::Float : Precision::Double;
  request.options.device = o.device;
  std::printf("convergence: backend %s, %s; a Fourier mode, error of its decay factor where it is exact\n",
              o.backend.c_str(), o.precision.c_str());
  if (find_runnable_backend(o.backend).fills_boundaries)
    std::printf("and each face condition: an exact solution along x, its largest error at t where the mode is e^-0.5\n");
  if (find_runnable_backend(o.backend).steps_materials && find_runnable_backend(o.backend).adds_sources)
    std::printf("and material fields: u = U(x) + a t with smooth periodic K(x), C(x) and the source they need, its "
                "largest error at t = 0.002\n");
  if (request.precision == Precision::Float)
    std::printf("note: float rounding (~1e-7) floors the errors, so the finer levels' orders are not meaningful\n");
  const auto studies = convergence_studies(request);
  std::printf("%s", format_convergence_table(studies).c_str());
  std::printf("observed order between the two finest levels:");
  for (const auto& s : studies)
    std::printf(" %s p=%d: %.2f%s", s.label().c_str(), s.order, s.finest_order(), &s == &studies.back() ? "\n" : ",");

  const std::string csv = convergence_csv_text(studies);
  if (!o.csv.empty()) {
    write_named_output(o.csv, "--csv", csv);
    std::printf("wrote %s\n", o.csv.c_str());
  }
  if (!o.plot.empty()) {
    // The plotting script reads a CSV and writes a PNG, both scratch files here: the plot
    // reaches --plot as --json's summary does, never replacing what is not a regular file.
    const ScratchFile table(".csv"), picture(".png");
    write_text_file_safely(table.path, csv);
    plot_convergence(table.path, picture.path);
    write_named_output(o.plot, "--plot", drawn_plot(picture.path));
    std::printf("wrote %s\n", o.plot.c_str());
  }
  return exit_code::ok;
}

}  // namespace

void add_convergence_command(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("convergence", "observed orders of accuracy in space and time");
  auto o = std::make_shared<ConvergenceOptions>();
  sub->add_option("--backend", o->backend, "backend to measure (see: heatrk4 backends)")->capture_default_str();
  sub->add_option("--precision", o->precision, "float or double")
      ->check(CLI::IsMember({"float", "double"}))
      ->capture_default_str();
  sub->add_option("--device", o->device, "CUDA device ordinal")->capture_default_str();
  sub->add_option("--csv", o->csv, "write the table as CSV to this file");
  sub->add_option("--plot", o->plot, "draw the log-log plot to this PNG (needs python3 with matplotlib)");
  sub->callback([&action, o] { action = [o] { return convergence(*o); }; });
}

}  // namespace heat
