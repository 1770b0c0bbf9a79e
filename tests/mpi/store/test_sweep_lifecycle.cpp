// The sweep file's protocols as the library gives them, without the program: the atomic creation
// (store/sweep_creation.hpp), what a run does with the journal beside the file and the damage it finds and
// repairs (run_journal.hpp), the journal's agreement with the file and the failed points (sweep_status.hpp),
// and merge's refusals (merge.hpp); on 1 and 2 ranks. The program's own launches of these (tests/cli/run,
// tests/cli/recover, tests/cli/merge) keep what only a process can show: kills, signals, exit statuses, the
// messages as printed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rejection.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/merge.hpp"
#include "rmtsweep/store/run_journal.hpp"
#include "rmtsweep/store/sweep_creation.hpp"
#include "rmtsweep/store/sweep_reader.hpp"
#include "rmtsweep/store/sweep_status.hpp"
#include "rmtsweep/store/verify.hpp"
#include "shared_dir.hpp"
#include "small_grid.hpp"

namespace rmtsweep::store {
namespace {

namespace fs = std::filesystem;

/// The 8-point sweep of the library's file tests, without spectra.
config::Grid small_grid() { return test::small_grid({{"store_spectra", "false"}}); }

RunInfo run_on(int ranks) {
  RunInfo run;
  run.command_line = "test_store_sweep_lifecycle";
  run.started = "2025-01-01T00:00:00Z";
  run.mpi_ranks = ranks;
  return run;
}

/// A point's measurements as a run would write them (k = 4).
simulate::PointResult result_of(double top) {
  simulate::PointResult r;
  r.top_eigenvalues = {top, top - 0.5, top - 0.6, top - 0.7};
  r.overlaps = {0.5, 0.1, 0.0, 0.0};
  r.overlap = 0.5;
  r.ridge_accuracy = 0.75;
  return r;
}

bool root() { return parallel::rank_of(MPI_COMM_WORLD) == 0; }

/// A new sweep file at `path` with its journal, the points `done` written done by rank 0, closed.
void make_sweep(const std::string& path, const std::vector<std::int64_t>& done, bool journal = true) {
  const parallel::Communicator comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const config::Grid grid = small_grid();
  SweepFile file =
      create_sweep_file(path, comm, grid, config::grid_predictions(grid), run_on(comm.size()), journal);
  if (comm.rank() == 0) {
    for (const std::int64_t i : done) file.write_done(i, result_of(2.0 + static_cast<double>(i)), 0.1);
  }
  file.close();
}

std::string sweep_id_of(const std::string& path) {
  return SweepReader(path).text_attribute("sweep_id").value_or("");
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(SweepCreation, PutsTheFileAndItsJournalInPlaceAndLeavesNoTemporaryName) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  make_sweep(path, {0, 3});
  if (!root()) return;
  EXPECT_TRUE(fs::is_regular_file(path));
  EXPECT_FALSE(fs::exists(creating_name(path)));
  EXPECT_TRUE(fs::is_directory(journal_directory(path)));
  EXPECT_FALSE(fs::exists(journal_directory(path) + ".creating"));
  const SweepReader reader(path);
  EXPECT_EQ(count_status(reader.status()).done, 2);
  const JournalState state = journal_state(path, sweep_id_of(path), reader.status());
  EXPECT_EQ(state.kind, JournalState::Kind::agrees) << state.problem;
  ASSERT_TRUE(state.journal);
  EXPECT_EQ(state.journal->record_count(), 2);
}

TEST(SweepCreation, RemovesWhatACreationKilledBeforeItsEndLeft) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  if (root()) {
    write_text(creating_name(path), "half a file");
    fs::create_directory(journal_directory(path) + ".creating");
    write_text(journal_directory(path) + ".creating/rank0.jrnl", "a head");
  }
  make_sweep(path, {1});
  if (!root()) return;
  EXPECT_EQ(count_status(SweepReader(path).status()).done, 1);
  EXPECT_FALSE(fs::exists(creating_name(path)));
  EXPECT_EQ(read_journal(journal_directory(path)).record_count(), 1);
}

TEST(SweepCreation, RefusesOnEveryRankAJournalBeingBuiltThatHoldsWhatNoRmtsweepWrote) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  const std::string stranger = journal_directory(path) + ".creating/notes.txt";
  if (root()) {
    fs::create_directory(journal_directory(path) + ".creating");
    write_text(stranger, "mine");
  }
  EXPECT_THROW(make_sweep(path, {}), AgreedFailure);
  if (!root()) return;
  EXPECT_TRUE(fs::exists(stranger));
  EXPECT_FALSE(fs::exists(path));
}

