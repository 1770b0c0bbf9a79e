// Parsing and validation of a sweep config (include/rmtsweep/config/config.hpp).
#include "rmtsweep/config/config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/option_table.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/simulate/options.hpp"

namespace rmtsweep::config {
namespace {

/// The most values a range start:stop:count gives: no more can fit the resolved config, which the file
/// stores in at most max_resolved_config_bytes and where each value takes at least two bytes (a digit and
/// a comma). That size is the real limit of every axis, list or range (parse_sweep_config checks it).
constexpr std::int64_t max_range_count = static_cast<std::int64_t>(max_resolved_config_bytes / 2);

const std::string axis_allowed =
    "allowed: a list a,b,c, a range start:stop:count or log:start:stop:count (1 <= count <= " +
    std::to_string(max_range_count) + ", distinct values; every axis written out fits in the " +
    std::to_string(max_resolved_config_bytes) + "-byte config the file stores)";

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream stream(text);
  while (std::getline(stream, item, separator)) items.push_back(item);
  if (!text.empty() && text.back() == separator) items.emplace_back();
  return items;
}

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

bool is_number(const std::string& text) {
  double value = 0.0;
  const char* begin = text.data() + (!text.empty() && text.front() == '+' ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && ptr == text.data() + text.size();
}

std::int64_t parse_bounded(const std::string& text, const std::string& key, std::int64_t low,
                           std::int64_t high, const std::string& allowed) {
  const std::int64_t value = model::parse_integer(text, key, allowed);
  if (value < low || value > high) throw InvalidOption(key, text, allowed);
  return value;
}

bool parse_bool(const std::string& text, const std::string& key) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  throw InvalidOption(key, text, "allowed: true, false, yes, no, on, off, 1, 0 or auto");
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? "," : "") + items[i];
  return text;
}

std::string number_list(const std::vector<double>& values) {
  std::vector<std::string> items;
  for (const double v : values) items.push_back(model::format_double(v));
  return join(items);
}

/// Checks every (d, delta, gamma, snr, weighting) combination with model::validate.
void validate_points(const SweepConfig& c) {
  model::PointParams p;
  p.T = c.T;
  p.correlation = c.correlation;
  p.table = c.table;
  p.seed = c.seed;
  p.trial = c.trials - 1;
  for (const int d : c.d) {
    p.d = d;
    for (const double delta : c.delta) {
      for (const double gamma : c.gamma) {
        for (const double snr : c.snr) {
          for (const auto& weighting : c.weighting) {
            p.delta = delta;
            p.gamma = gamma;
            p.snr = snr;
            p.weighting = weighting;
            model::validate(p);
            simulate::check_simulable_sizes(p);  // accepted, every point would fail
          }
        }
      }
    }
  }
}

/// Refuses grids of more than max_sweep_points points (the point order is broadcast with an
/// int count, and every point gets a row in each early-allocated dataset), computed without
/// overflow; blames the key with the most values.
template <class Get>
void check_point_count(const SweepConfig& c, const Get& get) {
  const std::vector<std::pair<const char*, std::size_t>> extents{
      {"d", c.d.size()},
      {"delta", c.delta.size()},
      {"gamma", c.gamma.size()},
      {"snr", c.snr.size()},
      {"weighting", c.weighting.size()},
      {"trials", static_cast<std::size_t>(c.trials)}};
  double points = 1.0;
  const char* largest = "trials";
  std::size_t most = 0;
  for (const auto& [key, size] : extents) {
    points *= static_cast<double>(size);
    if (size > most) {
      most = size;
      largest = key;
    }
  }
  if (points > static_cast<double>(max_sweep_points)) {
    throw InvalidOption(largest, get(largest, ""),
                        "allowed: a grid of at most " + std::to_string(max_sweep_points) +
                            " points (d x delta x gamma x snr x weighting x trials); this one has " +
                            model::format_double(points));
  }
}

