// rmtsweep._theory: the compiled part of rmtsweep.theory (python/rmtsweep/theory.py). One point's theory is
// theory_point_json, the function `rmtsweep theory --json` prints, so the numbers are the command's bit for
// bit; this file only loops it over arrays of delta, gamma and snr and hands the leaves back as arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "point_options.hpp"
#include "prediction_json.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/option_table.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/simulate/finite_t.hpp"
#include "theory_point.hpp"

namespace py = pybind11;

namespace rmtsweep::app {
namespace {

/// The leaves of the points' JSON objects, flattened ("levels.k"), one value per point: numbers as
/// doubles (null: NaN), booleans apart.
struct Leaf {
  std::vector<double> values;
  bool boolean = false;
};
using Leaves = std::map<std::string, Leaf>;

/// `value` with every leaf null: the shape of an object where a point has null ("levels" not computed).
nlohmann::json nulled(nlohmann::json value) {
  if (!value.is_object()) return nullptr;
  for (auto& [key, item] : value.items()) item = nulled(item);
  return value;
}

/// Stores the leaves of `value` (an object; arrays such as "measure" are not leaves) as point `i` of `count`.
void collect(const nlohmann::json& value, const std::string& path, std::size_t i, std::size_t count,
             Leaves& leaves) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items())
      collect(item, path.empty() ? key : path + "." + key, i, count, leaves);
    return;
  }
  if (value.is_array()) return;
  Leaf& leaf = leaves[path];
  if (leaf.values.empty()) leaf.values.assign(count, std::numeric_limits<double>::quiet_NaN());
  if (value.is_boolean()) {
    leaf.boolean = true;
    leaf.values[i] = value.get<bool>() ? 1.0 : 0.0;
  } else if (value.is_number()) {
    leaf.values[i] = value.get<double>();
  }
}

/// A JSON value as Python objects: objects as dicts, arrays of numbers as float64 arrays.
py::object to_python(const nlohmann::json& value) {
  if (value.is_object()) {
    py::dict out;
    for (const auto& [key, item] : value.items()) out[py::str(key)] = to_python(item);
    return out;
  }
  if (value.is_array()) {
    const auto numbers = value.get<std::vector<double>>();
    return py::array_t<double>(static_cast<py::ssize_t>(numbers.size()), numbers.data());
  }
  if (value.is_number()) return py::float_(value.get<double>());
  if (value.is_boolean()) return py::bool_(value.get<bool>());
  return py::none();
}

/// Raised for rmtsweep::InvalidOption with args (option, value, allowed); theory.py raises
/// rmtsweep.InvalidOption from them.
PyObject* invalid_option_type = nullptr;

/// The theory at `count` points: the options' texts (`texts`: option -> text, as the command line takes them;
/// absent ones take their defaults) with delta, gamma and snr from `axes` where given (arrays of `count`
/// doubles), written as their shortest round-trip decimals and parsed as the command line parses them. With
/// `finite_t`, the finite-T object of each point (each (delta, gamma)'s outlier built once), its "measure"
/// per outlier; else the paper's keys. Returns (leaves, measures, measure index per point, warnings).
py::tuple evaluate(
    const std::map<std::string, std::string>& texts,
    const std::map<std::string, py::array_t<double, py::array::c_style | py::array::forcecast>>& axes,
    std::size_t count, bool finite_t) {
  std::map<std::string, std::vector<double>> values;
  for (const auto& [name, array] : axes) {
    if (static_cast<std::size_t>(array.size()) != count)
      throw std::invalid_argument("rmtsweep._theory.evaluate: " + name + " holds " +
                                  std::to_string(array.size()) + " values, not " + std::to_string(count));
    values[name].assign(array.data(), array.data() + count);
  }
  Leaves leaves;
  std::vector<nlohmann::json> measures;
  std::vector<std::int64_t> measure_of(finite_t ? count : 0);
  std::vector<std::string> warnings;
  const nlohmann::json no_levels = nulled(finite_t_levels_json(theory::TopLevelPrediction{}));
  try {
    py::gil_scoped_release unlocked;
    std::map<std::pair<double, double>, std::pair<theory::FiniteTOutlier, std::int64_t>> outliers;
    std::map<std::string, std::string> point = texts;
    for (std::size_t i = 0; i < count; ++i) {
      for (const auto& [name, list] : values) point[name] = model::format_double(list[i]);
      const model::PointParams params = point_params_from(point);
      const theory::FiniteTOutlier* outlier = nullptr;
      if (finite_t) {
        auto found = outliers.find({params.delta, params.gamma});
        if (found == outliers.end()) {
          const auto d = point.find("d");
          check_finite_t_fits(params, d != point.end() ? d->second : config::default_of("d"));
          theory::FiniteTOutlier built = simulate::build_finite_t_outlier(params);
          measures.push_back(spectral_measures_json(built));
          found =
              outliers
                  .emplace(std::make_pair(params.delta, params.gamma),
                           std::make_pair(std::move(built), static_cast<std::int64_t>(measures.size()) - 1))
                  .first;
        }
        outlier = &found->second.first;
        measure_of[i] = found->second.second;
      }
      std::string failure;
      nlohmann::json out = theory_point_json(params, outlier, false, failure);
      if (!failure.empty())
        warnings.push_back("the finite-T top levels failed at delta " + model::format_double(params.delta) +
                           ", gamma " + model::format_double(params.gamma) + ", snr " +
                           model::format_double(params.snr) + " (" + failure + ")");
      if (finite_t) {
        nlohmann::json& object = out["finite_t"];
        if (object["levels"].is_null()) object["levels"] = no_levels;
        collect(object, "", i, count, leaves);
      } else {
        out.erase("finite_t");
        collect(out, "", i, count, leaves);
      }
    }
  } catch (const InvalidOption& e) {
    PyErr_SetObject(invalid_option_type, py::make_tuple(e.option(), e.value(), e.allowed()).ptr());
    throw py::error_already_set();
  }
  py::dict arrays;
  for (auto& [name, leaf] : leaves) {
    py::array_t<double> numbers(static_cast<py::ssize_t>(count));
    std::copy(leaf.values.begin(), leaf.values.end(), numbers.mutable_data());
    arrays[py::str(name)] = leaf.boolean ? py::object(numbers.attr("astype")("bool")) : py::object(numbers);
  }
  py::list measure_list;
  for (const nlohmann::json& measure : measures) measure_list.append(to_python(measure));
  return py::make_tuple(
      arrays, measure_list,
      py::array_t<std::int64_t>(static_cast<py::ssize_t>(measure_of.size()), measure_of.data()), warnings);
}

/// The point options (name, default text) in the order of `rmtsweep theory --help`.
std::vector<std::pair<std::string, std::string>> options() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& name : point_option_names()) out.emplace_back(name, config::default_of(name));
  return out;
}

}  // namespace
}  // namespace rmtsweep::app

PYBIND11_MODULE(_theory, m) {
  m.doc() = "rmtsweep's theory (the functions `rmtsweep theory` calls); use it through rmtsweep.theory";
  static py::exception<rmtsweep::InvalidOption> invalid(m, "InvalidOptionError", PyExc_ValueError);
  rmtsweep::app::invalid_option_type = invalid.ptr();
  m.def("evaluate", &rmtsweep::app::evaluate, py::arg("texts"), py::arg("axes"), py::arg("count"),
        py::arg("finite_t"),
        "(leaves, measures, measure_of, warnings) of `rmtsweep theory --json` at count points");
  m.def("options", &rmtsweep::app::options, "the point options (name, default) of `rmtsweep theory`");
}
