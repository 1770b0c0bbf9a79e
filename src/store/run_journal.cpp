// The journal of `rmtsweep run` (src/app/run_journal.hpp).
#include "run_journal.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/recover.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::app {
namespace {

/// What a journal directory holds, read leniently (files without a head are counted apart).
struct Survey {
  bool exists = false;
  std::int64_t files = 0, records = 0, last_run = -1;
  std::set<std::string> sweep_ids;
};

Survey survey(const std::string& directory) {
  Survey s;
  std::error_code ec;
  s.exists = std::filesystem::is_directory(directory, ec);
  if (!s.exists) return s;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (entry.path().extension() != ".jrnl") continue;
    const store::JournalFile file = store::read_journal_file(entry.path().string());
    if (!file.has_head) continue;
    ++s.files;
    s.records += static_cast<std::int64_t>(file.records.size());
    s.last_run = std::max(s.last_run, file.head.run);
    s.sweep_ids.insert(file.head.provenance.sweep_id);
  }
  return s;
}

/// Rank 0's decision: the problem that refuses the run, or empty (having moved the journal aside).
std::string journal_problem(const std::string& output, bool resuming, bool force) {
  const std::string directory = store::journal_directory(output);
  if (const std::string kind = io::kind_at(directory); !kind.empty() && kind != "a directory") {
    return "its journal's path " + directory + " is " + kind +
           ", not the journal's directory: move it aside and run the same command again";
  }
  const Survey s = survey(directory);
  if (!s.exists) return {};
  if (!resuming) {
    if (s.records > 0 && !force) {
      return "its journal " + directory + " holds " + std::to_string(s.records) +
             " points of a sweep whose file is missing: `rmtsweep recover " + output +
             "` rebuilds the file from it; --force starts a new sweep instead (moving the journal aside)";
    }
    const std::string aside = io::aside_name(directory, "replaced");
    io::rename_path(directory, aside, "move the old journal aside");
    std::fprintf(stderr,
                 "rmtsweep run: note: the old journal %s was moved to %s (remove it when not needed)\n",
                 directory.c_str(), aside.c_str());
    return {};
  }
  const store::SweepReader reader(output);
  const std::string id = reader.text_attribute("sweep_id").value_or("");
  const std::int64_t runs = reader.integer_attribute("runs").value_or(0);
  for (const std::string& other : s.sweep_ids) {
    if (other != id) {
      return "its journal " + directory + " belongs to another sweep (sweep_id " + other +
             ", the file's is " + (id.empty() ? "unrecorded" : id) +
             "): move the journal aside and run the same command again";
    }
  }
  if (s.last_run >= runs) {
    return "its journal " + directory + " holds run " + std::to_string(s.last_run) +
           ", which the file does not record (" + std::to_string(runs) +
           " runs): a file restored from an older copy? `rmtsweep recover " + output +
           "` rebuilds it from the journal with those points; or move the journal aside to resume the file "
           "as it is";
  }
  return {};
}

