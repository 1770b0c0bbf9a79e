// Comparing a sweep file with its journal and its config (include/rmtsweep/store/verify.hpp).
#include "rmtsweep/store/verify.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/store/failure_messages.hpp"

namespace rmtsweep::store {
namespace {

/// Relative difference beyond which a creation-time real differs (verify.hpp: what a flipped bit in a
/// double's upper five bytes changes, against the theory's rounding between versions).
constexpr double creation_tolerance = 1e-9;

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool close(double stored, double expected) {
  if (std::isnan(stored) || std::isnan(expected)) return std::isnan(stored) && std::isnan(expected);
  return std::abs(stored - expected) <= creation_tolerance * std::max(std::abs(stored), std::abs(expected));
}

/// A text as the file stores it: cut to `width` bytes (0: whole) and at its first NUL (io::read_strings).
std::string as_stored(const std::string& text, std::size_t width) {
  std::string cut = width > 0 ? text.substr(0, std::min(width, text.size())) : text;
  return cut.substr(0, cut.find('\0'));
}

/// One column as stored, whole: reals (points x per_row), integers or texts.
struct Stored {
  std::vector<double> reals;
  std::vector<std::int64_t> integers;
  std::vector<std::string> texts;
  std::size_t per_row = 1;
};

Stored read_column(const SweepReader& reader, const Column& column) {
  Stored s;
  if (column.type == ColumnType::text) {
    s.texts = reader.texts(column);
  } else if (column.type == ColumnType::integer) {
    s.integers = reader.integers(column);
  } else {
    s.reals = reader.reals(column);
    if (column.shape == ColumnShape::top_k)
      s.per_row = static_cast<std::size_t>(io::shape(io::open_dataset(reader.file(), path_of(column))).at(1));
  }
  return s;
}

/// Whether row `i` of `stored` holds `cell`: exactly (reals bit for bit) or, for a creation-time real, to
/// creation_tolerance. `width` cuts a text as the file does.
bool holds(const Stored& stored, std::size_t i, const Cell& cell, bool exact, std::size_t width) {
  if (const auto* real = std::get_if<double>(&cell))
    return exact ? same_bits(stored.reals.at(i), *real) : close(stored.reals.at(i), *real);
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return stored.integers.at(i) == *integer;
  if (const auto* text = std::get_if<std::string>(&cell))
    return stored.texts.at(i) == as_stored(*text, width);
  const auto& values = std::get<std::vector<double>>(cell);
  if (values.size() != stored.per_row) return false;
  for (std::size_t j = 0; j < values.size(); ++j) {
    const double x = stored.reals.at(i * stored.per_row + j);
    if (exact ? !same_bits(x, values[j]) : !close(x, values[j])) return false;
  }
  return true;
}

using Damage = std::map<std::int64_t, std::vector<std::string>>;

/// Records that column `name` of row `i` differs (once).
void note(Damage& damage, std::size_t i, std::string_view name) {
  std::vector<std::string>& names = damage[static_cast<std::int64_t>(i)];
  if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
}

bool is_status(std::int64_t s) {
  return s == static_cast<std::int64_t>(PointStatus::pending) ||
         s == static_cast<std::int64_t>(PointStatus::done) ||
         s == static_cast<std::int64_t>(PointStatus::failed);
}

/// The columns written at creation, compared with this rmtsweep's computation from the stored config.
void check_creation_columns(const SweepReader& reader, Damage& damage,
                            std::vector<std::string>& other_theory) {
  config::SweepConfig config;
  try {
    config = config::with_stored_axes(reader.config(), reader.config_text());
  } catch (const Error&) {
    return;  // a config that does not parse: status says so elsewhere
  }
  const config::Grid grid(config);
  if (grid.size() != reader.points()) return;  // an edited config: it does not describe the rows
  std::vector<model::PointParams> params;
  std::vector<config::GridCoordinates> at;
  for (std::int64_t i = 0; i < grid.size(); ++i) {
    params.push_back(grid.params(i));
    at.push_back(grid.coordinates(i));
  }
  const std::vector<theory::Prediction> predictions = config::grid_predictions(grid);
  for (const Column* column : point_columns()) {
    if (column->phase != ColumnPhase::parameter || !reader.has(*column)) continue;
    const Stored stored = read_column(reader, *column);
    std::vector<std::size_t> differing;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Cell expected = column->parameter(PointFacts{params[i], at[i], predictions[i]});
      if (!holds(stored, i, expected, false, 0)) differing.push_back(i);
    }
    // Flipped bytes hit a few rows; a column that differs at most of them was computed by another theory
    // (an rmtsweep of another version wrote the file): said apart, not damage, never "repaired".
    if (differing.size() * 2 > params.size()) {
      other_theory.emplace_back(column->name);
      continue;
    }
    for (const std::size_t i : differing) note(damage, i, column->name);
  }
}

/// The rows of the stored spectra of size index n (all of it in a schema_version 1 file), or empty.
std::vector<double> spectra_of(const SweepReader& reader, const config::SweepConfig& config, std::size_t n) {
  const std::string path = reader.schema_version() < 2 ? std::string(spectra_eigenvalues.path)
                                                       : spectra_eigenvalues_path(config.d[n]);
  if (!io::exists(reader.file(), path)) return {};
  return io::read_doubles(io::open_dataset(reader.file(), path));
}

}  // namespace

