// heatrk4 plot monitors.csv -o monitors.png: draws a run's monitors (apps/plot_monitors.py).
#include <cstdio>
#include <fstream>
#include <memory>

#include "apps/commands.hpp"
#include "apps/plot_monitors_script.hpp"
#include "apps/scratch_file.hpp"
#include "io/output_paths.hpp"
#include "io/output_target.hpp"
#include "core/errors.hpp"
#include "check/python_plots.hpp"
#include "check/shell_quote.hpp"

namespace heat {
namespace {

struct PlotOptions {
  std::string csv, png;
};

// InputError unless `path` is a file whose first line is a monitors header (step,time,...).
void require_monitors_file(const std::string& path) {
  std::ifstream in(path);
  std::string header;
  if (!in || !std::getline(in, header))
    throw InputError(path + " cannot be read: give the monitors.csv of a run with --monitor-every or --probe");
  if (header.rfind("step,time,", 0) != 0 || header.find(",total_heat,") == std::string::npos)
    throw InputError(path + " is not a run's monitors.csv (its first line does not start step,time and name "
                     "total_heat)");
}

int plot(const PlotOptions& o) {
  require_monitors_file(o.csv);
  require_writable_file(o.png, "-o");
  const std::string python = python_with_matplotlib();
  if (python.empty()) throw InputError(std::string("heatrk4 plot needs a python3 with matplotlib: ") + kMatplotlibFix);
  const ScratchFile picture(".png");
  const std::string command = shell_quote(python) + " - " + shell_quote(o.csv) + " " + shell_quote(picture.path);
  FILE* script = ::popen(command.c_str(), "w");
  if (!script) throw RunError("cannot start " + python + " to plot " + o.csv);
  std::fputs(plot_monitors_script(), script);
  if (::pclose(script) != 0) throw RunError("plotting " + o.csv + " failed (" + python + " said why above)");
  write_named_output(o.png, "-o", drawn_plot(picture.path));
  std::printf("wrote %s\n", o.png.c_str());
  return exit_code::ok;
}

}  // namespace

void add_plot_command(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("plot", "draw a run's monitors.csv: temperatures and heat against time (matplotlib)");
  auto o = std::make_shared<PlotOptions>();
  sub->add_option("csv", o->csv, "the monitors.csv a run with --monitor-every or --probe wrote")->required();
  sub->add_option("-o,--output", o->png, "the PNG to draw (1000 x 700 pixels)")->required();
  sub->callback([&action, o] { action = [o] { return plot(*o); }; });
}

}  // namespace heat
