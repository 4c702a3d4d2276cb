// libFuzzer target: heatrk4's command line and --config file, through the code main runs
// (parse_command_line) and the run's validation (make_run_plan), without doing any work.
// Input: argv tokens, one per line; the bytes after a first NUL, if any, are the text of a config
// file passed as --config.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/config_file.hpp"
#include "apps/run_option_table.hpp"
#include "fuzz/input_path.hpp"
#include "core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  std::vector<std::string> args = {"heatrk4"};
  std::istringstream lines(input.substr(0, nul));
  for (std::string token; std::getline(lines, token);) args.push_back(token);
  if (nul != std::string::npos) {
    const std::string config = fuzz_input_path("config.toml");
    std::ofstream(config, std::ios::binary | std::ios::trunc) << input.substr(nul + 1);
    args.insert(args.end(), {"--config", config});
  }
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());

  CLI::App app;
  heat::CommandAction action;
  heat::build_command_line(app, action);
  heat::parse_command_line(app, int(argv.size()), argv.data());

  // The run's options as a run validates them before any work (a subcommand's token is an
  // unexpected argument here, which is fine).
  CLI::App run;
  run.set_help_flag();
  heat::RunOptions options;
  heat::add_run_options(run, options);
  try {
    run.parse(int(argv.size()), argv.data());
    heat::record_given_options(run, options);
    if (options.was_given("config")) heat::read_config_file(options);
    heat::make_run_plan(options);
  } catch (const CLI::ParseError&) {
  } catch (const heat::InputError&) {
  }
  return 0;
}
