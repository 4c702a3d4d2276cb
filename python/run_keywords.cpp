#include "python/run_keywords.hpp"

#include <CLI/CLI.hpp>

#include "apps/run_options.hpp"
#include "python/arguments.hpp"
#include "core/errors.hpp"

namespace heat::python {
namespace {

// An option's value type as CLI11 names it ("INT", "UINT:UINT64", "[INT,INT,INT]"): its first
// item's type, without the validator's description.
std::string item_type(const CLI::Option& option) {
  std::string type = option.get_type_name();
  if (!type.empty() && type.front() == '[') type.erase(0, 1);
  return type.substr(0, type.find_first_of(",:]"));
}

// One value of `option` as the word CLI11 parses; `key` names it in messages.
std::string value_word(const CLI::Option& option, py::handle value, const std::string& key) {
  const std::string type = item_type(option);
  if (type == "INT") return std::to_string(int_argument(value, key));
  if (type == "UINT") return std::to_string(uint64_argument(value, key));
  if (type == "FLOAT") return py::str(py::float_(real_argument(value, key)));  // repr: the shortest exact decimal
  return text_argument(value, key);
}

void add_words(std::vector<std::string>& words, const CLI::Option& option, py::handle value, const std::string& key) {
  const std::string name = option.get_name();
  if (option.get_items_expected_max() == 0) {  // a flag
    if (bool_argument(value, key)) words.push_back(name);
    return;
  }
  const int items = option.get_items_expected_max();
  if (items == 1) {
    // --name=value: a value that starts with '-' stays a value.
    words.push_back(name + "=" + value_word(option, value, key));
    return;
  }
  const bool sequence = py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value) &&
                        !py::isinstance<py::bytes>(value);
  if (!sequence || py::len(value) != std::size_t(items))
    throw py::type_error(key + "=" + value_text(value) + ": " + key + " takes " + std::to_string(items) +
                         " values, a tuple or list such as (1, 2, 1)");
  words.push_back(name);
  for (const auto& item : value) words.push_back(value_word(option, item, key));
}

}  // namespace

std::vector<std::string> run_words(const py::kwargs& options) {
  CLI::App table;
  table.set_help_flag();
  RunOptions scratch;
  add_run_options(table, scratch);
  std::vector<std::string> words;
  for (const auto& [key_object, value] : options) {
    const std::string key = key_object.cast<std::string>();
    if (key == "help")
      throw InputError("help=" + value_text(value) +
                       ": heatrk4.run does not print help; help(heatrk4.run) describes it and `heatrk4 --help` "
                       "lists the run options (the keywords, with '_' for '-')");
    std::string name = "--" + key;
    for (char& c : name)
      if (c == '_') c = '-';
    const CLI::Option* option = table.get_option_no_throw(name);
    if (!option)
      throw InputError(key + "=" + value_text(value) + ": heatrk4.run has no option " + name +
                       " (`heatrk4 --help` lists them; keywords take '_' for '-')");
    if (!value.is_none()) add_words(words, *option, value, key);
  }
  return words;
}

}  // namespace heat::python
