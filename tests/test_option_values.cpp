// Every option of every command reads its value alike: numbers in decimal only (CLI11 alone would
// read 010 as eight, 0x10 as sixteen, 0x1p3 as eight and nan as "not given"), and no empty value.
// The options are found by walking the command line that heatrk4 builds, so a new option is
// covered without being listed here.
#include <gtest/gtest.h>

#include "core/number_text.hpp"

#include <cmath>

#include "apps/commands.hpp"
#include "apps/run_options.hpp"
#include "core/errors.hpp"

namespace heat {
namespace {

// One option as the walk found it: the words before it (the subcommand, compare's files), its
// name and how many values it takes at once (--modes: three).
struct FoundOption {
  std::vector<std::string> before;
  std::string name;
  int values = 1;
};

std::vector<FoundOption> every_option_with_a_value() {
  CLI::App app;
  CommandAction action;
  build_command_line(app, action);
  std::vector<FoundOption> found;
  const auto add = [&found](const CLI::App& command, std::vector<std::string> before) {
    for (const CLI::Option* option : command.get_options())
      if (option->get_expected_max() > 0 && !option->get_positional())  // not a flag
        found.push_back({before, option->get_name(), option->get_type_size_max()});
  };
  add(app, {});
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; }))
    add(*command, command->get_name() == "compare" ? std::vector<std::string>{"compare", "a.hdf", "b.hdf"}
                                                   : std::vector<std::string>{command->get_name()});
  return found;
}

// The exit code parsing ends with (2: refused), or -1 when the command line is accepted.
int parse_exit(const FoundOption& option, const std::string& value) {
  std::vector<std::string> args = {"heatrk4"};
  args.insert(args.end(), option.before.begin(), option.before.end());
  args.push_back(option.name);
  for (int n = 0; n < option.values; ++n) args.push_back(value);
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  CLI::App app;
  CommandAction action;
  build_command_line(app, action);
  return parse_command_line(app, int(argv.size()), argv.data()).value_or(-1);
}

std::string shown(const FoundOption& option) {
  std::string text;
  for (const auto& word : option.before) text += word + " ";
  return text + option.name;
}

// An option reads numbers when it takes 16 but not "abc"; integers when it also refuses 1.5.
TEST(OptionValues, EveryNumberIsDecimalForEveryOptionOfEveryCommand) {
  std::vector<std::string> integers, fractions;
  for (const FoundOption& option : every_option_with_a_value()) {
    if (parse_exit(option, "16") != -1 || parse_exit(option, "abc") == -1) continue;
    const bool integer = parse_exit(option, "1.5") != -1;
    (integer ? integers : fractions).push_back(shown(option));
    const std::vector<std::string> refused =
        integer ? std::vector<std::string>{"010", "0x10", "0X10", "0b10", "0o10", "1_000", "1'000", "1e1", "true", "+16",
                                           " 16", "16 "}
                : std::vector<std::string>{"0x1p3", "0x10", "nan", "NAN", "-nan", "inf", "-inf", "infinity", "1_0.5",
                                           " 1.5", ".", "-", "-.", "1e", "e5", "1e+", "1..5", "1.5.", "--1", "+1.5"};
    for (const std::string& value : refused) EXPECT_EQ(parse_exit(option, value), 2) << shown(option) << " '" << value << "'";
    const std::vector<std::string> taken = integer ? std::vector<std::string>{"0", "10", "4096"}
                                                   : std::vector<std::string>{"0.05", "010", ".5", "5.", "1e-3", "2E+1",
                                                                              ".5e+3", "7e0"};
    for (const std::string& value : taken) EXPECT_EQ(parse_exit(option, value), -1) << shown(option) << " '" << value << "'";
  }
  // The walk found the numbers of every command.
  for (const std::string& name : {"--n", "--nx", "--steps", "--seed", "--modes", "--order", "--device",
                                  "--output-every", "--snapshot-buffers", "verify --n", "verify --steps", "verify --seed",
                                  "verify --device", "convergence --device"})
    EXPECT_NE(std::find(integers.begin(), integers.end(), name), integers.end()) << name;
  for (const std::string& name : {"--h", "--hx", "--hz", "--alpha", "--cfl", "--dt", "--rtol", "--atol", "verify --cfl",
                                  "compare a.hdf b.hdf --rtol", "compare a.hdf b.hdf --atol"})
    EXPECT_NE(std::find(fractions.begin(), fractions.end(), name), fractions.end()) << name;
}

TEST(OptionValues, AnEmptyValueIsRefusedForEveryOption) {
  int checked = 0;
  for (const FoundOption& option : every_option_with_a_value()) {
    EXPECT_EQ(parse_exit(option, ""), 2) << shown(option) << " ''";
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

// No option takes a value longer than a path: a megabyte of digits is refused before any check
// reads it (one that recursed per character overflowed the stack on 100,000 digits).
TEST(OptionValues, AValueLongerThanAPathIsRefusedForEveryOption) {
  for (const FoundOption& option : every_option_with_a_value()) {
    EXPECT_EQ(parse_exit(option, std::string(100000, '1')), 2) << shown(option);
    EXPECT_EQ(parse_exit(option, std::string(100000, '1') + "x"), 2) << shown(option);
  }
}

TEST(OptionValues, UnsignedOptionsRefuseAMinusSign) {
  for (const FoundOption& option : every_option_with_a_value())
    if (option.name == "--seed") {
      EXPECT_EQ(parse_exit(option, "-1"), 2) << shown(option);
      EXPECT_EQ(parse_exit(option, "18446744073709551615"), -1) << shown(option);
      EXPECT_EQ(parse_exit(option, "18446744073709551616"), 2) << shown(option);
    }
}

// A spacing given as NaN (which the number check refuses before a plan is made) is refused by
// the plan too: "not given" is a flag of its own, not a NaN in the value.
TEST(OptionValues, ASpacingGivenAsNanIsNotTheDefaultSpacing) {
  for (const char* option : {"--h", "--hx", "--hy", "--hz"}) {
    RunOptions o;
    o.backend = "cpu";
    o.n = 12;
    const std::string name = option;
    double& value = name == "--h" ? o.h : name == "--hx" ? o.hx : name == "--hy" ? o.hy : o.hz;
    value = NAN;
    o.given.insert(name.substr(2));
    try {
      make_run_plan(o);
      ADD_FAILURE() << option << " nan was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name + " nan must be a positive number"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
// Numbers in messages read back as the value, whole ones as their digits ("--n 20", not "2e+01").
TEST(NumberText, WholeNumbersAreDigitsAndOthersTheShortestTextThatReadsBack) {
  EXPECT_EQ(number_text(20), "20");
  EXPECT_EQ(number_text(-3), "-3");
  EXPECT_EQ(number_text(600), "600");
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(1e-6), "1e-06");
  EXPECT_EQ(number_text(1e20), "1e+20");
  EXPECT_EQ(number_text(2.5), "2.5");
}

}  // namespace heat