TEST(PrepareJournal, ANewSweepOverAJournalHoldingPointsIsRefusedUnlessItReplacesIt) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  make_sweep(path, {0, 1});
  if (root()) fs::remove(path);  // the file lost, its journal kept: recover's case
  try {
    (void)prepare_journal(path, false, false, MPI_COMM_WORLD);
    ADD_FAILURE() << "a journal holding points was replaced without being asked to";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.name(), "output");
    EXPECT_EQ(e.override_switch(), "force");
    EXPECT_NE(std::string(e.what()).find("holds 2 points of a sweep whose file is missing"),
              std::string::npos)
        << e.what();
  }
  const std::string moved_to = prepare_journal(path, false, true, MPI_COMM_WORLD);
  if (!root()) return;
  EXPECT_EQ(moved_to.rfind(journal_directory(path) + ".replaced-", 0), 0u) << moved_to;
  EXPECT_FALSE(fs::exists(journal_directory(path)));
  EXPECT_EQ(read_journal(moved_to).record_count(), 2);
}

TEST(PrepareJournal, AResumeRefusesTheJournalOfAnotherSweep) {
  const test::SharedDir dir;
  const std::string ours = dir / "ours.h5", theirs = dir / "theirs.h5";
  make_sweep(ours, {0});
  make_sweep(theirs, {1});
  if (root()) {
    fs::remove_all(journal_directory(ours));
    fs::rename(journal_directory(theirs), journal_directory(ours));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    (void)prepare_journal(ours, true, false, MPI_COMM_WORLD);
    ADD_FAILURE() << "another sweep's journal was taken";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.name(), "resume");
    EXPECT_NE(std::string(e.what()).find("belongs to another sweep"), std::string::npos) << e.what();
  }
  if (!root()) return;
  const JournalState state = journal_state(ours, sweep_id_of(ours), SweepReader(ours).status());
  EXPECT_EQ(state.kind, JournalState::Kind::other_sweep);
  EXPECT_EQ(state.problem, sweep_id_of(theirs));
}

TEST(JournalState, AFileWithoutAJournalOrWithPointsTheJournalLacksIsSaidSo) {
  const test::SharedDir dir;
  const std::string none = dir / "none.h5", ahead = dir / "ahead.h5";
  make_sweep(none, {0}, false);
  make_sweep(ahead, {0});
  if (!root()) return;
  EXPECT_EQ(journal_state(none, sweep_id_of(none), SweepReader(none).status()).kind,
            JournalState::Kind::missing);
  std::vector<std::int64_t> status = SweepReader(ahead).status();
  status[5] = static_cast<std::int64_t>(PointStatus::done);  // a point the journal does not hold
  const JournalState state = journal_state(ahead, sweep_id_of(ahead), status);
  EXPECT_EQ(state.kind, JournalState::Kind::disagrees);
  EXPECT_EQ(state.agreement.file_only, 1);
}

TEST(JournalLosses, AJournalFileCutOrRemovedWhileARunRanIsNamed) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  make_sweep(path, {0, 1, 2});
  const JournalSnapshot before = snapshot_journal(path, MPI_COMM_WORLD);
  if (!root()) {
    EXPECT_TRUE(before.empty());
    return;
  }
  ASSERT_FALSE(before.empty());
  EXPECT_TRUE(journal_losses(path, before).empty());
  const std::string file = journal_directory(path) + "/" + before.begin()->first;
  fs::resize_file(file, before.begin()->second / 2);
  std::vector<JournalLoss> lost = journal_losses(path, before);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].path, file);
  EXPECT_EQ(lost[0].bytes_now, before.begin()->second / 2);
  fs::remove(file);
  lost = journal_losses(path, before);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_FALSE(lost[0].bytes_now) << "removed";
}

/// The cell of `record` of the column called `name` (the journal head's columns give the order).
Cell& cell_of(PointRecord& record, const Journal& journal, const std::string& name) {
  const std::vector<JournalColumn>& columns = journal.head().columns;
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c].name == name) return record.cells.at(c);
  throw std::logic_error("no column " + name);
}

TEST(Damage, AValueFlippedInTheFileIsFoundAgainstItsRecordAndRestoredFromIt) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  make_sweep(path, {0, 2, 4});
  const config::Grid grid = small_grid();
  const parallel::Communicator comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  {  // point 2's overlap changed in the file alone (no journal attached): flipped bytes
    SweepFile file = SweepFile::open_for_resume(path, comm, grid, run_on(comm.size()));
    if (comm.rank() == 0) {
      const Journal journal = read_journal(journal_directory(path));
      PointRecord damaged = *latest_records(journal).at(2);
      cell_of(damaged, journal, std::string(column::overlap.name)) = 0.123;
      file.write_record(damaged);
    }
    file.close();
  }
  const Damage damaged = find_damage(path, true, comm);
  if (comm.rank() == 0) {
    ASSERT_EQ(damaged.points.size(), 1u);
    EXPECT_EQ(damaged.points[0].index, 2);
    EXPECT_EQ(damaged.points[0].columns, std::vector<std::string>{"overlap"});
    EXPECT_TRUE(damaged.points[0].record);
  } else {
    EXPECT_TRUE(damaged.empty());
  }
  {
    SweepFile file = SweepFile::open_for_resume(path, comm, grid, run_on(comm.size()));
    attach_journal(file, path, grid.size(), comm);
    const Repair repair = repair_damage(file, grid, config::grid_predictions(grid), damaged, comm);
    EXPECT_EQ(repair.restored, comm.rank() == 0 ? 1 : 0);
    EXPECT_EQ(repair.again, 0);
    file.close();
  }
  if (comm.rank() != 0) return;
  const Journal journal = read_journal(journal_directory(path));
  const Verification v = verify_sweep(SweepReader(path), &journal);
  EXPECT_TRUE(v.damaged.empty()) << describe_damage(v);
  EXPECT_EQ(v.verified, 3);
}