Verification verify_sweep(const SweepReader& reader, const Journal* journal,
                          const std::vector<std::int64_t>& failing_checksums) {
  Verification v;
  const std::vector<std::int64_t> status = reader.status();
  v.points = static_cast<std::int64_t>(status.size());
  Damage damage;
  for (std::size_t i = 0; i < status.size(); ++i)
    if (!is_status(status[i])) note(damage, i, "status");
  check_creation_columns(reader, damage, v.other_theory);

  std::vector<const PointRecord*> latest(status.size(), nullptr);
  if (journal != nullptr && journal->head().points == v.points) latest = latest_records(*journal);
  const std::vector<JournalColumn> no_columns;
  const std::vector<JournalColumn>& columns = journal != nullptr ? journal->head().columns : no_columns;
  // Which rows the records vouch for: done or failed in the file (a pending row's record is in flight, or
  // of a killed run), and not older than the file's row (a later run's record lost with a journal file).
  const std::int64_t runs = reader.integer_attribute("runs").value_or(0);
  const Stored run = reader.has(column::run) ? read_column(reader, column::run) : Stored{};
  std::size_t run_cell = columns.size();
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c].name == column::run.name) run_cell = c;
  const std::vector<char> settled = messages_settled(
      reader, run.integers.empty() ? std::vector<std::int64_t>(status.size(), 0) : run.integers);
  std::vector<bool> vouched(status.size(), false);
  for (std::size_t i = 0; i < status.size(); ++i) {
    // A pending row's record is in flight, or of a killed run; a garbage status's record says what it was.
    vouched[i] = latest[i] != nullptr && status[i] != static_cast<std::int64_t>(PointStatus::pending);
  }
  const std::vector<std::int64_t> unvouched =
      rows_without_record(status, run.integers, runs, latest, run_cell);
  for (const std::int64_t i : unvouched) vouched[static_cast<std::size_t>(i)] = false;
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] == static_cast<std::int64_t>(PointStatus::done) ||
        status[i] == static_cast<std::int64_t>(PointStatus::failed))
      (vouched[i] ? v.verified : v.unverified) += 1;
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const Column* column = find_column(columns[c].name);
    if (column == nullptr || !reader.has(*column)) continue;
    const Stored stored = read_column(reader, *column);
    // A failed point's variable-length message reaches the file when its run closes it
    // (failure_messages.hpp): a row whose run has not closed yet (killed, or running) holds an earlier one or
    // none, not damage.
    const bool messages = column == &column::error;
    for (std::size_t i = 0; i < status.size(); ++i) {
      if (!vouched[i] || (messages && !settled[i])) continue;
      if (!holds(stored, i, latest[i]->cells.at(c), true, columns[c].width)) note(damage, i, column->name);
    }
  }
  if (journal != nullptr) {
    config::SweepConfig config;
    try {
      config = reader.config();
    } catch (const Error&) {
      config.d.clear();
    }
    const std::int64_t per_d = config.d.empty() ? 0 : v.points / static_cast<std::int64_t>(config.d.size());
    for (std::size_t n = 0; n < config.d.size() && per_d > 0; ++n) {
      const std::vector<double> rows = spectra_of(reader, config, n);
      if (rows.empty()) continue;
      const auto d = static_cast<std::size_t>(config.d[n]);
      for (std::int64_t r = 0; r < per_d; ++r) {
        const auto i = static_cast<std::size_t>(static_cast<std::int64_t>(n) * per_d + r);
        if (!vouched[i]) continue;
        const std::vector<double>& spectrum = latest[i]->spectrum;
        bool same = true;
        for (std::size_t j = 0; j < d && same; ++j) {
          const double expected =
              spectrum.size() == d ? spectrum[j] : std::numeric_limits<double>::quiet_NaN();
          same = same_bits(rows[static_cast<std::size_t>(r) * d + j], expected);
        }
        if (!same) note(damage, i, "spectrum");
      }
    }
  }
  // A row whose bytes fail its checksum where no cell compared differs (its checksum cell, a text's padding).
  for (const std::int64_t i : failing_checksums) {
    if (i >= 0 && i < v.points && !damage.contains(i)) note(damage, static_cast<std::size_t>(i), "checksum");
  }
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] == static_cast<std::int64_t>(PointStatus::pending) && latest[i] != nullptr &&
        record_status(*latest[i]) != PointStatus::pending)
      v.pending_with_record.push_back({static_cast<std::int64_t>(i), {"status"}, *latest[i]});
  }
  for (auto& [index, names] : damage) {
    DamagedPoint point{index, std::move(names), std::nullopt};
    if (latest[static_cast<std::size_t>(index)] != nullptr && vouched[static_cast<std::size_t>(index)])
      point.record = *latest[static_cast<std::size_t>(index)];
    v.damaged.push_back(std::move(point));
  }
  return v;
}