/// A decimal text as mantissa x 10^exponent ("0.25" -> 25 x 10^-2, "1e-3" -> 1 x 10^-3); nullopt for
/// anything else (inf, hexadecimal) or past 18 digits.
struct Decimal {
  std::int64_t mantissa = 0;
  int exponent = 0;
};
std::optional<Decimal> decimal_of(const std::string& text) {
  Decimal d;
  std::size_t i = 0, digits = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  bool point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
    } else if (c >= '0' && c <= '9') {
      if (++digits > 18) return std::nullopt;
      d.mantissa = d.mantissa * 10 + (c - '0');
      if (point) --d.exponent;
    } else {
      break;
    }
  }
  if (digits == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    int power = 0;
    const auto [end, ec] =
        std::from_chars(text.data() + i + 1 + (text[i + 1] == '+' ? 1 : 0), text.data() + text.size(), power);
    if (ec != std::errc{} || end != text.data() + text.size() || power < -300 || power > 300)
      return std::nullopt;
    d.exponent += power;
  } else if (i != text.size()) {
    return std::nullopt;
  }
  if (negative) d.mantissa = -d.mantissa;
  return d;
}

/// The count values of the linear range start:stop:count as the decimals they stand for: value i is
/// start + i (stop - start) / (count - 1) computed exactly in decimal and converted once (0.2:1.6:8 gives
/// 0.6, not 0.6000000000000001), so every value is the number a user would type. nullopt when a step is
/// not a finite decimal (0:1:4, thirds) or the digits overflow: the range is then computed in binary.
std::optional<std::vector<double>> decimal_range(const std::string& start, const std::string& stop,
                                                 std::int64_t count) {
  const auto a = decimal_of(start), b = decimal_of(stop);
  if (!a || !b || count < 2) return std::nullopt;
  const int exponent = std::min(a->exponent, b->exponent);
  const auto scaled = [&](const Decimal& d, int by, std::int64_t& out) {
    out = d.mantissa;
    for (int k = 0; k < by; ++k) {
      if (__builtin_mul_overflow(out, std::int64_t{10}, &out)) return false;
    }
    return true;
  };
  std::int64_t first = 0, last = 0;
  if (!scaled(*a, a->exponent - exponent, first) || !scaled(*b, b->exponent - exponent, last))
    return std::nullopt;
  std::int64_t span = 0;
  if (__builtin_sub_overflow(last, first, &span)) return std::nullopt;
  // The fewest more decimals p that make the step span 10^p / (count - 1) a whole number.
  const std::int64_t steps = count - 1;
  for (int p = 0; p <= 18; ++p) {
    if (span % steps == 0) {
      const std::int64_t step = span / steps;
      std::vector<double> values;
      for (std::int64_t i = 0; i < count; ++i) {
        std::int64_t value = 0;
        if (__builtin_mul_overflow(step, i, &value) || __builtin_add_overflow(value, first, &value))
          return std::nullopt;
        values.push_back(std::stod(std::to_string(value) + "e" + std::to_string(exponent - p)));
      }
      return values;
    }
    if (__builtin_mul_overflow(span, std::int64_t{10}, &span) ||
        __builtin_mul_overflow(first, std::int64_t{10}, &first))
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> names;
    for (const OptionSpec& spec : option_table()) {
      if (spec.use & in_sweep) names.emplace_back(spec.name);
    }
    return names;
  }();
  return keys;
}

std::vector<std::string> shown_config_keys() {
  std::vector<std::string> names;
  for (const OptionSpec& spec : option_table()) {
    if ((spec.use & in_sweep) && !spec.test_only) names.emplace_back(spec.name);
  }
  return names;
}

const char* spectra_setting(SpectraSetting setting) noexcept {
  switch (setting) {
    case SpectraSetting::always:
      return "true";
    case SpectraSetting::never:
      return "false";
    case SpectraSetting::automatic:
      break;
  }
  return "auto";
}

simulate::SimulationOptions simulation_options(const SweepConfig& c, int d) {
  simulate::SimulationOptions options;
  options.k = c.k;
  options.ridge = c.ridge;
  options.ntest = c.ntest;
  options.spectrum = c.spectra_stored(d);
  options.eigensolver = reducer_of(c.eigensolver);
  options.engine = engine_of(c.eigensolver);
  return options;
}