TEST(FailedPoints, AreListedWithTheirMessagesOnceTheRunClosedTheFile) {
  const test::SharedDir dir;
  const std::string path = dir / "sweep.h5";
  const parallel::Communicator comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const config::Grid grid = small_grid();
  {
    SweepFile file =
        create_sweep_file(path, comm, grid, config::grid_predictions(grid), run_on(comm.size()), true);
    if (comm.rank() == comm.size() - 1) file.write_failed(6, "pdsyevr failed with info = 3", 0.1);
    file.close();
  }
  if (comm.rank() != 0) return;
  const SweepReader reader(path);
  const JournalState journal = journal_state(path, sweep_id_of(path), reader.status());
  const std::vector<FailedPoint> failed = failed_points(reader, reader.status(), journal);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].point, 6u);
  EXPECT_EQ(failed[0].trial, 0);
  EXPECT_EQ(failed[0].message, "pdsyevr failed with info = 3");
  const Activity activity = activity_of(reader, reader.status());
  EXPECT_FALSE(activity.running()) << "no run holds the file's lock";
  EXPECT_EQ(activity.latest_run, 0);
  EXPECT_EQ(activity.finished_by_latest, 1);
  const std::vector<SizeProgress> sizes = progress_by_size(reader, reader.status());
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_EQ(sizes[0].d, 16);
  EXPECT_EQ(sizes[0].total, 8);
  EXPECT_EQ(sizes[0].done, 0);
}

/// merge_sweeps of `inputs` into `output` (serial: rank 0 alone calls it).
MergeOutcome merge(const std::string& output, const std::vector<std::string>& inputs, bool force = false,
                   bool allow_partial = false) {
  MergeOptions options;
  options.output = output;
  options.inputs = inputs;
  options.force = force;
  options.allow_partial = allow_partial;
  options.command_line = "test_store_sweep_lifecycle";
  return merge_sweeps(options);
}

TEST(Merge, TwoFilesOfDisjointPointsMakeOneAndWhatIsRefusedNamesTheArgumentAndItsSwitch) {
  const test::SharedDir dir;
  const std::string a = dir / "a.h5", b = dir / "b.h5", c = dir / "c.h5", out = dir / "out.h5";
  make_sweep(a, {0, 1, 2, 3});
  make_sweep(b, {4, 5, 6, 7});
  make_sweep(c, {3, 4});
  if (!root()) return;
  const MergeOutcome merged = merge(out, {a, b});
  EXPECT_EQ(merged.done, 8);
  EXPECT_EQ(merged.pending, 0);
  EXPECT_EQ(count_status(SweepReader(out).status()).done, 8);
  EXPECT_FALSE(fs::exists(out + ".merging"));

  const InvalidArgument exists = test::rejection<InvalidArgument>([&] { (void)merge(out, {a, b}); });
  EXPECT_EQ(exists.name(), "output");
  EXPECT_EQ(exists.allowed(), "exists");
  EXPECT_EQ(exists.override_switch(), "force");
  EXPECT_EQ(merge(out, {a, b}, true).done, 8) << "force replaces it";

  const std::string gaps = dir / "gaps.h5";
  const InvalidArgument partial = test::rejection<InvalidArgument>([&] { (void)merge(gaps, {a}); });
  EXPECT_EQ(partial.name(), "shards");
  EXPECT_EQ(partial.override_switch(), "allow_partial");
  EXPECT_NE(partial.allowed().find("4 of the 8 points are done in none of the files given"),
            std::string::npos)
      << partial.what();
  EXPECT_FALSE(fs::exists(gaps));
  EXPECT_EQ(merge(gaps, {a}, false, true).pending, 4) << "allow_partial writes the points there are";

  const InvalidArgument overlap = test::rejection<InvalidArgument>([&] {
    (void)merge(dir / "overlap.h5", {a, c});
  });
  EXPECT_EQ(overlap.name(), "shards");
  EXPECT_TRUE(overlap.described());
  EXPECT_NE(overlap.allowed().find("1 points are done (or failed) both in"), std::string::npos)
      << overlap.what();
}

}  // namespace
}  // namespace rmtsweep::store
