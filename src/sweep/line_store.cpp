// /lines of a sweep file (include/rmtsweep/sweep/line_store.hpp).
#include "rmtsweep/sweep/line_store.hpp"

#include <algorithm>
#include <limits>

#include "column_io.hpp"
#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/simulate/line.hpp"

namespace rmtsweep::sweep {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// The columns a size's rows need: d where a line of the size may take the dense engine (its poles are S0''s d
/// eigenvalues, or the Gram matrix's N < d), else the Krylov basis's most vectors (the budget, at most d).
hsize_t row_width(const SweepConfig& with_setting, std::size_t n) {
  SweepConfig config = with_setting;
  config.lines = LinesSetting::automatic;  // the layout does not depend on the run's setting
  const int d = config.d[n];
  const simulate::SimulationOptions options = simulation_options(config, d);
  bool dense = false;
  for (const double delta : config.delta) {
    for (const double gamma : config.gamma) {
      for (const model::Weighting& w : config.weighting) {
        if (!config.lines_apply(w)) continue;
        model::PointParams p;
        p.d = d;
        p.T = config.T;
        p.delta = delta;
        p.gamma = gamma;
        p.weighting = w;
        p.correlation = config.correlation;
        p.table = config.table;
        dense = dense || !simulate::line_takes_krylov_modelled(p, options);
      }
    }
  }
  const long long budget = simulate::krylov_budget(options);
  return static_cast<hsize_t>(dense ? d : std::min<long long>(d, budget));
}

constexpr LineDatasetEntry datasets[] = {
    {"line", "lines of size d", "the grid line (a point's flattened index without its snr position) of each row"},
    {"pole_index", "width (no values)", "position of the pole (snr-free eigenvalue), ascending"},
    {"count", "lines of size d",
     "poles a row holds; 0 where the line was not computed by the line engine (docs/model.md section 9)"},
    {"poles", "lines of size d x width",
     "eigenvalues of the line's snr-free part S0' (or K0', or their Ritz values), ascending; NaN past count"},
    {"signal", "lines of size d x width", "g: the rank-one update's vector per unit sqrt(snr), in that eigenbasis"},
    {"offset", "lines of size d x width", "a: the rank-one update's vector at snr = 0, in that eigenbasis"},
    {"rho", "lines of size d", "rho: M(r) = diag(poles) + rho (r g + a)(r g + a)^T, r = sqrt(snr)"},
    {"form", "lines of size d",
     "0: M is S in its snr-free eigenbasis (overlap (w^T g)^2); 1: the N x N Gram matrix (N < d)"},
    {"converged", "lines of size d",
     "1 where every snr of the line converged (dense rows, and a Krylov basis that did); 0 otherwise"},
};

/// The description of dataset `name`.
std::string_view description_of(std::string_view name) {
  for (const LineDatasetEntry& e : datasets) {
    if (e.name == name) return e.description;
  }
  return {};
}


}  // namespace

std::span<const LineDatasetEntry> line_datasets() { return datasets; }

std::string lines_group_of(int d) { return std::string(lines_group) + "/d" + std::to_string(d); }

bool stores_lines(const SweepConfig& config) {
  SweepConfig with_lines = config;
  with_lines.lines = LinesSetting::automatic;
  return std::any_of(config.weighting.begin(), config.weighting.end(),
                     [&](const model::Weighting& w) { return with_lines.lines_apply(w); });
}

double line_data_bytes(const Grid& grid) {
  const SweepConfig& config = grid.config();
  if (!stores_lines(config)) return 0.0;
  const double rows = static_cast<double>(grid.line_count()) / static_cast<double>(config.d.size());
  double bytes = 0.0;
  for (std::size_t n = 0; n < config.d.size(); ++n)
    bytes += rows * (3.0 * 8.0 * static_cast<double>(row_width(config, n)) + 5.0 * 8.0);
  return bytes;
}

void create_line_datasets(hid_t file, const Grid& grid, bool writer) {
  const SweepConfig& config = grid.config();
  const io::Group group = io::create_group(file, std::string(lines_group));
  detail::describe(group, "per size, the secular form of every line computed as a line (docs/model.md section 9)");
  const auto rows = static_cast<hsize_t>(grid.line_count() / static_cast<std::int64_t>(config.d.size()));
  for (std::size_t n = 0; n < config.d.size(); ++n) {
    const std::string base = lines_group_of(config.d[n]) + "/";
    const io::Group size = io::create_group(file, lines_group_of(config.d[n]));
    const hsize_t width = row_width(config, n);
    // Named dimensions (netCDF-4 dimension scales): the coordinate `line`, and `pole_index` without values.
    const io::Dataset line = io::create_int_dataset(file, base + "line", {rows});
    detail::describe(line, description_of("line"));
    io::make_coordinate(line);
    io::write_cf_attributes(line, dimension::line.long_name, dimension::line.units);
    const io::Dataset pole = io::create_dimension_only(file, base + "pole_index", width);
    detail::describe(pole, description_of("pole_index"));
    io::write_cf_attributes(pole, dimension::pole_index.long_name, dimension::pole_index.units);
    const auto per_line = [&](io::Dataset set, const char* name, const char* units) {
      detail::describe(set, description_of(name));
      io::write_cf_attributes(set, {}, units);
      io::attach_scale(set, line, 0);
      if (io::shape(set).size() == 2) io::attach_scale(set, pole, 1);
    };
    per_line(io::create_int_dataset(file, base + "count", {rows}), "count", "");
    per_line(io::create_double_dataset(file, base + "poles", {rows, width}), "poles", "1");
    per_line(io::create_double_dataset(file, base + "signal", {rows, width}), "signal", "1");
    per_line(io::create_double_dataset(file, base + "offset", {rows, width}), "offset", "1");
    per_line(io::create_double_dataset(file, base + "rho", {rows}), "rho", "1");
    per_line(io::create_int_dataset(file, base + "form", {rows}), "form", "");
    per_line(io::create_int_dataset(file, base + "converged", {rows}), "converged", "");
    if (writer) {
      std::vector<std::int64_t> index(rows);
      for (hsize_t r = 0; r < rows; ++r) index[r] = static_cast<std::int64_t>(n * rows + r);
      io::write(line, index);
    }
  }
}

