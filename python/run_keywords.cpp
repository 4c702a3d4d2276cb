#include "python/run_keywords.hpp"

#include "apps/config_file.hpp"
#include "apps/run_option_table.hpp"
#include "core/errors.hpp"
#include "python/arguments.hpp"

namespace heat::python {
namespace {

std::array<int, 3> three_integers(py::handle value, const std::string& key) {
  const bool sequence = py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value) &&
                        !py::isinstance<py::bytes>(value);
  if (!sequence || py::len(value) != 3)
    throw py::type_error(key + "=" + value_text(value) + ": " + key + " takes 3 values, a tuple or list such as (1, 2, 1)");
  std::array<int, 3> items{};
  for (int n = 0; n < 3; ++n) items[std::size_t(n)] = int_argument(value[py::int_(n)], key);
  return items;
}

// A str, or a list or tuple of them: one value or several of a repeatable option.
std::vector<std::string> texts(py::handle value, const std::string& key) {
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) return {text_argument(value, key)};
  std::vector<std::string> items;
  for (py::handle item : value) items.push_back(text_argument(item, key));
  return items;
}

OptionValue keyword_value(const RunOption& option, py::handle value, const std::string& key) {
  switch (option.type) {
    case OptionType::Flag: return bool_argument(value, key);
    case OptionType::Integer: return int_argument(value, key);
    case OptionType::Seed: return uint64_argument(value, key);
    case OptionType::Number: return real_argument(value, key);
    case OptionType::ThreeIntegers: return three_integers(value, key);
    case OptionType::TextList: return texts(value, key);
    case OptionType::Text: break;
  }
  return text_argument(value, key);
}

}  // namespace

RunOptions run_options_from_keywords(const py::kwargs& keywords) {
  RunOptions options;
  for (const auto& [key_object, value] : keywords) {
    const std::string key = key_object.cast<std::string>();
    if (key == "help")
      throw InputError("help=" + value_text(value) +
                       ": heatrk4.run does not print help; help(heatrk4.run) describes it and `heatrk4 --help` "
                       "lists the run options (the keywords, with '_' for '-')");
    std::string name = key;
    for (char& c : name)
      if (c == '_') c = '-';
    const RunOption* option = find_run_option(name);
    if (!option)
      throw InputError(key + "=" + value_text(value) + ": heatrk4.run has no option --" + name +
                       " (`heatrk4 --help` lists them; keywords take '_' for '-')");
    if (value.is_none()) continue;
    try {
      give_option(options, *option, keyword_value(*option, value, key));
    } catch (const InputError& e) {
      throw InputError(key + "=" + value_text(value) + ": " + e.what());
    }
  }
  if (options.was_given("config")) read_config_file(options);
  return options;
}

}  // namespace heat::python
