// The journal, lock and rate of a sweep file for `rmtsweep status` (src/app/status_facts.hpp).
#include "status_facts.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "rmtsweep/common/duration_text.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::app {
namespace {

/// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (how runs record their start), nullopt otherwise.
std::optional<double> utc_seconds(const std::string& text) {
  std::tm tm{};
  const char* end = ::strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<double>(::timegm(&tm));
}

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

const char* to_string(io::LockHolder holder) {
  switch (holder) {
    case io::LockHolder::none:
      return "free";
    case io::LockHolder::another_process:
      return "held";
    case io::LockHolder::unknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace

const char* to_string(JournalState::Kind kind) {
  switch (kind) {
    case JournalState::Kind::agrees:
      return "agrees";
    case JournalState::Kind::in_flight:
      return "in_flight";
    case JournalState::Kind::disagrees:
      return "disagrees";
    case JournalState::Kind::missing:
      return "missing";
    case JournalState::Kind::other_sweep:
      return "other_sweep";
    case JournalState::Kind::unreadable:
      return "unreadable";
  }
  return "unreadable";
}

JournalState journal_state(const std::string& path, const std::string& sweep_id,
                           const std::vector<std::int64_t>& status) {
  JournalState state;
  state.directory = store::journal_directory(path);
  std::error_code ec;
  if (!std::filesystem::is_directory(state.directory, ec)) {
    const std::string kind = io::kind_at(state.directory);
    state.problem = kind.empty() ? "is missing" : "is " + kind + ", not the journal's directory";
    return state;
  }
  try {
    state.journal = store::read_journal(state.directory);
  } catch (const Error& e) {
    state.kind = JournalState::Kind::unreadable;
    state.problem = e.what();
    return state;
  }
  if (state.journal->head().provenance.sweep_id != sweep_id) {
    state.kind = JournalState::Kind::other_sweep;
    state.problem = state.journal->head().provenance.sweep_id;
    return state;
  }
  const store::JournalAgreement& a = state.agreement = store::compare_with_file(*state.journal, status);
  if (a.agrees()) {
    state.kind = JournalState::Kind::agrees;
  } else if (a.journal_only == a.in_flight && a.file_only == 0 && a.differing == 0) {
    state.kind = JournalState::Kind::in_flight;
  } else {
    state.kind = JournalState::Kind::disagrees;
  }
  return state;
}

Activity activity_of(const store::SweepReader& reader, const std::vector<std::int64_t>& status) {
  Activity a;
  a.lock_path = io::lock_path(reader.path());
  a.lock = io::probe_lock(a.lock_path, &a.lock_problem);
  const std::vector<store::RunInfo> runs = reader.provenance().runs;
  a.latest_run = static_cast<std::int64_t>(runs.size()) - 1;
  if (a.latest_run < 0) return a;
  a.latest_started = runs.back().started;
  a.latest_mpi_ranks = runs.back().mpi_ranks;
  if (reader.has(store::column::run)) {
    const std::vector<std::int64_t> run = reader.integers(store::column::run);
    a.finished_by_latest = 0;
    for (std::size_t i = 0; i < status.size() && i < run.size(); ++i) {
      const bool finished = status[i] == static_cast<std::int64_t>(store::PointStatus::done) ||
                            status[i] == static_cast<std::int64_t>(store::PointStatus::failed);
      a.finished_by_latest += finished && run[i] == a.latest_run ? 1 : 0;
    }
  }
  const std::optional<double> started = utc_seconds(a.latest_started);
  if (!a.running() || !started || a.finished_by_latest < 0) return a;
  a.elapsed_seconds = std::max(0.0, static_cast<double>(std::time(nullptr)) - *started);
  if (*a.elapsed_seconds <= 0.0 || a.finished_by_latest == 0) return a;  // no rate measured yet
  a.points_per_second = static_cast<double>(a.finished_by_latest) / *a.elapsed_seconds;
  const store::StatusCounts counts = store::count_status(status);
  a.eta_seconds = static_cast<double>(counts.pending) / *a.points_per_second;
  return a;
}

std::vector<SizeProgress> progress_by_size(const store::SweepReader& reader, const std::vector<std::int64_t>& status) {
  const config::SweepConfig config = reader.config();
  const std::vector<std::int64_t> size_of = reader.d_indices();
  std::vector<SizeProgress> sizes;
  for (const int d : config.d) sizes.push_back({d, 0, 0});
  for (std::size_t i = 0; i < status.size() && i < size_of.size(); ++i) {
    if (size_of[i] < 0 || size_of[i] >= static_cast<std::int64_t>(sizes.size())) continue;
    SizeProgress& size = sizes[static_cast<std::size_t>(size_of[i])];
    ++size.total;
    size.done += status[i] == static_cast<std::int64_t>(store::PointStatus::done) ? 1 : 0;
  }
  return sizes;
}

std::vector<FailedPoint> failed_points(const store::SweepReader& reader, const std::vector<std::int64_t>& status,
                                       const JournalState& journal) {
  std::vector<FailedPoint> failed;
  const auto is_failed = [](std::int64_t s) { return s == static_cast<std::int64_t>(store::PointStatus::failed); };
  if (std::none_of(status.begin(), status.end(), is_failed)) return failed;
  namespace column = store::column;
  // A run killed before its close (or running) has its failed points' messages in its journal only.
  const bool ours = journal.journal && journal.kind != JournalState::Kind::other_sweep;
  const auto errors = store::failure_messages(reader, ours ? &*journal.journal : nullptr);
  const auto delta = reader.reals(column::delta), gamma = reader.reals(column::gamma);
  const auto snr = reader.reals(column::snr);
  const auto weighting = reader.texts(column::weighting);
  const auto trial = reader.integers(column::trial);
  const auto d = reader.integers(column::d);
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (!is_failed(status[i])) continue;
    failed.push_back({i, d[i], trial[i], delta[i], gamma[i], snr[i], weighting[i], errors[i]});
  }
  return failed;
}

nlohmann::json status_json(const store::SweepReader& reader) {
  const std::vector<std::int64_t> status = reader.status();
  const store::StatusCounts counts = store::count_status(status);
  nlohmann::json out;
  out["file"] = reader.path();
  out["schema_version"] = reader.schema_version();
  out["rmtsweep_version"] = reader.text_attribute("rmtsweep_version").value_or("");
  out["created"] = reader.text_attribute("created").value_or("");
  out["points"] = {{"total", status.size()},
                   {"done", counts.done},
                   {"pending", counts.pending},
                   {"failed", counts.failed},
                   {"other", counts.other}};
  nlohmann::json sizes = nlohmann::json::array();
  for (const SizeProgress& size : progress_by_size(reader, status))
    sizes.push_back({{"d", size.d}, {"done", size.done}, {"total", size.total}});
  out["by_size"] = sizes;
  nlohmann::json runs = nlohmann::json::array();
  const std::vector<store::RunInfo> run_list = reader.provenance().runs;
  for (std::size_t r = 0; r < run_list.size(); ++r) {
    runs.push_back({{"index", r},
                    {"started", run_list[r].started},
                    {"mpi_ranks", run_list[r].mpi_ranks},
                    {"ranks_per_point", run_list[r].ranks_per_point},
                    {"command_line", run_list[r].command_line}});
  }
  out["runs"] = runs;
  const Activity a = activity_of(reader, status);
  out["lock"] = {{"path", a.lock_path}, {"state", to_string(a.lock)}, {"held", a.running()}};
  if (!a.lock_problem.empty()) out["lock"]["problem"] = a.lock_problem;
  out["running"] = a.running();
  nlohmann::json latest = nullptr;
  if (a.latest_run >= 0) {
    latest = {
        {"index", a.latest_run},
        {"started", a.latest_started},
        {"mpi_ranks", a.latest_mpi_ranks},
        {"points_finished",
         a.finished_by_latest >= 0 ? nlohmann::json(a.finished_by_latest) : nlohmann::json(nullptr)},
        {"elapsed_seconds", optional_number(a.elapsed_seconds)},
        {"points_per_second", optional_number(a.points_per_second)},
        {"eta_seconds", optional_number(a.eta_seconds)},
        {"eta", a.eta_seconds ? nlohmann::json(duration_text(*a.eta_seconds)) : nlohmann::json(nullptr)}};
  }
  out["latest_run"] = latest;
  const JournalState j = journal_state(reader.path(), reader.text_attribute("sweep_id").value_or(""), status);
  nlohmann::json journal = {{"state", to_string(j.kind)}, {"directory", j.directory}};
  if (!j.problem.empty()) journal["problem"] = j.problem;
  if (j.journal) {
    journal["files"] = j.journal->files.size();
    journal["records"] = j.journal->record_count();
  }
  if (j.kind == JournalState::Kind::in_flight || j.kind == JournalState::Kind::disagrees) {
    journal["journal_only"] = j.agreement.journal_only;
    journal["in_flight"] = j.agreement.in_flight;
    journal["file_only"] = j.agreement.file_only;
    journal["differing"] = j.agreement.differing;
  }
  out["journal"] = journal;
  nlohmann::json failed = nlohmann::json::array();
  for (const FailedPoint& f : failed_points(reader, status, j)) {
    failed.push_back({{"point", f.point},
                      {"d", f.d},
                      {"delta", f.delta},
                      {"gamma", f.gamma},
                      {"snr", f.snr},
                      {"weighting", f.weighting},
                      {"trial", f.trial},
                      {"message", f.message.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.message)}});
  }
  out["failed_points"] = failed;
  return out;
}

}  // namespace rmtsweep::app