LineStore::LineStore(hid_t file, const Grid& grid) {
  const SweepConfig& config = grid.config();
  if (!io::exists(file, std::string(lines_group))) return;
  lines_per_d_ = grid.line_count() / static_cast<std::int64_t>(config.d.size());
  for (const int d : config.d) {
    const std::string base = lines_group_of(d) + "/";
    Size size;
    size.line = io::open_dataset(file, base + "line");
    size.count = io::open_dataset(file, base + "count");
    size.poles = io::open_dataset(file, base + "poles");
    size.signal = io::open_dataset(file, base + "signal");
    size.offset = io::open_dataset(file, base + "offset");
    size.rho = io::open_dataset(file, base + "rho");
    size.form = io::open_dataset(file, base + "form");
    size.converged = io::open_dataset(file, base + "converged");
    size.width = io::shape(size.poles)[1];
    sizes_.push_back(std::move(size));
  }
}

void LineStore::write(std::int64_t line, const spectral::RankOneLine& secular, bool converged) {
  if (!valid()) return;
  const Size& size = sizes_.at(static_cast<std::size_t>(line / lines_per_d_));
  const auto row = static_cast<hsize_t>(line % lines_per_d_);
  if (secular.size() > size.width) return;
  const auto padded = [&](const std::vector<double>& values) {
    std::vector<double> out(values);
    out.resize(size.width, nan);
    return out;
  };
  io::write_rows(size.poles, row, 1, padded(secular.poles));
  io::write_rows(size.signal, row, 1, padded(secular.signal));
  io::write_rows(size.offset, row, 1, padded(secular.offset));
  io::write_rows(size.rho, row, 1, std::vector<double>{secular.rho});
  io::write_rows(size.form, row, 1,
                 std::vector<std::int64_t>{secular.form == spectral::OverlapForm::gram ? 1 : 0});
  io::write_rows(size.converged, row, 1, std::vector<std::int64_t>{converged ? 1 : 0});
  // Last: the row is complete.
  io::write_rows(size.count, row, 1, std::vector<std::int64_t>{static_cast<std::int64_t>(secular.size())});
}

std::vector<char> LineStore::written() const {
  std::vector<char> out;
  for (const Size& size : sizes_) {
    for (const std::int64_t count : io::read_ints(size.count)) out.push_back(count > 0 ? 1 : 0);
  }
  return out;
}

std::map<std::int64_t, StoredLine> read_lines(hid_t file, const SweepConfig& config) {
  std::map<std::int64_t, StoredLine> out;
  if (!io::exists(file, std::string(lines_group))) return out;
  for (const int d : config.d) {
    const std::string base = lines_group_of(d) + "/";
    if (!io::exists(file, base + "count")) continue;
    const std::vector<std::int64_t> line = io::read_ints(io::open_dataset(file, base + "line"));
    const std::vector<std::int64_t> count = io::read_ints(io::open_dataset(file, base + "count"));
    const std::vector<std::int64_t> form = io::read_ints(io::open_dataset(file, base + "form"));
    const std::vector<std::int64_t> converged = io::read_ints(io::open_dataset(file, base + "converged"));
    const std::vector<double> rho = io::read_doubles(io::open_dataset(file, base + "rho"));
    const io::Dataset poles = io::open_dataset(file, base + "poles"), signal = io::open_dataset(file, base + "signal"),
                      offset = io::open_dataset(file, base + "offset");
    for (std::size_t r = 0; r < count.size(); ++r) {
      if (count[r] <= 0) continue;
      const auto n = static_cast<std::size_t>(count[r]);
      const auto row = [&](const io::Dataset& set) {
        std::vector<double> values = io::read_double_rows(set, static_cast<hsize_t>(r), 1);
        values.resize(n);
        return values;
      };
      StoredLine stored;
      stored.secular.poles = row(poles);
      stored.secular.signal = row(signal);
      stored.secular.offset = row(offset);
      stored.secular.rho = rho[r];
      stored.secular.form = form[r] == 1 ? spectral::OverlapForm::gram : spectral::OverlapForm::direct;
      stored.converged = converged[r] == 1;
      out.emplace(line[r], std::move(stored));
    }
  }
  return out;
}

}  // namespace rmtsweep::sweep