/// Whether `output` opens as a sweep file (SweepReader checks its schema and datasets).
bool readable_sweep(const std::string& output) {
  try {
    const store::SweepReader reader(output);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

bool journal_enabled(MPI_Comm comm) {
  return parallel::decided_on_root(comm, [] {
    const char* setting = std::getenv("RMTSWEEP_JOURNAL");
    return !(setting && std::string(setting) == "off");
  });
}

void recover_before_resume(const std::string& output, MPI_Comm comm) {
  const std::string problem = parallel::decided_on_root(comm, [&]() -> std::string {
    try {
      if (std::filesystem::exists(output) && readable_sweep(output)) return {};
      const Survey s = survey(store::journal_directory(output));
      if (!s.exists || s.records == 0) return {};  // nothing to rebuild from: the run's own checks speak
      const store::RecoverOutcome o = store::recover_sweep(output);
      std::fprintf(stderr,
                   "rmtsweep run: %s %s: rebuilt from its journal (%lld records, as `rmtsweep recover` does): "
                   "%lld of %lld points done, %lld failed; resuming the rest\n",
                   output.c_str(), o.damaged.empty() ? "is missing" : "could not be read as a sweep file",
                   static_cast<long long>(o.records), static_cast<long long>(o.done),
                   static_cast<long long>(o.points), static_cast<long long>(o.failed));
      if (!o.damaged.empty())
        std::fprintf(stderr, "rmtsweep run: the file that was there is kept as %s\n", o.damaged.c_str());
      for (const std::string& note : o.notes) std::fprintf(stderr, "rmtsweep run: note: %s\n", note.c_str());
      return {};
    } catch (const Error& e) {
      return "it could not be read as a sweep file, and rebuilding it from its journal failed: " +
             std::string(e.what());
    }
  });
  if (!problem.empty()) throw InvalidOption("resume", output, problem);
}


void prepare_journal(const std::string& output, bool resuming, bool force, MPI_Comm comm) {
  const std::string problem = parallel::decided_on_root(comm, [&] {
    try {
      return journal_problem(output, resuming, force);
    } catch (const FileIoError& e) {
      return std::string(e.what());
    }
  });
  if (!problem.empty()) throw InvalidOption(resuming ? "resume" : "output", output, problem);
}

JournalSnapshot snapshot_journal(const std::string& output, MPI_Comm comm) {
  JournalSnapshot files;
  if (parallel::rank_of(comm) != 0) return files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(store::journal_directory(output), ec)) {
    if (entry.path().extension() == ".jrnl") files[entry.path().filename().string()] = entry.file_size(ec);
  }
  return files;
}

void report_journal_losses(const std::string& output, const JournalSnapshot& before) {
  const std::string directory = store::journal_directory(output);
  for (const auto& [name, bytes] : before) {
    std::error_code ec;
    const std::uintmax_t now = std::filesystem::file_size(directory + "/" + name, ec);
    if (!ec && now >= bytes) continue;
    std::fprintf(
        stderr,
        "rmtsweep run: warning: %s/%s (of an earlier run) was %s while this run ran: the points of its "
        "lost records are lost to `rmtsweep recover` (the sweep file holds them; `rmtsweep status` counts "
        "them as without a record)\n",
        directory.c_str(), name.c_str(),
        ec ? "removed"
           : ("cut short (" + std::to_string(now) + " of its " + std::to_string(bytes) + " bytes left)")
                 .c_str());
  }
}

std::vector<store::DamagedPoint> find_damage(const std::string& output, bool journal, MPI_Comm comm) {
  std::vector<store::DamagedPoint> damaged;
  parallel::agreed(comm, [&] {
    if (parallel::rank_of(comm) != 0) return;
    const store::SweepReader reader(output);
    std::optional<store::Journal> records;
    std::error_code ec;
    if (journal && std::filesystem::is_directory(store::journal_directory(output), ec))
      records =
          store::read_journal(store::journal_directory(output));  // of this sweep: prepare_journal checked
    damaged = store::verify_sweep(reader, records ? &*records : nullptr).damaged;
  });
  return damaged;
}

void repair_damage(store::SweepFile& file, const std::string& output, const config::Grid& grid,
                   const std::vector<theory::Prediction>& predictions,
                   const std::vector<store::DamagedPoint>& damaged, MPI_Comm comm) {
  std::int64_t restored = 0, again = 0;
  parallel::agreed(comm, [&] {
    for (const store::DamagedPoint& point : damaged) {
      file.write_parameters(point.index, grid, predictions.at(static_cast<std::size_t>(point.index)),
                            point.columns);
      if (point.record) {
        file.write_record(*point.record);
        ++restored;
      } else if (std::any_of(point.columns.begin(), point.columns.end(), [](const std::string& name) {
                   const store::Column* column = store::find_column(name);
                   return column == nullptr || column->phase != store::ColumnPhase::parameter;
                 })) {
        file.mark_pending(point.index);
        ++again;
      }
    }
  });
  if (damaged.empty()) return;
  store::Verification said;
  for (const store::DamagedPoint& point : damaged)
    said.damaged.push_back({point.index, point.columns, std::nullopt});
  std::fprintf(
      stderr,
      "rmtsweep run: %s: %zu points held values other than those written (damaged bytes: %s): %lld restored "
      "from the journal, %lld to compute again, their damaged creation-time values rewritten from the "
      "config\n",
      output.c_str(), damaged.size(), store::describe_damage(said).c_str(), static_cast<long long>(restored),
      static_cast<long long>(again));
}

void attach_journal(store::SweepFile& file, const std::string& output, std::int64_t points, MPI_Comm comm,
                    const std::string& building) {
  const std::string directory = building.empty() ? store::journal_directory(output) : building;
  const int rank = parallel::rank_of(comm);
  store::JournalHead head;
  head.file_name = std::filesystem::path(output).filename().string();
  head.schema_version = io::read_int_attribute(file.handle(), "schema_version");
  head.config = file.config_text();
  head.provenance = file.provenance();
  head.run = file.run_index();
  head.rank = rank;
  head.k = file.k();
  head.points = points;
  head.columns = store::journal_columns(file.written_columns());
  // Rank 0's file in `directory` (the journal being built, with `building`); the others' in the journal's
  // own directory, which exists when they create their files there with their first points.
  auto writer = std::make_unique<store::JournalWriter>(
      rank == 0 ? directory : store::journal_directory(output), std::move(head));
  // The directory exists before a leader creates its file in it; a failure on rank 0 ends every rank.
  parallel::agreed(comm, [&] {
    if (rank != 0) return;
    std::error_code ec;
    if (!std::filesystem::create_directory(directory, ec) && !ec &&
        !std::filesystem::is_directory(directory, ec))
      ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) throw io::os_file_error(directory, "create the sweep's journal directory", ec.value());
    writer->open();
  });
  file.attach_journal(std::move(writer));
}

}  // namespace rmtsweep::app
