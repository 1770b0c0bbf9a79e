// `rmtsweep status --json` (status_json.hpp).
#include "status_json.hpp"

#include "rmtsweep/common/duration_text.hpp"
#include "rmtsweep/store/schema.hpp"
#include "rmtsweep/store/sweep_status.hpp"
#include "rmtsweep/sweep/eta.hpp"

namespace rmtsweep::app {
namespace {

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

int status_exit_code(store::SweepState state) noexcept {
  switch (state) {
    case store::SweepState::done:
      return 0;
    case store::SweepState::pending:
      return 3;
    case store::SweepState::damaged:
      return 4;
  }
  return 4;
}

nlohmann::json status_json(const store::SweepReader& reader, bool verify) {
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
  for (const store::SizeProgress& size : store::progress_by_size(reader, status))
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
  const store::Activity a = store::activity_of(reader, status);
  const std::optional<double> eta = sweep::running_eta(reader, status, a);
  out["lock"] = {{"path", a.lock_path}, {"state", to_string(a.lock)}, {"held", a.running()}};
  if (!a.lock_problem.empty()) out["lock"]["problem"] = a.lock_problem;
  out["running"] = a.running();
  nlohmann::json latest = nullptr;
  if (a.latest_run >= 0) {
    latest = {{"index", a.latest_run},
              {"started", a.latest_started},
              {"mpi_ranks", a.latest_mpi_ranks},
              {"points_finished",
               a.finished_by_latest >= 0 ? nlohmann::json(a.finished_by_latest) : nlohmann::json(nullptr)},
              {"elapsed_seconds", optional_number(a.elapsed_seconds)},
              {"points_per_second", optional_number(a.points_per_second)},
              {"eta_seconds", optional_number(eta)},
              {"eta", eta ? nlohmann::json(duration_text(*eta)) : nlohmann::json(nullptr)}};
  }
  out["latest_run"] = latest;
  const store::JournalState j = store::journal_state(
      reader.path(), reader.text_attribute("sweep_id").value_or(""), status, a.running());
  nlohmann::json journal = {{"state", store::to_string(j.kind)}, {"directory", j.directory}};
  if (!j.problem.empty()) journal["problem"] = j.problem;
  if (j.journal) {
    journal["files"] = j.journal->files.size();
    journal["records"] = j.journal->record_count();
    journal["headless"] = j.journal->headless;  // files whose head is damaged: their records are not read
  }
  if (j.kind == store::JournalState::Kind::in_flight || j.kind == store::JournalState::Kind::disagrees) {
    journal["journal_only"] = j.agreement.journal_only;
    journal["in_flight"] = j.agreement.in_flight;
    journal["file_only"] = j.agreement.file_only;
    journal["differing"] = j.agreement.differing;
  }
  out["journal"] = journal;
  nlohmann::json failed = nlohmann::json::array();
  for (const store::FailedPoint& f : store::failed_points(reader, status, j)) {
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
  std::optional<store::Verification> v;
  std::optional<store::ChecksumReport> sums;
  if (verify) {
    v = store::verify_with_journal(reader);
    sums =
        store::check_checksums(reader.file(), {}, a.running() ? store::Writer::live : store::Writer::absent);
  }
  nlohmann::json verification = {{"checked", v.has_value()}};
  if (v) {
    verification["result"] =
        v->damaged.empty() && counts.other == 0 && !sums->damaged() ? "no damage found" : "damaged";
    verification["checksums"] = {{"checksummed", sums->checksummed},
                                 {"datasets", sums->datasets},
                                 {"rows", sums->rows},
                                 {"damaged_datasets", sums->damaged_datasets},
                                 {"damaged_points", sums->damaged_points},
                                 {"damaged_lines", sums->damaged_lines},
                                 {"damaged_refined_points", sums->damaged_refined_points},
                                 {"damaged_refined_lines", sums->damaged_refined_lines},
                                 {"not_checksummed", sums->not_checksummed},
                                 {"description", store::describe(*sums)},
                                 {"repairs", store::describe_repairs(*sums, reader.path())}};
    verification["verified"] = v->verified;
    verification["unverified"] = v->unverified;
    verification["other_theory"] = v->other_theory;
    nlohmann::json damaged = nlohmann::json::array();
    for (const store::DamagedPoint& point : v->damaged)
      damaged.push_back({{"point", point.index}, {"columns", point.columns}});
    verification["damaged"] = damaged;
    if (!v->damaged.empty()) verification["description"] = store::describe_damage(*v);
  } else {
    verification["result"] = "skipped";
  }
  out["verify"] = verification;
  const store::PhaseStaleness phase = store::phase_staleness(reader.file());
  out["phase"] = phase.present
                     ? nlohmann::json{{"recorded", phase.recorded},
                                      {"stale", phase.recorded ? nlohmann::json(phase.stale) : nullptr},
                                      {"built_from", phase.built_from}}
                     : nlohmann::json(nullptr);
  const store::SweepState state =
      store::sweep_state(counts, v ? &*v : nullptr, sums ? &*sums : nullptr, v ? &j : nullptr);
  out["state"] = store::to_string(state);
  out["exit_status"] = status_exit_code(state);
  return out;
}

}  // namespace rmtsweep::app