bool SweepConfig::lines_apply(const model::Weighting& w) const noexcept {
  return lines == LinesSetting::automatic && snr.size() >= 2 && !w.data_dependent();
}

std::int64_t SweepConfig::point_count() const { return static_cast<std::int64_t>(d.size()) * points_per_d(); }

std::int64_t SweepConfig::points_per_d() const {
  return static_cast<std::int64_t>(delta.size() * gamma.size() * snr.size() * weighting.size()) * trials;
}

bool SweepConfig::spectra_stored(int size) const noexcept {
  switch (store_spectra) {
    case SpectraSetting::always:
      return true;
    case SpectraSetting::never:
      return false;
    case SpectraSetting::automatic:
      break;
  }
  return size <= max_auto_spectrum_d;
}

bool SweepConfig::any_spectra() const noexcept {
  return std::any_of(d.begin(), d.end(), [this](int size) { return spectra_stored(size); });
}

int SweepConfig::smallest_d() const noexcept { return d.empty() ? 0 : *std::min_element(d.begin(), d.end()); }

std::vector<int> parse_d_axis(const std::string& text) {
  const std::string allowed =
      "allowed: distinct integers d >= 1 as a list a,b,c, a range start:stop:count or log:start:stop:count "
      "(range values rounded to the nearest integer)";
  const std::string body = trim(text);
  const bool range = body.find(':') != std::string::npos;
  std::vector<int> sizes;
  if (range) {
    for (const double value : parse_axis(body, "d")) {
      const double rounded = std::round(value);
      if (!(rounded >= 1.0 && rounded <= 2147483647.0)) throw InvalidOption("d", text, allowed);
      sizes.push_back(static_cast<int>(rounded));
    }
  } else {
    for (const std::string& item : split(body, ',')) {
      const std::int64_t value = model::parse_integer(trim(item), "d", allowed, text);
      if (value < 1 || value > 2147483647) throw InvalidOption("d", text, allowed);
      sizes.push_back(static_cast<int>(value));
    }
  }
  if (sizes.empty()) throw InvalidOption("d", text, allowed);
  std::vector<int> sorted = sizes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InvalidOption("d", text, allowed);
  return sizes;
}

std::vector<double> parse_axis(const std::string& raw, const std::string& option) {
  const std::string text = trim(raw);
  std::vector<double> values;
  const bool logarithmic = text.starts_with("log:");
  const std::string body = logarithmic ? text.substr(4) : text;
  if (logarithmic || body.find(':') != std::string::npos) {
    const std::vector<std::string> parts = split(body, ':');
    if (parts.size() != 3) throw InvalidOption(option, raw, axis_allowed);
    const double start = model::parse_double(trim(parts[0]), option, axis_allowed, raw);
    const double stop = model::parse_double(trim(parts[1]), option, axis_allowed, raw);
    const std::int64_t count = model::parse_integer(trim(parts[2]), option, axis_allowed, raw);
    if (count < 1 || count > max_range_count || (count == 1 && start != stop))
      throw InvalidOption(option, raw, axis_allowed);
    if (logarithmic && !(start > 0.0 && stop > 0.0)) {
      // Steps of log10 need both ends > 0: say which end is not, rather than the syntax again.
      const bool start_bad = !(start > 0.0);
      throw InvalidOption(option, raw,
                          "the log: range's " + std::string(start_bad ? "start " : "stop ") +
                              trim(parts[start_bad ? 0 : 1]) +
                              " is not > 0 (log:start:stop:count steps evenly in log10, so both ends must "
                              "be > 0; for a range through 0 use start:stop:count); " +
                              axis_allowed);
    }
    // A log range steps the decimal exponent: 10^(log10 start + (log10 stop - log10 start) i / (count - 1)),
    // the product taken before the division, so that exact decades come out exact (log:1:100:3 is
    // 1,10,100, where exp/log gave 10.000000000000002). Both ends are always exactly as given.
    const double steps = static_cast<double>(std::max<std::int64_t>(count - 1, 1));
    const double first = logarithmic ? std::log10(start) : 0.0, last = logarithmic ? std::log10(stop) : 0.0;
    const auto decimals = logarithmic ? std::nullopt : decimal_range(trim(parts[0]), trim(parts[1]), count);
    if (decimals) values = *decimals;
    for (std::int64_t i = 0; i < count && !decimals; ++i) {
      const double k = static_cast<double>(i);
      double v = logarithmic ? std::pow(10.0, first + (last - first) * k / steps)
                             : start + k / steps * (stop - start);
      if (i == 0) v = start;
      if (i == count - 1) v = stop;
      values.push_back(v);
    }
  } else {
    for (const std::string& item : split(body, ',')) {
      values.push_back(model::parse_double(trim(item), option, axis_allowed, raw));
    }
  }
  if (values.empty()) throw InvalidOption(option, raw, axis_allowed);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InvalidOption(option, raw, axis_allowed);
  return values;
}

