// The shards of a sweep merged into one file (include/rmtsweep/store/merge.hpp).
#include "rmtsweep/store/merge.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/config/shard.hpp"
#include "rmtsweep/io/file_error.hpp"
#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/io/move_aside.hpp"
#include "rmtsweep/io/staged_path.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/random/counter_rng.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/verify.hpp"
#include "rmtsweep/store/writer_lock.hpp"
#include "rmtsweep/version.hpp"

namespace fs = std::filesystem;

namespace rmtsweep::store {
namespace {

/// One file given to merge, open and locked.
struct Input {
  std::string path;
  std::unique_ptr<SweepReader> reader;
  Provenance provenance;
  std::vector<std::int64_t> status;
  io::FileLock lock;
};

bool holds(std::int64_t status) {
  return status == static_cast<std::int64_t>(PointStatus::done) ||
         status == static_cast<std::int64_t>(PointStatus::failed);
}

std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ") {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

std::string shard_name(const Input& input) {
  return input.provenance.shard.whole() ? input.path + " (a whole sweep)"
                                        : input.path + " (shard " + input.provenance.shard.text() + ")";
}

/// Opens, locks and checks one file: a complete sweep file of this schema whose draws this rmtsweep makes.
Input open_input(const std::string& path) {
  if (const std::string problem = io::not_regular_problem(path); !problem.empty())
    throw InvalidFile(path, problem + ": give the sweep files of the shards");
  Input input;
  input.path = path;
  input.reader = std::make_unique<SweepReader>(path);
  const SweepReader& reader = *input.reader;
  if (reader.schema_version() != schema_version) {
    throw InvalidFile(path, "was written with schema_version " + std::to_string(reader.schema_version()) +
                                " and this rmtsweep writes " + std::to_string(schema_version) +
                                ": merge it with the rmtsweep that wrote it");
  }
  const StoredDraws draws = reader.draws();
  if (draws.version != random::draws_version || draws.library != random::draws_library()) {
    throw InvalidFile(path, "its points were drawn with draws_version " + std::to_string(draws.version) +
                                " (" + (draws.library.empty() ? "unrecorded" : draws.library) +
                                "), this rmtsweep draws version " + std::to_string(random::draws_version) +
                                " (" + random::draws_library() +
                                "): merge it with the rmtsweep that wrote it");
  }
  input.provenance = detail::read_provenance(reader.file());
  input.status = reader.status();
  input.lock = io::FileLock::for_writing(path);
  if (input.lock.outcome() == io::FileLock::Outcome::held_elsewhere) {
    throw InvalidFile(path, "a running rmtsweep holds its lock (" + io::lock_path(path) +
                                ", or the file itself): merge once it has ended");
  }
  return input;
}

/// Refuses a file of another sweep, version or split than the first.
void check_same_sweep(const Input& first, const Input& other) {
  const std::string& a = first.reader->config_text();
  const std::string& b = other.reader->config_text();
  if (!config::same_sweep(a, b)) {
    throw InvalidFile(other.path, "holds another sweep than " + first.path + " (their configs differ, - " +
                                      first.path +
                                      ", + this one: " + joined(config::config_differences(a, b), "; ") +
                                      "): merge the shards of one sweep only");
  }
  if (first.provenance.rmtsweep_version != other.provenance.rmtsweep_version) {
    throw InvalidFile(other.path, "was created by rmtsweep " + other.provenance.rmtsweep_version + " and " +
                                      first.path + " by rmtsweep " + first.provenance.rmtsweep_version +
                                      ": merge the shards of one rmtsweep version (their values may differ)");
  }
  const config::Shard &s = first.provenance.shard, &t = other.provenance.shard;
  if (!s.whole() && !t.whole() && s.count != t.count) {
    throw InvalidFile(other.path, "holds shard " + t.text() + " and " + first.path + " shard " + s.text() +
                                      ": merge the shards of one split (the same n of --shard i/n)");
  }
}

/// Refuses a shard that an earlier file holds too.
void check_new_shard(const std::vector<Input>& earlier, const Input& other) {
  const config::Shard& t = other.provenance.shard;
  for (const Input& input : earlier) {
    if (!t.whole() && input.provenance.shard == t) {
      throw InvalidFile(other.path, "holds shard " + t.text() + ", as " + input.path +
                                        " does: give each shard once (the finished one)");
    }
  }
}

/// Per point the input that holds it done or failed (-1: none); refuses a point two inputs hold.
std::vector<int> owners(const std::vector<Input>& inputs, std::int64_t points) {
  std::vector<int> owner(static_cast<std::size_t>(points), -1);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    std::int64_t overlap = 0, first = -1;
    int other = -1;
    for (std::int64_t i = 0; i < points; ++i) {
      int& o = owner[static_cast<std::size_t>(i)];
      if (!holds(inputs[k].status[static_cast<std::size_t>(i)])) continue;
      if (o >= 0) {
        if (overlap++ == 0) first = i, other = o;
        continue;
      }
      o = static_cast<int>(k);
    }
    if (overlap > 0) {
      throw InvalidArgument::described("shards", inputs[k].path,
                                       std::to_string(overlap) + " points are done (or failed) both in " +
                                           shard_name(inputs[static_cast<std::size_t>(other)]) + " and in " +
                                           shard_name(inputs[k]) + " (the first: point " +
                                           std::to_string(first) +
                                           "); each point must come from one file: give each shard once");
    }
  }
  return owner;
}

/// The refusal of a merge with `gaps` points done in no file: the shards not given, the files unfinished.
std::string gap_message(const std::vector<Input>& inputs, const config::Grid& grid, std::int64_t gaps) {
  std::vector<std::string> problems;
  int count = 0;
  std::set<int> given;
  for (const Input& input : inputs) {
    if (input.provenance.shard.whole()) continue;
    count = input.provenance.shard.count;
    given.insert(input.provenance.shard.index);
  }
  std::vector<std::string> missing;
  for (int i = 1; i <= count; ++i)
    if (!given.count(i)) missing.push_back(config::Shard{i, count}.text());
  if (!missing.empty()) {
    problems.push_back((missing.size() == 1 ? "shard " : "shards ") + joined(missing) + " of the " +
                       std::to_string(count) + " not given");
  }
  for (const Input& input : inputs) {
    const std::vector<char> mine = config::shard_points(grid, input.provenance.shard);
    std::int64_t pending = 0, total = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (!mine[i]) continue;
      ++total;
      pending += holds(input.status[i]) ? 0 : 1;
    }
    if (pending > 0) {
      problems.push_back(shard_name(input) + " has " + std::to_string(pending) + " of its " +
                         std::to_string(total) + " points pending (`rmtsweep run ... --output " + input.path +
                         (input.provenance.shard.whole() ? "" : " --shard " + input.provenance.shard.text()) +
                         " --resume` finishes it)");
    }
  }
  return std::to_string(gaps) + " of the " + std::to_string(grid.size()) +
         " points are done in none of the files given: " + joined(problems, "; ");
}

