// The point journal around a run (include/rmtsweep/store/run_journal.hpp).
#include "rmtsweep/store/run_journal.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/recover.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::store {
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
    const JournalFile file = read_journal_file(entry.path().string());
    if (!file.has_head) continue;
    ++s.files;
    s.records += static_cast<std::int64_t>(file.records.size());
    s.last_run = std::max(s.last_run, file.head.run);
    s.sweep_ids.insert(file.head.provenance.sweep_id);
  }
  return s;
}

/// Why a run refuses the journal beside `output`, on rank 0.
struct JournalProblem {
  std::string problem;         ///< empty: none
  bool needs_replace = false;  ///< a new sweep's: the switch `replace` would move the journal aside
  std::string moved_to;        ///< where the old journal went (a new sweep's)
};

JournalProblem refused(std::string problem, bool needs_replace = false) {
  return {std::move(problem), needs_replace, {}};
}

/// Rank 0's decision: the problem that refuses the run, or none (having moved the journal aside).
JournalProblem journal_problem(const std::string& output, bool resuming, bool replace) {
  const std::string directory = journal_directory(output);
  if (const std::string kind = io::kind_at(directory); !kind.empty() && kind != "a directory") {
    return refused("its journal's path " + directory + " is " + kind +
                   ", not the journal's directory: move it aside and run the same command again");
  }
  const Survey s = survey(directory);
  if (!s.exists) return {};
  if (!resuming) {
    if (s.records > 0 && !replace) {
      return refused("its journal " + directory + " holds " + std::to_string(s.records) +
                         " points of a sweep whose file is missing: `rmtsweep recover " + output +
                         "` rebuilds the file from it",
                     true);
    }
    const std::string aside = io::aside_name(directory, "replaced");
    io::rename_path(directory, aside, "move the old journal aside");
    return {{}, false, aside};
  }
  const SweepReader reader(output);
  const std::string id = reader.text_attribute("sweep_id").value_or("");
  const std::int64_t runs = reader.integer_attribute("runs").value_or(0);
  for (const std::string& other : s.sweep_ids) {
    if (other != id) {
      return refused("its journal " + directory + " belongs to another sweep (sweep_id " + other +
                     ", the file's is " + (id.empty() ? "unrecorded" : id) +
                     "): move the journal aside and run the same command again");
    }
  }
  if (s.last_run >= runs) {
    return refused(
        "its journal " + directory + " holds run " + std::to_string(s.last_run) +
        ", which the file does not record (" + std::to_string(runs) +
        " runs): a file restored from an older copy? `rmtsweep recover " + output +
        "` rebuilds it from the journal with those points; or move the journal aside to resume the "
        "file as it is");
  }
  return {};
}