std::vector<std::string> split_weighting_list(const std::string& text) {
  const std::string allowed =
      "allowed: a comma-separated list of weightings; a plain number continues the custom:... item before it";
  std::vector<std::string> items;
  for (const std::string& raw : split(text, ',')) {
    const std::string token = trim(raw);
    if (is_number(token)) {
      if (items.empty() || !items.back().starts_with("custom:"))
        throw InvalidOption("weighting", text, allowed);
      items.back() += "," + token;
    } else {
      if (token.empty()) throw InvalidOption("weighting", text, allowed);
      items.push_back(token);
    }
  }
  if (items.empty()) throw InvalidOption("weighting", text, allowed);
  return items;
}

void require_top_four(const SweepConfig& c) { require_top_four(c.k, c.smallest_d()); }

void require_top_four(int k, int d) {
  if (k < std::min(4, d)) {
    throw InvalidOption("k", std::to_string(k),
                        k_allowed(d) + " (model.md 1.2 records at least the top 4 eigenvalues)");
  }
}

SweepConfig parse_sweep_config(const std::map<std::string, std::string>& values) {
  const auto& keys = config_keys();
  for (const auto& [key, value] : values) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      throw InvalidOption(key, value, "unknown key; allowed keys: " + join(shown_config_keys()));
    }
  }
  // The value given, else the option's one default (option_table.hpp).
  auto get = [&](const std::string& key, const std::string& fallback) {
    const auto it = values.find(key);
    return it == values.end() ? fallback : trim(it->second);
  };
  const auto value = [&](const std::string& key) { return get(key, default_of(key)); };
  SweepConfig c;
  c.d = parse_d_axis(value("d"));
  c.T = parse_T(value("T"));
  c.correlation = model::parse_correlation(value("correlation"), c.T, "correlation");
  c.table = model::parse_table(value("table"), "table");
  c.seed = parse_seed(value("seed"));
  c.trials = parse_trials(value("trials"));
  c.delta = parse_axis(value("delta"), "delta");
  c.gamma = parse_axis(value("gamma"), "gamma");
  c.snr = parse_axis(value("snr"), "snr");
  c.weighting.clear();
  std::set<std::string> seen;
  const std::string weighting_text = value("weighting");
  for (const std::string& item : split_weighting_list(weighting_text)) {
    c.weighting.push_back(model::parse_weighting(item, c.T, "weighting"));
    if (!seen.insert(model::to_string(c.weighting.back())).second) {
      throw InvalidOption("weighting", weighting_text, "allowed: distinct weightings");
    }
  }
  // Any k from 1 reads back (a stored config may predate require_top_four); the default 4 shrinks to d.
  c.k = parse_k(value("k"), c.smallest_d(), values.find("k") == values.end());
  c.ridge = parse_sweep_ridge(value("ridge"));
  c.ntest = parse_ntest(value("ntest"));
  const std::string spectra = value("store_spectra");
  c.store_spectra = spectra == spectra_setting(SpectraSetting::automatic) ? SpectraSetting::automatic
                    : parse_bool(spectra, "store_spectra")                ? SpectraSetting::always
                                                                          : SpectraSetting::never;
  c.ranks_per_point =
      static_cast<int>(parse_bounded(value("ranks_per_point"), "ranks_per_point", 1, 2147483647,
                                     "allowed: an integer >= 1 that divides the number of ranks"));
  c.eigensolver = parse_eigensolver(value("eigensolver"));
  c.lines = parse_lines(value("lines"));
  check_point_count(c, get);
  try {
    validate_points(c);
  } catch (const InvalidArgument& e) {  // the checks see numbers: say the value as given (1e-9, not 1e-09)
    throw InvalidOption(e.name(), get(e.name(), e.value()), e.allowed());
  }
  require_spectrum_engine(c.eigensolver, c.any_spectra(), get("eigensolver", ""),
                          "store_spectra = " + get("store_spectra", default_of("store_spectra")) +
                              " (a spectrum stored for d = " + std::to_string(c.smallest_d()) + ")",
                          "store_spectra = false");
  // The resolved text is stored as the file's `config` attribute, and an attribute of the
  // default (earliest, any-h5py) file format holds at most 64 KiB: refuse here, before any
  // file exists, rather than abort halfway through creating it. Blame the longest line's key.
  const std::string resolved = resolved_config_text(c);
  if (resolved.size() > max_resolved_config_bytes) {
    std::string longest;
    for (const std::string& line : split(resolved, '\n')) {
      if (line.size() > longest.size()) longest = line;
    }
    const std::string key = longest.substr(0, longest.find(' '));
    throw InvalidOption(key, get(key, ""),
                        "allowed: fewer values; the resolved config (every axis value written out) is " +
                            std::to_string(resolved.size()) + " bytes, at most " +
                            std::to_string(max_resolved_config_bytes) +
                            " fit in the file's config attribute");
  }
  if (const std::string pause = get("unit_pause", ""); !pause.empty()) {
    const std::string allowed = "allowed: seconds from 0 to 10";
    c.unit_pause = model::parse_double(trim(pause), "unit_pause", allowed, pause);
    if (!(c.unit_pause >= 0.0 && c.unit_pause <= 10.0)) throw InvalidOption("unit_pause", pause, allowed);
  }
  const std::string fail_text = get("fail_points", "");
  if (!fail_text.empty()) {
    const std::string allowed =
        "allowed: a list of point indices 0 <= i < " + std::to_string(c.point_count());
    for (const std::string& item : split(fail_text, ',')) {
      c.fail_points.push_back(parse_bounded(trim(item), "fail_points", 0, c.point_count() - 1, allowed));
    }
  }
  return c;
}