/// Refuses an output that is one of the inputs, or exists (or has a journal beside it) without `force`.
void check_output(const MergeOptions& options) {
  std::error_code ec;
  const fs::path out = options.output;
  if (!fs::is_directory(fs::absolute(out).parent_path(), ec))
    throw InvalidArgument("output", options.output, "a file in an existing directory");
  const bool exists = fs::exists(fs::symlink_status(out, ec));
  for (const std::string& input : options.inputs) {
    if (exists && fs::equivalent(out, input, ec)) {
      throw InvalidArgument("output", options.output,
                            "a new file, not one of the shards given (merge writes a file of its own)");
    }
  }
  if (exists && !fs::is_regular_file(out, ec))
    throw InvalidArgument("output", options.output,
                          "a regular file (this path is " + io::kind_at(options.output) + ")");
  if (exists && !options.force)
    throw InvalidArgument("output", options.output, "exists", "force", "replace it");
  const std::string journal = journal_directory(options.output);
  if (fs::exists(fs::symlink_status(journal, ec)) && !options.force) {
    throw InvalidArgument(
        "output", options.output,
        "a path without a journal beside it: " + journal + " exists (another sweep's); move it aside",
        "force", "move it aside");
  }
}

/// With --force, the journal of the file OUT.h5 replaces goes aside (a resume of OUT.h5 would refuse it).
void move_old_journal(const MergeOptions& options, std::vector<std::string>& notes) {
  std::error_code ec;
  const std::string journal = journal_directory(options.output);
  if (fs::exists(fs::symlink_status(journal, ec))) {
    const std::string aside = io::aside_name(journal, "replaced");
    io::rename_path(journal, aside, "move the old journal aside");
    notes.push_back("the old journal " + journal + " was moved to " + aside + " (remove it when not needed)");
  }
}

/// Per point of `input`, its failure message (failure_messages.hpp); its journal is read only where a failed
/// point's message is not in the file yet (a shard killed before its close, merged with --allow-partial).
std::vector<std::string> messages_of(const Input& input) {
  const SweepReader& reader = *input.reader;
  const std::vector<char> settled = messages_settled(reader, reader.integers(column::run));
  bool behind = false;
  for (std::size_t i = 0; i < input.status.size(); ++i)
    behind = behind || (input.status[i] == static_cast<std::int64_t>(PointStatus::failed) && !settled[i]);
  std::optional<Journal> journal;
  std::error_code ec;
  if (behind && fs::is_directory(journal_directory(input.path), ec)) {
    try {
      journal = read_journal(journal_directory(input.path));
      if (journal->head().provenance.sweep_id != input.provenance.sweep_id) journal.reset();
    } catch (const Error&) {  // no journal to take them from: the file's own (none) stay
      journal.reset();
    }
  }
  return failure_messages(reader, journal ? &*journal : nullptr);
}

}  // namespace