std::vector<std::int64_t> rows_without_record(const std::vector<std::int64_t>& status,
                                              const std::vector<std::int64_t>& run, std::int64_t runs,
                                              const std::vector<const PointRecord*>& latest,
                                              std::size_t run_cell) {
  std::vector<std::int64_t> rows;
  for (std::size_t i = 0; i < status.size() && i < latest.size(); ++i) {
    if (status[i] != static_cast<std::int64_t>(PointStatus::done) &&
        status[i] != static_cast<std::int64_t>(PointStatus::failed))
      continue;
    bool newer_in_file = false;
    if (latest[i] != nullptr && run_cell < latest[i]->cells.size() && i < run.size()) {
      const auto* recorded = std::get_if<std::int64_t>(&latest[i]->cells[run_cell]);
      newer_in_file = recorded != nullptr && run[i] > *recorded && run[i] < runs;  // a damaged run is no run
    }
    if (latest[i] == nullptr || newer_in_file) rows.push_back(static_cast<std::int64_t>(i));
  }
  return rows;
}

std::vector<PointRecord> read_records(const SweepReader& reader, const std::vector<JournalColumn>& columns,
                                      const std::vector<std::int64_t>& rows) {
  std::vector<PointRecord> records(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) records[r].index = rows[r];
  for (const JournalColumn& wanted : columns) {
    const Column* column = find_column(wanted.name);
    if (column == nullptr || !reader.has(*column))
      throw InvalidFile(reader.path(),
                        "has no /points column " + wanted.name + " (written by another rmtsweep)");
    const Stored stored = read_column(reader, *column);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const auto i = static_cast<std::size_t>(rows[r]);
      Cell cell;
      if (column->type == ColumnType::text) {
        cell = stored.texts.at(i);
      } else if (column->type == ColumnType::integer) {
        cell = stored.integers.at(i);
      } else if (column->shape == ColumnShape::top_k) {
        cell =
            std::vector<double>(stored.reals.begin() + static_cast<std::ptrdiff_t>(i * stored.per_row),
                                stored.reals.begin() + static_cast<std::ptrdiff_t>((i + 1) * stored.per_row));
      } else {
        cell = stored.reals.at(i);
      }
      records[r].cells.push_back(std::move(cell));
    }
  }
  const config::SweepConfig config = reader.config();
  const std::int64_t per_d = reader.points() / static_cast<std::int64_t>(config.d.size());
  for (std::size_t n = 0; n < config.d.size(); ++n) {
    std::vector<double> spectra;
    bool read = false;
    const auto d = static_cast<std::size_t>(config.d[n]);
    for (PointRecord& record : records) {
      if (record.index / per_d != static_cast<std::int64_t>(n)) continue;
      if (!read) {
        spectra = spectra_of(reader, config, n);
        read = true;
      }
      if (spectra.empty()) continue;
      const auto row = static_cast<std::size_t>(record.index - static_cast<std::int64_t>(n) * per_d);
      record.spectrum.assign(spectra.begin() + static_cast<std::ptrdiff_t>(row * d),
                             spectra.begin() + static_cast<std::ptrdiff_t>((row + 1) * d));
    }
  }
  return records;
}

std::string describe_damage(const Verification& verification, std::size_t shown) {
  std::string text;
  for (std::size_t p = 0; p < verification.damaged.size() && p < shown; ++p) {
    const DamagedPoint& point = verification.damaged[p];
    std::string names;
    for (const std::string& name : point.columns) names += (names.empty() ? "" : ", ") + name;
    text += (p ? "; " : "") + std::to_string(point.index) + " (" + names + ")";
  }
  if (verification.damaged.size() > shown)
    text += "; and " + std::to_string(verification.damaged.size() - shown) + " more";
  return text;
}

}  // namespace rmtsweep::store
