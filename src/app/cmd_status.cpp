// `rmtsweep status FILE.h5`: what a sweep file holds (config, done/pending/failed points).
#include <mpi.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "command_options.hpp"
#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/common/duration_text.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/eigen.hpp"
#include "rmtsweep/parallel/environment.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/sweep_status.hpp"
#include "rmtsweep/store/verify.hpp"
#include "rmtsweep/sweep/eta.hpp"
#include "status_json.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

namespace {

/// The journal's line(s): what it holds and whether the file agrees (journal.hpp). While a run holds the
/// file's lock the two differ by what it is writing: said so, instead of a repair.
void print_journal(const std::string& path, const std::string& sweep_id, const store::JournalState& state,
                   const store::Activity& activity) {
  using Kind = store::JournalState::Kind;
  if (state.kind == Kind::missing) {
    std::printf("journal: none (%s %s): `rmtsweep recover` could not rebuild this file\n",
                state.directory.c_str(), state.problem.c_str());
    return;
  }
  if (state.kind == Kind::unreadable) {
    std::printf("journal: cannot be read: %s\n", state.problem.c_str());
    return;
  }
  const store::Journal& journal = *state.journal;
  std::printf("journal: %s: %zu files, %lld records", state.directory.c_str(), journal.files.size(),
              static_cast<long long>(journal.record_count()));
  for (const store::JournalFile& file : journal.files) {
    if (file.ignored_bytes > 0)
      std::printf("; %s: %llu bytes ignored (%s)", std::filesystem::path(file.path).filename().c_str(),
                  static_cast<unsigned long long>(file.ignored_bytes), file.problem.c_str());
  }
  for (const std::string& headless : journal.headless)
    std::printf("; %s: its head is damaged (no copy whole): its records are not read",
                std::filesystem::path(headless).filename().c_str());
  if (state.kind == Kind::other_sweep) {
    std::printf(
        "\njournal: belongs to another sweep (sweep_id %s, the file's %s): it cannot rebuild this file\n",
        state.problem.c_str(), sweep_id.empty() ? "unrecorded" : sweep_id.c_str());
    return;
  }
  const store::JournalAgreement& a = state.agreement;
  const std::string holder = "a run holds this file (lock " + activity.lock_path +
                             "): it writes its points now, and the file catches up with their records; "
                             "`rmtsweep status` again once it ends";
  if (state.kind == Kind::agrees) {
    std::printf("; the file agrees with it\n");
    return;
  }
  if (state.kind == Kind::in_flight) {
    if (activity.running()) {
      std::printf("; the file agrees with it but for %lld points in flight: %s\n",
                  static_cast<long long>(a.in_flight), holder.c_str());
      return;
    }
    std::printf(
        "; the file agrees with it but for %lld points pending in it whose record is the last of its "
        "writer (in flight while a run writes them; after a kill `rmtsweep run ... --resume` restores them "
        "from their records, as `rmtsweep recover %s` keeps them)\n",
        static_cast<long long>(a.in_flight), path.c_str());
    return;
  }
  std::printf("\njournal and file disagree:");
  if (a.journal_only > 0) {
    std::printf(" %lld points the journal holds as done or failed are pending in the file",
                static_cast<long long>(a.journal_only));
    if (a.in_flight > 0)
      std::printf(" (%lld of them in flight: %s)", static_cast<long long>(a.in_flight),
                  activity.running() ? "the running run's, which the file has not yet got"
                                     : "the last record of a writer of the latest run");
    if (const std::int64_t flipped = store::flipped_statuses(state); flipped > 0)
      std::printf(
          ": the journal vouches for %lld results the file no longer shows as done or failed (a status "
          "flipped: DAMAGED)%s",
          static_cast<long long>(flipped),
          activity.running() ? "" : "; `rmtsweep run ... --resume` restores them from their records");
    std::printf(";");
  }
  if (a.file_only > 0)
    std::printf(
        " %lld points done or failed in the file have no record in the journal (a journal file "
        "removed, or a run without one);",
        static_cast<long long>(a.file_only));
  if (a.differing > 0)
    std::printf(" %lld points are done in one and failed in the other;", static_cast<long long>(a.differing));
  if (activity.running())
    std::printf(" %s", holder.c_str());
  else if ((a.journal_only > 0 || a.differing > 0) && a.file_only == 0)
    std::printf(" `rmtsweep recover %s` rebuilds the file from the journal (keeping this one)", path.c_str());
  else if (a.journal_only > 0 || a.differing > 0)
    std::printf(
        " `rmtsweep recover %s` would rebuild the file with the journal's points only (keeping this one)",
        path.c_str());
  std::printf("\n");
}

/// The line of a run that holds the file now: its rate since it started and the ETA of the pending points
/// (sweep::running_eta, as the run's own progress line computes it).
void print_activity(const store::Activity& a, const std::optional<double>& eta) {
  if (a.lock == io::LockHolder::unknown) {
    std::printf("lock: %s cannot be tested (%s): whether a run writes this file now is unknown\n",
                a.lock_path.c_str(), a.lock_problem.c_str());
    return;
  }
  if (!a.running()) return;
  std::printf("running: a run holds this file (lock %s)", a.lock_path.c_str());
  if (a.latest_run >= 0) {
    std::printf("; run %lld started %s", static_cast<long long>(a.latest_run), a.latest_started.c_str());
    if (a.finished_by_latest >= 0)
      std::printf(", %lld points finished by it", static_cast<long long>(a.finished_by_latest));
  }
  if (a.points_per_second)
    std::printf(", %.3g points/s in %s", *a.points_per_second, duration_text(*a.elapsed_seconds).c_str());
  else
    std::printf(", no point finished yet");
  if (eta) std::printf(", ETA %s%s", duration_text(*eta).c_str(), a.points_per_second ? "" : " (the plan's)");
  std::printf("\n");
}

/// What `status` says of damage: every point compared with its journal record and the config
/// (store/verify.hpp).
void print_verification(const store::Verification& v) {
  std::printf("verify: %lld points done or failed compared with their journal records",
              static_cast<long long>(v.verified));
  if (v.unverified > 0)
    std::printf(", %lld without a record that vouches for them (their measured values not checked)",
                static_cast<long long>(v.unverified));
  std::printf("; the columns written at creation compared with the config's\n");
  if (!v.other_theory.empty()) {
    std::string names;
    for (const std::string& name : v.other_theory) names += (names.empty() ? "" : ", ") + name;
    std::printf(
        "verify: note: %s differ from this rmtsweep's computation at most points: the file was written "
        "by an rmtsweep whose theory differs (not damage; kept as written)\n",
        names.c_str());
  }
  if (v.damaged.empty()) {
    std::printf("verify: no damage found\n");
    return;
  }
  std::printf(
      "verify: DAMAGED: %zu points hold values other than those written: %s; `rmtsweep run ... --resume` "
      "restores them from the journal (or computes them again)\n",
      v.damaged.size(), store::describe_damage(v).c_str());
}

/// Prints the report; returns the sweep's state (its exit status).
store::SweepState print_status(const std::string& path, bool verify) {
  const store::SweepReader reader(path);
  std::printf("%s: rmtsweep sweep file, schema %lld, written by rmtsweep %s, created %s\n", path.c_str(),
              static_cast<long long>(reader.schema_version()),
              reader.text_attribute("rmtsweep_version").value_or("(unrecorded)").c_str(),
              reader.text_attribute("created").value_or("(unrecorded)").c_str());
  // The random draws a resume must reproduce.
  const store::StoredDraws draws = reader.draws();
  if (draws.version == 1) {
    std::printf("draws: version 1 (Box-Muller; this rmtsweep cannot resume it)\n");
  } else {
    std::printf("draws: version %lld, %s\n", static_cast<long long>(draws.version),
                draws.library.empty() ? "(unrecorded)" : draws.library.c_str());
  }
  std::printf("config:\n");
  const std::string& config = reader.config_text();
  std::size_t begin = 0;
  while (begin < config.size()) {
    const std::size_t end = config.find('\n', begin);
    std::printf("  %s\n", config.substr(begin, end - begin).c_str());
    begin = end == std::string::npos ? config.size() : end + 1;
  }
  const std::vector<store::RunInfo> runs = reader.provenance().runs;
  std::printf("runs: %zu\n", runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::printf("  run %zu: started %s on %d ranks: %s\n", r,
                runs[r].started.empty() ? "?" : runs[r].started.c_str(), runs[r].mpi_ranks,
                runs[r].command_line.empty() ? "?" : runs[r].command_line.c_str());
  }
  const std::vector<std::int64_t> status = reader.status();
  const store::StatusCounts counts = store::count_status(status);
  std::printf("points: %zu total, %lld done, %lld pending, %lld failed", status.size(),
              static_cast<long long>(counts.done), static_cast<long long>(counts.pending),
              static_cast<long long>(counts.failed));
  if (counts.other > 0) {
    std::printf(", %lld with a status that is none of these (a damaged or edited file)",
                static_cast<long long>(counts.other));
  }
  std::printf("\n");
  const store::Activity activity = store::activity_of(reader, status);
  print_activity(activity, sweep::running_eta(reader, status, activity));
  const std::string sweep_id = reader.text_attribute("sweep_id").value_or("");
  const store::JournalState journal = store::journal_state(path, sweep_id, status, activity.running());
  print_journal(path, sweep_id, journal, activity);
  std::optional<store::Verification> verification;
  std::optional<store::ChecksumReport> checksums;
  if (verify) {
    verification = store::verify_with_journal(reader);
    print_verification(*verification);
    checksums = store::check_checksums(reader.file(), {},
                                       activity.running() ? store::Writer::live : store::Writer::absent);
    const std::string repairs = store::describe_repairs(*checksums, path);
    std::printf("checksums: %s%s%s\n", store::describe(*checksums).c_str(), repairs.empty() ? "" : "; ",
                repairs.c_str());
  } else {
    std::printf("verify: skipped (--no-verify)\n");
  }
  if (const store::PhaseStaleness phase = store::phase_staleness(reader.file()); phase.present) {
    if (!phase.recorded)
      std::printf("phase: /phase does not record the points it was built from (an older assemble)\n");
    else if (phase.stale)
      std::printf(
          "phase: STALE: /phase was built from %s, and the points have changed since: `rmtsweep assemble "
          "%s` builds it again\n",
          phase.built_from.c_str(), path.c_str());
    else
      std::printf("phase: built from the points the file holds (%s)\n", phase.built_from.c_str());
  }
  const store::SweepState state =
      store::sweep_state(counts, verification ? &*verification : nullptr, checksums ? &*checksums : nullptr,
                         verification ? &journal : nullptr);
  const std::vector<store::SizeProgress> sizes = store::progress_by_size(reader, status);
  if (sizes.size() > 1) {  // a finite-size sweep: how far each size is (the largest run first)
    std::printf("by size:");
    for (std::size_t n = 0; n < sizes.size(); ++n) {
      std::printf("%s d=%d %lld/%lld done", n ? ";" : "", sizes[n].d, static_cast<long long>(sizes[n].done),
                  static_cast<long long>(sizes[n].total));
    }
    std::printf("\n");
  }
  // Refined points (/refine, `rmtsweep refine`): rows given to points, by status.
  {
    const store::RefinedRows refined = store::read_refined_rows(reader.file());
    std::int64_t given = 0, done = 0, pending = 0, failed = 0;
    for (const std::int64_t s : refined.status) {
      if (s == static_cast<std::int64_t>(store::PointStatus::unused)) continue;
      ++given;
      done += s == static_cast<std::int64_t>(store::PointStatus::done) ? 1 : 0;
      pending += s == static_cast<std::int64_t>(store::PointStatus::pending) ? 1 : 0;
      failed += s == static_cast<std::int64_t>(store::PointStatus::failed) ? 1 : 0;
    }
    if (!refined.status.empty()) {
      std::printf("refined points: %lld (of %zu rows preallocated), %lld done, %lld pending, %lld failed\n",
                  static_cast<long long>(given), refined.status.size(), static_cast<long long>(done),
                  static_cast<long long>(pending), static_cast<long long>(failed));
    }
  }
  if (reader.has(store::column::solver)) {  // files written before the Krylov engine have no solver
    // What computed the done points' eigenpairs, with the Krylov engine's work.
    const auto solvers = reader.texts(store::column::solver);
    const auto products = reader.integers(store::column::operator_products);
    const auto fell_back = reader.integers(store::column::solver_fell_back);
    std::map<std::string, std::int64_t> by_solver;
    std::int64_t krylov = 0, most = 0, total = 0, fallbacks = 0;
    for (std::size_t i = 0; i < status.size(); ++i) {
      if (status[i] != static_cast<std::int64_t>(store::PointStatus::done)) continue;
      ++by_solver[solvers[i]];
      fallbacks += fell_back[i];
      if (solvers[i] == parallel::to_string(parallel::Reducer::spectra_lanczos) ||
          solvers[i] == parallel::to_string(parallel::Reducer::spectra_davidson) ||
          solvers[i] == parallel::to_string(parallel::Reducer::block_lanczos)) {
        ++krylov;
        total += products[i];
        most = std::max(most, products[i]);
      }
    }
    std::printf("eigenpairs by:");
    for (const auto& [name, n] : by_solver) std::printf(" %s %lld;", name.c_str(), static_cast<long long>(n));
    if (krylov > 0) {
      std::printf(" Krylov products per point: mean %.0f, most %lld",
                  static_cast<double>(total) / static_cast<double>(krylov), static_cast<long long>(most));
    }
    if (fallbacks > 0)
      std::printf("; %lld recomputed with S formed after the Krylov engine's budget",
                  static_cast<long long>(fallbacks));
    std::printf("\n");
  }
  const std::vector<store::FailedPoint> failed = store::failed_points(reader, status, journal);
  if (!failed.empty()) std::printf("failed points:\n");
  for (const store::FailedPoint& f : failed) {
    std::printf("  %zu (d=%lld delta=%s gamma=%s snr=%s weighting=%s trial=%lld): %s\n", f.point,
                static_cast<long long>(f.d), model::format_double(f.delta).c_str(),
                model::format_double(f.gamma).c_str(), model::format_double(f.snr).c_str(),
                f.weighting.c_str(), static_cast<long long>(f.trial),
                f.message.empty() ? "(no message: the run that failed it did not close the file, and its "
                                    "journal holds none)"
                                  : f.message.c_str());
  }
  std::printf("state: %s\n", store::to_string(state));
  return state;
}

/// "; or `rmtsweep recover FILE` rebuilds it from its journal" where the file has one.
std::string recover_note(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(store::journal_directory(path), ec)) return {};
  return "; or `rmtsweep recover " + path + "` rebuilds it from its journal (" +
         store::journal_directory(path) + ")";
}

}  // namespace