std::string resolved_config_text(const SweepConfig& c) {
  std::vector<std::string> weightings;
  for (const auto& w : c.weighting) weightings.push_back(model::to_string(w));
  std::ostringstream out;
  std::vector<std::string> sizes;
  for (const int d : c.d) sizes.push_back(std::to_string(d));
  const bool every_size = std::all_of(c.d.begin(), c.d.end(), [&](int d) { return c.spectra_stored(d); });
  out << "d = " << join(sizes) << "\n"
      << "T = " << c.T << "\n"
      << "correlation = " << model::to_string(c.correlation) << "\n"
      << "table = " << model::to_string(c.table) << "\n"
      << "seed = " << c.seed << "\n"
      << "trials = " << c.trials << "\n"
      << "delta = " << number_list(c.delta) << "\n"
      << "gamma = " << number_list(c.gamma) << "\n"
      << "snr = " << number_list(c.snr) << "\n"
      << "weighting = " << join(weightings) << "\n"
      << "k = " << c.k << "\n"
      << "ridge = " << model::format_double(c.ridge) << "\n"
      << "ntest = " << c.ntest << "\n"
      << "store_spectra = "
      << (every_size        ? "true"
          : c.any_spectra() ? "auto"
                            : "false")
      << "\n";
  return out.str();
}

