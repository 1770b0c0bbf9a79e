// The journal, lock, rate and progress of a sweep file (include/rmtsweep/store/sweep_status.hpp).
#include "rmtsweep/store/sweep_status.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::store {
namespace {

/// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (how runs record their start), nullopt otherwise.
std::optional<double> utc_seconds(const std::string& text) {
  std::tm tm{};
  const char* end = ::strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<double>(::timegm(&tm));
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
                           const std::vector<std::int64_t>& status, bool run_writes) {
  JournalState state;
  state.directory = journal_directory(path);
  std::error_code ec;
  if (!std::filesystem::is_directory(state.directory, ec)) {
    const std::string kind = io::kind_at(state.directory);
    state.problem = kind.empty() ? "is missing" : "is " + kind + ", not the journal's directory";
    return state;
  }
  try {
    state.journal = read_journal(state.directory);
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
  JournalAgreement& a = state.agreement = compare_with_file(*state.journal, status);
  if (run_writes) a.in_flight = a.of_latest_run;
  if (a.agrees()) {
    state.kind = JournalState::Kind::agrees;
  } else if (a.journal_only == a.in_flight && a.file_only == 0 && a.differing == 0) {
    state.kind = JournalState::Kind::in_flight;
  } else {
    state.kind = JournalState::Kind::disagrees;
  }
  return state;
}

Activity activity_of(const SweepReader& reader, const std::vector<std::int64_t>& status) {
  Activity a;
  a.lock_path = io::lock_path(reader.path());
  a.lock = io::probe_lock(a.lock_path, &a.lock_problem);
  // Its lock file removed during a run: the lock on the file itself still says who writes it.
  if (a.lock != io::LockHolder::another_process &&
      io::probe_data_lock(reader.path()) == io::LockHolder::another_process)
    a.lock = io::LockHolder::another_process;
  const std::vector<RunInfo> runs = reader.provenance().runs;
  a.latest_run = static_cast<std::int64_t>(runs.size()) - 1;
  if (a.latest_run < 0) return a;
  a.latest_started = runs.back().started;
  a.latest_mpi_ranks = runs.back().mpi_ranks;
  if (reader.has(column::run)) {
    const std::vector<std::int64_t> run = reader.integers(column::run);
    a.finished_by_latest = 0;
    for (std::size_t i = 0; i < status.size() && i < run.size(); ++i) {
      const bool finished = status[i] == static_cast<std::int64_t>(PointStatus::done) ||
                            status[i] == static_cast<std::int64_t>(PointStatus::failed);
      a.finished_by_latest += finished && run[i] == a.latest_run ? 1 : 0;
    }
  }
  const std::optional<double> started = utc_seconds(a.latest_started);
  if (!a.running() || !started || a.finished_by_latest < 0) return a;
  a.elapsed_seconds = std::max(0.0, static_cast<double>(std::time(nullptr)) - *started);
  if (*a.elapsed_seconds <= 0.0 || a.finished_by_latest == 0) return a;  // no rate measured yet
  a.points_per_second = static_cast<double>(a.finished_by_latest) / *a.elapsed_seconds;
  return a;
}

std::vector<SizeProgress> progress_by_size(const SweepReader& reader,
                                           const std::vector<std::int64_t>& status) {
  const config::SweepConfig config = reader.config();
  const std::vector<std::int64_t> size_of = reader.d_indices();
  std::vector<SizeProgress> sizes;
  for (const int d : config.d) sizes.push_back({d, 0, 0});
  for (std::size_t i = 0; i < status.size() && i < size_of.size(); ++i) {
    if (size_of[i] < 0 || size_of[i] >= static_cast<std::int64_t>(sizes.size())) continue;
    SizeProgress& size = sizes[static_cast<std::size_t>(size_of[i])];
    ++size.total;
    size.done += status[i] == static_cast<std::int64_t>(PointStatus::done) ? 1 : 0;
  }
  return sizes;
}

std::vector<FailedPoint> failed_points(const SweepReader& reader, const std::vector<std::int64_t>& status,
                                       const JournalState& journal) {
  std::vector<FailedPoint> failed;
  const auto is_failed = [](std::int64_t s) { return s == static_cast<std::int64_t>(PointStatus::failed); };
  if (std::none_of(status.begin(), status.end(), is_failed)) return failed;
  namespace column = column;
  // A run killed before its close (or running) has its failed points' messages in its journal only.
  const bool ours = journal.journal && journal.kind != JournalState::Kind::other_sweep;
  const auto errors = failure_messages(reader, ours ? &*journal.journal : nullptr);
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

Verification verify_with_journal(const SweepReader& reader) {
  const std::string directory = journal_directory(reader.path());
  std::optional<Journal> journal;
  std::error_code ec;
  if (std::filesystem::is_directory(directory, ec)) {
    try {
      journal = read_journal(directory);
      if (journal->head().provenance.sweep_id != reader.text_attribute("sweep_id").value_or(""))
        journal.reset();
    } catch (const Error&) {  // said by journal_state
      journal.reset();
    }
  }
  return verify_sweep(reader, journal ? &*journal : nullptr);
}

std::int64_t flipped_statuses(const JournalState& journal) noexcept {
  return std::max<std::int64_t>(0, journal.agreement.journal_only - journal.agreement.in_flight);
}

SweepState sweep_state(const StatusCounts& counts, const Verification* verification,
                       const ChecksumReport* checksums, const JournalState* journal) noexcept {
  if (counts.other > 0 || (verification && !verification->damaged.empty()) ||
      (checksums && checksums->damaged()) || (journal && flipped_statuses(*journal) > 0))
    return SweepState::damaged;
  return counts.pending > 0 ? SweepState::pending : SweepState::done;
}

const char* to_string(SweepState state) noexcept {
  switch (state) {
    case SweepState::done:
      return "done";
    case SweepState::pending:
      return "pending";
    case SweepState::damaged:
      return "damaged";
  }
  return "damaged";
}

}  // namespace rmtsweep::store
