// /lines of a sweep file (include/rmtsweep/store/line_store.hpp).
#include "rmtsweep/store/line_store.hpp"

#include <algorithm>
#include <limits>

#include "column_io.hpp"
#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/simulate/engine.hpp"
#include "rmtsweep/simulate/line.hpp"

namespace rmtsweep::store {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

}  // namespace

hsize_t line_row_width(const config::SweepConfig& with_setting, std::size_t n) {
  config::SweepConfig config = with_setting;
  config.lines = config::LinesSetting::automatic;  // the layout does not depend on the run's setting
  const int d = config.d[n];
  const simulate::SimulationOptions options = config::simulation_options(config, d);
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
        dense = dense || simulate::choose_engine(p, options, simulate::Work::line) == simulate::Engine::dense;
      }
    }
  }
  const long long budget = simulate::krylov_budget(options);
  return static_cast<hsize_t>(dense ? d : std::min<long long>(d, budget));
}

namespace {

constexpr LineDatasetEntry datasets[] = {
    {"line", "lines of size d",
     "the grid line (a point's flattened index without its snr position) of each row"},
    {"pole_index", "width (no values)", "position of the pole (snr-free eigenvalue), ascending"},
    {"count", "lines of size d",
     "poles a row holds; 0 where the line was not computed by the line engine (docs/model.md section 9)"},
    {"poles", "lines of size d x width",
     "eigenvalues of the line's snr-free part S0' (or K0', or their Ritz values), ascending; NaN past count"},
    {"signal", "lines of size d x width",
     "g: the rank-one update's vector per unit sqrt(snr), in that eigenbasis"},
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

bool stores_lines(const config::SweepConfig& config) {
  config::SweepConfig with_lines = config;
  with_lines.lines = config::LinesSetting::automatic;
  return std::any_of(config.weighting.begin(), config.weighting.end(),
                     [&](const model::Weighting& w) { return with_lines.lines_apply(w); });
}

double line_data_bytes(const config::Grid& grid) {
  const config::SweepConfig& config = grid.config();
  if (!stores_lines(config)) return 0.0;
  const double rows = static_cast<double>(grid.line_count()) / static_cast<double>(config.d.size());
  double bytes = 0.0;
  for (std::size_t n = 0; n < config.d.size(); ++n)
    bytes += rows * (3.0 * 8.0 * static_cast<double>(line_row_width(config, n)) + 5.0 * 8.0);
  return bytes;
}

void create_line_datasets(hid_t file, const config::Grid& grid, bool writer) {
  const config::SweepConfig& config = grid.config();
  const io::Group group = io::create_group(file, std::string(lines_group));
  detail::describe(group,
                   "per size, the secular form of every line computed as a line (docs/model.md section 9)");
  const auto rows = static_cast<hsize_t>(grid.line_count() / static_cast<std::int64_t>(config.d.size()));
  for (std::size_t n = 0; n < config.d.size(); ++n) {
    const std::string base = lines_group_of(config.d[n]) + "/";
    const io::Group size = io::create_group(file, lines_group_of(config.d[n]));
    // Named dimensions (netCDF-4 dimension scales): the coordinate `line`, and `pole_index` without values.
    const io::Dataset line = io::create_int_dataset(file, base + "line", {rows});
    detail::describe(line, description_of("line"));
    io::make_coordinate(line);
    io::write_cf_attributes(line, dimension::line.long_name, dimension::line.units);
    SecularTable::create(size, rows, line_row_width(config, n), line);
    if (writer) {
      std::vector<std::int64_t> index(rows);
      for (hsize_t r = 0; r < rows; ++r) index[r] = static_cast<std::int64_t>(n * rows + r);
      io::write(line, index);
    }
  }
}

SecularTable SecularTable::create(hid_t group, hsize_t rows, hsize_t width, hid_t row_scale) {
  const io::Dataset pole = io::create_dimension_only(group, "pole_index", width);
  detail::describe(pole, description_of("pole_index"));
  io::write_cf_attributes(pole, dimension::pole_index.long_name, dimension::pole_index.units);
  const auto per_line = [&](io::Dataset set, std::string_view description, const char* units) {
    detail::describe(set, description);
    io::write_cf_attributes(set, {}, units);
    io::attach_scale(set, row_scale, 0);
    if (io::shape(set).size() == 2) io::attach_scale(set, pole, 1);
    return set;
  };
  SecularTable t;
  t.count_ = per_line(io::create_int_dataset(group, "count", {rows}), description_of("count"), "");
  t.poles_ = per_line(io::create_double_dataset(group, "poles", {rows, width}), description_of("poles"), "1");
  t.signal_ =
      per_line(io::create_double_dataset(group, "signal", {rows, width}), description_of("signal"), "1");
  t.offset_ =
      per_line(io::create_double_dataset(group, "offset", {rows, width}), description_of("offset"), "1");
  t.rho_ = per_line(io::create_double_dataset(group, "rho", {rows}), description_of("rho"), "1");
  t.form_ = per_line(io::create_int_dataset(group, "form", {rows}), description_of("form"), "");
  t.converged_ =
      per_line(io::create_int_dataset(group, "converged", {rows}), description_of("converged"), "");
  t.width_ = width;
  return t;
}

SecularTable SecularTable::open(hid_t group) {
  SecularTable t;
  t.count_ = io::open_dataset(group, "count");
  t.poles_ = io::open_dataset(group, "poles");
  t.signal_ = io::open_dataset(group, "signal");
  t.offset_ = io::open_dataset(group, "offset");
  t.rho_ = io::open_dataset(group, "rho");
  t.form_ = io::open_dataset(group, "form");
  t.converged_ = io::open_dataset(group, "converged");
  t.width_ = io::shape(t.poles_)[1];
  return t;
}

bool SecularTable::write(hsize_t row, const spectral::RankOneLine& secular, bool converged) const {
  if (secular.size() > width_) return false;
  const auto padded = [&](const std::vector<double>& values) {
    std::vector<double> out(values);
    out.resize(width_, nan);
    return out;
  };
  io::write_rows(poles_, row, 1, padded(secular.poles));
  io::write_rows(signal_, row, 1, padded(secular.signal));
  io::write_rows(offset_, row, 1, padded(secular.offset));
  io::write_rows(rho_, row, 1, std::vector<double>{secular.rho});
  io::write_rows(form_, row, 1,
                 std::vector<std::int64_t>{secular.form == spectral::OverlapForm::gram ? 1 : 0});
  io::write_rows(converged_, row, 1, std::vector<std::int64_t>{converged ? 1 : 0});
  // Last: the row is complete.
  io::write_rows(count_, row, 1, std::vector<std::int64_t>{static_cast<std::int64_t>(secular.size())});
  return true;
}

std::vector<std::int64_t> SecularTable::counts() const { return io::read_ints(count_); }

StoredLine SecularTable::read(hsize_t row, std::int64_t count) const {
  const auto n = static_cast<std::size_t>(count);
  const auto values = [&](const io::Dataset& set) {
    std::vector<double> out = io::read_double_rows(set, row, 1);
    out.resize(n);
    return out;
  };
  StoredLine stored;
  stored.secular.poles = values(poles_);
  stored.secular.signal = values(signal_);
  stored.secular.offset = values(offset_);
  stored.secular.rho = io::read_double_rows(rho_, row, 1).at(0);
  stored.secular.form = io::read_double_rows(form_, row, 1).at(0) == 1.0 ? spectral::OverlapForm::gram
                                                                         : spectral::OverlapForm::direct;
  stored.converged = io::read_double_rows(converged_, row, 1).at(0) == 1.0;
  return stored;
}

std::map<hsize_t, StoredLine> SecularTable::read_all() const {
  std::map<hsize_t, StoredLine> out;
  const std::vector<std::int64_t> count = counts();
  for (std::size_t r = 0; r < count.size(); ++r) {
    if (count[r] > 0) out.emplace(static_cast<hsize_t>(r), read(static_cast<hsize_t>(r), count[r]));
  }
  return out;
}

LineStore::LineStore(hid_t file, const config::Grid& grid) {
  const config::SweepConfig& config = grid.config();
  if (!io::exists(file, std::string(lines_group))) return;
  lines_per_d_ = grid.line_count() / static_cast<std::int64_t>(config.d.size());
  for (const int d : config.d) sizes_.push_back(SecularTable::open(io::open_group(file, lines_group_of(d))));
}

void LineStore::write(std::int64_t line, const spectral::RankOneLine& secular, bool converged) {
  if (!valid()) return;
  sizes_.at(static_cast<std::size_t>(line / lines_per_d_))
      .write(static_cast<hsize_t>(line % lines_per_d_), secular, converged);
}

std::vector<char> LineStore::written() const {
  std::vector<char> out;
  for (const SecularTable& size : sizes_) {
    for (const std::int64_t count : size.counts()) out.push_back(count > 0 ? 1 : 0);
  }
  return out;
}

std::map<std::int64_t, StoredLine> read_lines(hid_t file, const config::SweepConfig& config) {
  std::map<std::int64_t, StoredLine> out;
  if (!io::exists(file, std::string(lines_group))) return out;
  for (const int d : config.d) {
    if (!io::exists(file, lines_group_of(d) + "/count")) continue;
    const io::Group group = io::open_group(file, lines_group_of(d));
    const std::vector<std::int64_t> line = io::read_ints(io::open_dataset(group, "line"));
    for (auto& [row, stored] : SecularTable::open(group).read_all())
      out.emplace(line.at(row), std::move(stored));
  }
  return out;
}

}  // namespace rmtsweep::store