std::string resolved_config_json(const SweepConfig& c) {
  nlohmann::ordered_json out;
  std::vector<std::string> weightings;
  for (const auto& w : c.weighting) weightings.push_back(model::to_string(w));
  const bool every_size = std::all_of(c.d.begin(), c.d.end(), [&](int d) { return c.spectra_stored(d); });
  out["d"] = c.d;
  out["T"] = c.T;
  out["correlation"] = model::to_string(c.correlation);
  out["table"] = model::to_string(c.table);
  out["seed"] = c.seed;
  out["trials"] = c.trials;
  out["delta"] = c.delta;
  out["gamma"] = c.gamma;
  out["snr"] = c.snr;
  out["weighting"] = weightings;
  out["k"] = c.k;
  out["ridge"] = c.ridge;
  out["ntest"] = c.ntest;
  out["store_spectra"] = every_size        ? nlohmann::ordered_json(true)
                         : c.any_spectra() ? nlohmann::ordered_json("auto")
                                           : nlohmann::ordered_json(false);
  out["ranks_per_point"] = c.ranks_per_point;
  out["eigensolver"] = eigensolver_setting(c.eigensolver);
  return out.dump();
}

namespace {

const std::vector<std::string> axis_keys{"delta", "gamma", "snr"};

/// The key and the numbers of a resolved text's axis line ("snr = 1,10,100"); nullopt for another line.
std::optional<std::pair<std::string, std::vector<double>>> axis_line(const std::string& line) {
  const auto equals = line.find(" = ");
  if (equals == std::string::npos) return std::nullopt;
  const std::string key = line.substr(0, equals);
  if (std::find(axis_keys.begin(), axis_keys.end(), key) == axis_keys.end()) return std::nullopt;
  std::vector<double> values;
  for (const std::string& item : split(line.substr(equals + 3), ',')) {
    double value = 0.0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc{} || end != item.data() + item.size()) return std::nullopt;
    values.push_back(value);
  }
  return std::make_pair(key, values);
}

/// Equal lines, or the same axis with values equal up to rounding (relative 1e-12).
bool same_line(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const auto axis_a = axis_line(a), axis_b = axis_line(b);
  if (!axis_a || !axis_b || axis_a->first != axis_b->first || axis_a->second.size() != axis_b->second.size())
    return false;
  for (std::size_t i = 0; i < axis_a->second.size(); ++i) {
    const double x = axis_a->second[i], y = axis_b->second[i];
    if (std::abs(x - y) > 1e-12 * std::max(std::abs(x), std::abs(y))) return false;
  }
  return true;
}

/// The lines of `a` with no same_line in `b`, each prefixed with `mark`.
void lines_missing(const std::vector<std::string>& a, const std::vector<std::string>& b, const char* mark,
                   std::vector<std::string>& out) {
  for (const auto& line : a) {
    if (line.empty()) continue;
    if (std::none_of(b.begin(), b.end(), [&](const std::string& other) { return same_line(line, other); }))
      out.push_back(mark + line);
  }
}

}  // namespace

std::vector<std::string> config_differences(const std::string& a, const std::string& b) {
  const std::vector<std::string> lines_a = split(a, '\n'), lines_b = split(b, '\n');
  std::vector<std::string> differences;
  lines_missing(lines_a, lines_b, "- ", differences);
  lines_missing(lines_b, lines_a, "+ ", differences);
  return differences;
}

bool same_sweep(const std::string& stored, const std::string& given) {
  const std::vector<std::string> lines_a = split(stored, '\n'), lines_b = split(given, '\n');
  if (lines_a.size() != lines_b.size()) return false;
  for (std::size_t i = 0; i < lines_a.size(); ++i) {
    if (!same_line(lines_a[i], lines_b[i])) return false;
  }
  return true;
}

SweepConfig with_stored_axes(SweepConfig config, const std::string& stored) {
  for (const std::string& line : split(stored, '\n')) {
    const auto axis = axis_line(line);
    if (!axis) continue;
    if (axis->first == "delta") config.delta = axis->second;
    if (axis->first == "gamma") config.gamma = axis->second;
    if (axis->first == "snr") config.snr = axis->second;
  }
  return config;
}

}  // namespace rmtsweep::config