MergeOutcome merge_sweeps(const MergeOptions& options) {
  if (options.inputs.empty())
    throw InvalidArgument("shards", "", "one or more sweep files of shards (rmtsweep run --shard i/n)");
  // The output's lock first, before anything is looked at or moved there.
  const io::FileLock lock = lock_for_writing(options.output, "output");
  check_output(options);
  std::vector<Input> inputs;
  for (const std::string& path : options.inputs) {
    for (const Input& earlier : inputs) {
      std::error_code ec;
      if (fs::equivalent(earlier.path, path, ec))
        throw InvalidFile(path, "is given twice (as " + earlier.path + "): give each shard once");
    }
    Input input = open_input(path);
    if (!inputs.empty()) check_same_sweep(inputs.front(), input);
    check_new_shard(inputs, input);
    inputs.push_back(std::move(input));
  }
  const std::string& config_text = inputs.front().reader->config_text();
  const config::Grid grid(
      config::with_stored_axes(config::parse_sweep_config(config_lines(config_text)), config_text));
  for (const Input& input : inputs) {
    if (static_cast<std::int64_t>(input.status.size()) != grid.size()) {
      throw InvalidFile(input.path, "holds " + std::to_string(input.status.size()) + " points, its config " +
                                        std::to_string(grid.size()) + ": a damaged file?");
    }
  }
  const std::vector<int> owner = owners(inputs, grid.size());
  MergeOutcome outcome;
  outcome.points = grid.size();
  outcome.pending = std::count(owner.begin(), owner.end(), -1);
  if (outcome.pending > 0 && !options.allow_partial)
    throw InvalidArgument::described(
        "shards", options.inputs.front(),
        gap_message(inputs, grid, outcome.pending) + ". Give every shard, finished", "allow_partial",
        "write the points there are (the others pending: `rmtsweep run --resume` on the merged file computes "
        "them)");
  if (outcome.pending > 0)
    outcome.notes.push_back(gap_message(inputs, grid, outcome.pending) + ": pending here");

  // The output's provenance: the shards' versions, their runs one after the other.
  Provenance provenance = inputs.front().provenance;
  provenance.sweep_id = new_sweep_id();
  provenance.shard = {};
  provenance.runs.clear();
  std::vector<std::int64_t> run_offset;
  std::string merged;
  for (const Input& input : inputs) {
    run_offset.push_back(static_cast<std::int64_t>(provenance.runs.size()));
    for (RunInfo run : input.provenance.runs) {
      if (run.shard.whole()) run.shard = input.provenance.shard;
      provenance.runs.push_back(std::move(run));
    }
    provenance.fault_injection = provenance.fault_injection || input.provenance.fault_injection;
    merged += (merged.empty() ? "" : ", ") + shard_name(input) + " sweep_id " + input.provenance.sweep_id +
              ", its runs here " + std::to_string(run_offset.back()) + " to " +
              std::to_string(provenance.runs.size() - 1);
  }
  const std::vector<theory::Prediction> predictions = config::grid_predictions(grid);

  io::StagedPath building = io::StagedPath::fixed(options.output, "merging");
  try {
    const parallel::Communicator self = parallel::Communicator::duplicate(MPI_COMM_SELF);
    SweepFile file = SweepFile::create(building.path(), self, grid, predictions, provenance, config_text);
    const std::vector<JournalColumn> columns = journal_columns(file.written_columns());
    std::size_t run_cell = columns.size(), error_cell = columns.size();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].name == column::run.name) run_cell = c;
      if (columns[c].name == column::error.name) error_cell = c;
    }
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const Input& input = inputs[k];
      // Its lines' rows first, as a run writes them: those whose points it gives.
      for (const auto& [line, stored] : read_lines(input.reader->file(), grid.config())) {
        const std::vector<std::int64_t> points = grid.line_points(line);
        if (std::any_of(points.begin(), points.end(), [&](std::int64_t i) {
              return owner[static_cast<std::size_t>(i)] == static_cast<int>(k);
            }))
          file.write_line(line, stored.secular, stored.converged);
      }
      std::vector<std::int64_t> rows;
      for (std::int64_t i = 0; i < grid.size(); ++i)
        if (owner[static_cast<std::size_t>(i)] == static_cast<int>(k)) rows.push_back(i);
      const std::vector<std::string> messages = messages_of(input);
      for (PointRecord& record : read_records(*input.reader, columns, rows)) {
        if (run_cell < columns.size()) std::get<std::int64_t>(record.cells[run_cell]) += run_offset[k];
        if (error_cell < columns.size())
          record.cells[error_cell] = messages[static_cast<std::size_t>(record.index)];
        file.write_record(record);
        (record_status(record) == PointStatus::done ? outcome.done : outcome.failed) += 1;
      }
    }
    io::write_attribute(file.handle(), "merged",
                        io::utc_stamp() + " by rmtsweep " + rmtsweep::version + " merge (" +
                            options.command_line + ") of " + merged + " (" +
                            std::to_string(outcome.done + outcome.failed) + " of " +
                            std::to_string(grid.size()) + " points)");
    file.close();
  } catch (const Hdf5Error& e) {  // told before `building` is removed (file_error looks at the free space)
    throw io::file_error(building.path(), "write the merged sweep file", e,
                         "nothing was changed at " + options.output + " (the partial " + building.path() +
                             " was removed): once there is room, run the same command again");
  }
  move_old_journal(options, outcome.notes);
  building.put_in_place("put the merged sweep file in its place");
  return outcome;
}

}  // namespace rmtsweep::store