int command_status(int argc, char** argv) {
  std::string path;
  bool help = false, no_verify = false, json = false;
  po::options_description options;
  options.add_options()("file", po::value<std::string>(&path), "the sweep file");
  add_command_option(options, config::in_status, "no-verify", &no_verify);
  add_command_option(options, config::in_status, "json", &json);
  options.add_options()("help,h", po::bool_switch(&help), "this help");
  if (!parse_file_command(argc, argv, options, "status", help, path,
                          "rmtsweep status FILE.h5 [--no-verify] [--json]",
                          "Summarises a sweep file: its config, runs, and points done, pending and failed; "
                          "while a run holds it, the run's rate and ETA."))
    return 0;
  // A serial report: rank 0 alone reads the file (MPI is initialised only under a launcher: main.cpp).
  if (parallel::world_rank() != 0) return 0;
  store::SweepState state{};
  try {
    if (json) {
      const nlohmann::json report = status_json(store::SweepReader(path), !no_verify);
      std::printf("%s\n", report.dump(2).c_str());
      return report["exit_status"].get<int>();
    } else {
      state = print_status(path, !no_verify);
    }
  } catch (const Hdf5Error& e) {  // opened, but a read failed: a damaged file, an I/O error
    throw io::file_error(path, "read the sweep file", e).with_note(recover_note(path));
  } catch (const FileIoError& e) {  // it does not open (truncated, damaged)
    throw e.with_note(recover_note(path));
  }
  return status_exit_code(state);
}

}  // namespace rmtsweep::app