/// Whether `output` opens as a sweep file (SweepReader checks its schema and datasets).
bool readable_sweep(const std::string& output) {
  try {
    const SweepReader reader(output);
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

std::optional<ResumeRebuild> recover_before_resume(const std::string& output, MPI_Comm comm,
                                                   const io::FileLock* held) {
  std::optional<ResumeRebuild> rebuilt;
  const std::string problem = parallel::decided_on_root(comm, [&]() -> std::string {
    try {
      if (std::filesystem::exists(output) && readable_sweep(output)) return {};
      const Survey s = survey(journal_directory(output));
      if (!s.exists || s.records == 0) return {};  // nothing to rebuild from: the run's own checks speak
      rebuilt = ResumeRebuild{!std::filesystem::exists(output), recover_sweep(output, held)};
      return {};
    } catch (const Error& e) {
      return "it could not be read as a sweep file, and rebuilding it from its journal failed: " +
             std::string(e.what());
    }
  });
  if (!problem.empty()) throw InvalidArgument("resume", output, problem);
  return rebuilt;
}

std::string prepare_journal(const std::string& output, bool resuming, bool replace, MPI_Comm comm) {
  std::string moved_to;
  bool needs_replace = false;
  const std::string problem = parallel::decided_on_root(comm, [&] {
    try {
      const JournalProblem p = journal_problem(output, resuming, replace);
      moved_to = p.moved_to;
      needs_replace = p.needs_replace;
      return p.problem;
    } catch (const FileIoError& e) {
      return std::string(e.what());
    }
  });
  if (problem.empty()) return moved_to;
  if (parallel::broadcast(needs_replace, comm))
    throw InvalidArgument("output", output, problem, "force",
                          "start a new sweep instead (moving the journal aside)");
  throw InvalidArgument(resuming ? "resume" : "output", output, problem);
}

JournalSnapshot snapshot_journal(const std::string& output, MPI_Comm comm) {
  JournalSnapshot files;
  if (parallel::rank_of(comm) != 0) return files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(journal_directory(output), ec)) {
    if (entry.path().extension() == ".jrnl") files[entry.path().filename().string()] = entry.file_size(ec);
  }
  return files;
}

std::vector<JournalLoss> journal_losses(const std::string& output, const JournalSnapshot& before) {
  std::vector<JournalLoss> lost;
  const std::string directory = journal_directory(output);
  for (const auto& [name, bytes] : before) {
    std::error_code ec;
    const std::uintmax_t now = std::filesystem::file_size(directory + "/" + name, ec);
    if (!ec && now >= bytes) continue;
    lost.push_back({directory + "/" + name, bytes, ec ? std::nullopt : std::optional<std::uintmax_t>(now)});
  }
  return lost;
}

Damage find_damage(const std::string& output, bool journal, MPI_Comm comm) {
  Damage damage;
  parallel::agreed(comm, [&] {
    if (parallel::rank_of(comm) != 0) return;
    const SweepReader reader(output);
    std::optional<Journal> records;
    std::error_code ec;
    if (journal && std::filesystem::is_directory(journal_directory(output), ec))
      records = read_journal(journal_directory(output));  // of this sweep: prepare_journal checked
    const ChecksumReport sums = check_checksums(reader.file());
    Verification v = verify_sweep(reader, records ? &*records : nullptr, sums.damaged_points);
    damage.points = std::move(v.damaged);
    damage.pending = std::move(v.pending_with_record);
    const std::vector<const LineRecord*> lines =
        records ? latest_lines(*records) : std::vector<const LineRecord*>{};
    for (const std::int64_t line : sums.damaged_lines) {
      if (line >= 0 && static_cast<std::size_t>(line) < lines.size() && lines[static_cast<std::size_t>(line)])
        damage.lines.push_back(*lines[static_cast<std::size_t>(line)]);
      else if (line >= 0)
        damage.lines_without_record.push_back(line);
    }
    for (const std::string& path : sums.damaged_datasets) {
      // A theory column of another version is kept as written (verify.hpp): not rewritten with this one's.
      const bool other_theory =
          std::any_of(v.other_theory.begin(), v.other_theory.end(),
                      [&](const std::string& name) { return path.ends_with("/" + name); });
      (repairer_of(path) == Repairer::resume && !other_theory ? damage.datasets : damage.unrepaired)
          .push_back(path);
    }
  });
  return damage;
}

Repair repair_damage(SweepFile& file, const config::Grid& grid,
                     const std::vector<theory::Prediction>& predictions, const Damage& damaged,
                     MPI_Comm comm) {
  Repair repair;
  parallel::agreed(comm, [&] {
    for (const DamagedPoint& point : damaged.points) {
      file.write_parameters(point.index, grid, predictions.at(static_cast<std::size_t>(point.index)),
                            point.columns);
      if (point.record) {
        file.write_record(*point.record);
        ++repair.restored;
      } else if (std::any_of(point.columns.begin(), point.columns.end(), [](const std::string& name) {
                   const Column* column = find_column(name);
                   return column == nullptr || column->phase != ColumnPhase::parameter;
                 })) {
        file.mark_pending(point.index);
        ++repair.again;
      }
    }
    for (const DamagedPoint& point : damaged.pending) {
      file.write_record(*point.record);
      ++repair.pending_restored;
    }
    for (const LineRecord& line : damaged.lines) {
      file.restore_line(line);
      ++repair.lines_restored;
    }
    if (!damaged.lines_without_record.empty()) {
      // The run computes a line's row again with its points.
      const std::vector<std::int64_t> status = file.read_status();
      for (std::int64_t i = 0; i < grid.size(); ++i) {
        const std::int64_t line = grid.line_of(i);
        if (status.at(static_cast<std::size_t>(i)) == static_cast<std::int64_t>(PointStatus::pending) ||
            std::find(damaged.lines_without_record.begin(), damaged.lines_without_record.end(), line) ==
                damaged.lines_without_record.end())
          continue;
        file.mark_pending(i);
        ++repair.lines_again;
      }
    }
  });
  // The datasets' checksum attributes are written by every rank alike: the names go to all.
  std::string names;
  for (const std::string& path : damaged.datasets) names += path + "\n";
  names = parallel::broadcast(names, comm);
  parallel::agreed(comm, [&] {
    std::size_t begin = 0;
    while (begin < names.size()) {
      const std::size_t end = names.find('\n', begin);
      repair.datasets += file.restore_created(names.substr(begin, end - begin), grid, predictions) ? 1 : 0;
      begin = end + 1;
    }
  });
  return repair;
}

void attach_journal(SweepFile& file, const std::string& output, std::int64_t points, MPI_Comm comm,
                    const std::string& building) {
  const std::string directory = building.empty() ? journal_directory(output) : building;
  const int rank = parallel::rank_of(comm);
  JournalHead head;
  head.file_name = std::filesystem::path(io::resolved_path(output)).filename().string();
  head.schema_version = io::read_int_attribute(file.handle(), "schema_version");
  head.config = file.config_text();
  head.provenance = file.provenance();
  head.run = file.run_index();
  head.rank = rank;
  head.k = file.k();
  head.points = points;
  head.columns = journal_columns(file.written_columns());
  // Rank 0's file in `directory` (the journal being built, with `building`); the others' in the journal's
  // own directory, which exists when they create their files there with their first points.
  auto writer =
      std::make_unique<JournalWriter>(rank == 0 ? directory : journal_directory(output), std::move(head));
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

}  // namespace rmtsweep::store
