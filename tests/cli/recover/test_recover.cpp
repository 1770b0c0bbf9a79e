// `rmtsweep recover` and the point journal end to end: a finished file truncated at several
// sizes and one killed mid-run are rebuilt from their journals with nothing lost that the journal held,
// equal to a clean run's file (tests/python/compare_sweep_files.py); a torn journal record is skipped;
// the journal of a 2- or 3-rank run recovers to the same file as a 1-rank run's; bad input is refused in
// one line; status says when a file and its journal disagree; --force never mixes an old journal into a
// new sweep; refine's points are said not to be journaled.
#include <sys/stat.h>

#include <fstream>

#include "rmtsweep/io/file_lock.hpp"
#include "rmtsweep/store/journal.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// 2 x 2 x 2 x 2 x 4 = 32 points at d = 60 with their spectra, point 3 failed by fault injection (each point
/// alone: lines = off, so that one point fails, not its line).
std::vector<std::string> small_sweep(const std::string& output, std::vector<std::string> extra = {},
                                     const std::string& seed = "7") {
  std::vector<std::string> args{
      "run",       "--output",        output,  "--d",           "60",  "--seed",  seed,    "--trials",
      "4",         "--delta",         "0.5,1", "--gamma",       "0.5", "--snr",   "0:3:2", "--weighting",
      "mean,last", "--store_spectra", "true",  "--fail_points", "3",   "--lines", "off"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> serial(const std::vector<std::string>& args) {
  std::vector<std::string> command{RMTSWEEP_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

/// A copy of the sweep file `from` and its journal under the same name in `directory` (created).
std::string copy_sweep(const std::string& from, const std::string& directory) {
  fs::create_directories(directory);
  const std::string to = (fs::path(directory) / fs::path(from).filename()).string();
  copy_sweep_file(from, to);
  return to;
}

void truncate_to(const std::string& path, double fraction) {
  fs::resize_file(path, static_cast<std::uintmax_t>(static_cast<double>(fs::file_size(path)) * fraction));
}

/// compare_sweep_files.py a b [extra]: exit 0 when they hold the same content.
Finished compare(const std::string& a, const std::string& b, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> command{
      RMTSWEEP_PYTHON, std::string(RMTSWEEP_SOURCE_DIR) + "/tests/python/compare_sweep_files.py", a, b};
  command.insert(command.end(), extra.begin(), extra.end());
  return run(command, a + ".compare.log");
}

/// What a file finished by a resume differs in from an uninterrupted run: which run computed a point.
const std::vector<std::string> resumed_differences{
    "--ignore-attr",         "runs",          "--ignore-attr",     "run_1_mpi_ranks",  "--ignore-attr",
    "run_1_ranks_per_point", "--ignore-attr", "run_1_eigensolver", "--ignore-dataset", "points/run"};

/// The files `rmtsweep recover` left beside `path` under the name *.damaged-*.
std::vector<std::string> damaged_beside(const std::string& path) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path())) {
    if (contains(entry.path().filename().string(), fs::path(path).filename().string() + ".damaged-"))
      found.push_back(entry.path().string());
  }
  return found;
}

/// Points the journal of `path` holds (done or failed), by their latest record.
std::int64_t journaled_points(const std::string& path) {
  const store::Journal journal = store::read_journal(store::journal_directory(path));
  std::int64_t n = 0;
  for (const store::PointRecord* record : store::latest_records(journal)) n += record ? 1 : 0;
  return n;
}

/// A finished 32-point sweep (2 ranks, one point failed) with its journal, made once for the suite.
class Recover : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    finished_ = *dir_ / "sweep.h5";
    const Finished done = run(mpi_command(2, small_sweep(finished_)), *dir_ / "finished.log");
    ASSERT_EQ(done.exit_code, 3) << done.output;  // point 3 failed, as injected
  }
  static void TearDownTestSuite() { dir_.reset(); }
  static inline std::unique_ptr<TempDir> dir_;
  static inline std::string finished_;
};

// Cut to 90 %, 50 %, 5 % or 0 bytes (HDF5 opens none of these), or removed: recover rebuilds the file
// equal to the finished one (the failed point failed, with its whole message), keeps the cut one as
// FILE.damaged-<UTC>, and exits 0.
TEST_F(Recover, AFinishedFileTruncatedAtSeveralSizesOrRemovedIsRebuiltEqualToIt) {
  for (const double fraction : {0.9, 0.5, 0.05, 0.0, -1.0}) {
    const std::string case_name = fraction < 0 ? "removed" : "cut to " + std::to_string(fraction);
    const std::string path =
        copy_sweep(finished_, *dir_ / ("cut" + std::to_string(static_cast<int>(fraction * 100))));
    if (fraction < 0) {
      fs::remove(path);
    } else {
      truncate_to(path, fraction);
    }
    const auto cut_size = fraction < 0 ? 0 : fs::file_size(path);
    const Finished recovered = run(serial({"recover", path}), path + ".log");
    ASSERT_EQ(recovered.exit_code, 0) << case_name << ": " << recovered.output;
    EXPECT_TRUE(
        contains(recovered.output, path + ": rebuilt from its journal (32 records): 31 of 32 points done, "
                                          "1 failed, 0 pending"))
        << case_name << ": " << recovered.output;
    const Finished same = compare(finished_, path);
    EXPECT_EQ(same.exit_code, 0) << case_name << ": " << same.output;
    const auto damaged = damaged_beside(path);
    if (fraction < 0) {
      EXPECT_TRUE(damaged.empty()) << case_name;
    } else {
      ASSERT_EQ(damaged.size(), 1u) << case_name;
      EXPECT_EQ(fs::file_size(damaged[0]), cut_size)
          << case_name << ": the damaged file was not kept as it was";
      EXPECT_TRUE(contains(recovered.output, "the file that was there is kept as " + damaged[0]))
          << recovered.output;
    }
    EXPECT_FALSE(fs::exists(path + ".recovering")) << case_name;
  }
}

// A file that opens, agrees with its journal and verifies: nothing to recover. Before, recover rebuilt it and
// renamed the intact file FILE.damaged-<UTC>, calling a whole file damaged (and dropping what the journal
// does not hold, refine's blocks); now it is left as it is, byte for byte and under its inode, exit 0.
TEST_F(Recover, AnIntactFileIsLeftInPlaceWithNothingToRecover) {
  const std::string path = copy_sweep(finished_, *dir_ / "intact");
  const auto inode = [](const std::string& file) {
    struct stat info {};
    return ::stat(file.c_str(), &info) == 0 ? info.st_ino : 0;
  };
  const auto before = inode(path);
  const std::string bytes = read_text(path);
  const Finished recovered = run(serial({"recover", path}), path + ".log");
  ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
  EXPECT_TRUE(
      contains(recovered.output,
               path + ": nothing to recover: the file opens, agrees with its journal (32 records) and no "
                      "damage was found (31 of 32 points done, 1 failed, 0 pending); it is left as it is"))
      << recovered.output;
  EXPECT_FALSE(contains(recovered.output, "rebuilt")) << recovered.output;
  EXPECT_TRUE(damaged_beside(path).empty());
  EXPECT_EQ(inode(path), before);
  EXPECT_EQ(read_text(path), bytes);
  EXPECT_FALSE(fs::exists(path + ".recovering"));
}

// A journal file's last record cut short (kill -9 in the middle of its write): recover says so, skips
// it, and leaves its point pending; --resume computes it and the file then equals the finished one.
TEST_F(Recover, ATornJournalRecordIsSkippedAndItsPointComputedAgainByResume) {
  const std::string path = copy_sweep(finished_, *dir_ / "torn");
  const std::string last = store::journal_directory(path) + "/" + store::journal_file_name(0, 1);
  fs::resize_file(last, fs::file_size(last) - 100);
  truncate_to(path, 0.5);
  const Finished recovered = run(serial({"recover", path}), path + ".log");
  ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
  EXPECT_TRUE(contains(recovered.output, "(31 records): 30 of 32 points done, 1 failed, 1 pending"))
      << recovered.output;
  EXPECT_TRUE(contains(recovered.output, "note: " + last + ": ")) << recovered.output;
  EXPECT_TRUE(contains(recovered.output, "bytes ignored (a record cut short: ")) << recovered.output;
  const Finished status = run(serial({"status", path}), path + ".status.log");
  EXPECT_TRUE(contains(status.output, "bytes ignored (a record cut short: ")) << status.output;
  const Finished resumed = run(mpi_command(2, small_sweep(path, {"--resume"})), path + ".resume.log");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;  // point 3 fails again, as injected
  EXPECT_TRUE(contains(resumed.output, "2 of 2 points computed in this run (1 failed)")) << resumed.output;
  const Finished same = compare(finished_, path, resumed_differences);
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// The same sweep on 1, 2 and 3 ranks: each journal recovers to the same file (but for the attributes
// that record the ranks of the run).
TEST_F(Recover, TheJournalOfATwoOrThreeRankRunRecoversToTheSameFileAsAOneRankRuns) {
  std::vector<std::string> rebuilt;
  for (const int ranks : {1, 2, 3}) {
    const std::string path = *dir_ / ("ranks" + std::to_string(ranks)) + "/sweep.h5";
    fs::create_directories(fs::path(path).parent_path());
    const Finished done = run(mpi_command(ranks, small_sweep(path)), path + ".run.log");
    ASSERT_EQ(done.exit_code, 3) << done.output;
    EXPECT_EQ(fs::exists(store::journal_directory(path) + "/" + store::journal_file_name(0, ranks - 1)), true)
        << "rank " << ranks - 1 << " wrote no journal";
    truncate_to(path, 0.5);
    const Finished recovered = run(serial({"recover", path}), path + ".log");
    ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
    rebuilt.push_back(path);
  }
  for (const std::string& other : {rebuilt[1], rebuilt[2]}) {
    const Finished same =
        compare(rebuilt[0], other, {"--ignore-attr", "mpi_ranks", "--ignore-attr", "run_0_mpi_ranks"});
    EXPECT_EQ(same.exit_code, 0) << other << ": " << same.output;
  }
}

// Each bad input: exit 2 and one line naming the file and what to do; nothing renamed or written.
TEST_F(Recover, BadInputIsRefusedInOneLineNamingTheFileAndWhatToDo) {
  const std::string bare = *dir_ / "bare/sweep.h5";  // a file without its journal
  fs::create_directories(fs::path(bare).parent_path());
  fs::copy_file(finished_, bare);
  const std::string other = *dir_ / "other/sweep.h5";  // a readable file beside another sweep's journal
  fs::create_directories(fs::path(other).parent_path());
  ASSERT_EQ(run(mpi_command(2, small_sweep(other, {}, "8")), other + ".run.log").exit_code, 3);
  fs::remove_all(store::journal_directory(other));
  fs::copy(store::journal_directory(finished_), store::journal_directory(other), fs::copy_options::recursive);
  const std::string renamed =
      *dir_ / "renamed/b.h5";  // a cut file beside the journal of a file named otherwise
  fs::create_directories(fs::path(renamed).parent_path());
  fs::copy_file(finished_, renamed);
  truncate_to(renamed, 0.5);
  fs::copy(store::journal_directory(finished_), store::journal_directory(renamed),
           fs::copy_options::recursive);
  const struct {
    std::string path, says;
  } cases[] = {
      {bare, bare + ": has no journal (" + bare + ".journal is missing"},
      {*dir_ / "nowhere.h5", *dir_ / "nowhere.h5: no such file, and no journal " +
                                 *dir_ / "nowhere.h5.journal" + " beside it: check the name"},
      {store::journal_directory(finished_),
       store::journal_directory(finished_) + ": a directory: give the sweep file"},
      {other, other + ": belongs to another sweep than the journal beside it (sweep_id "},
      {renamed,
       renamed + ".journal: was written beside a sweep file named sweep.h5, not b.h5: to rebuild that sweep, "
                 "rename the journal to sweep.h5.journal"},
  };
  for (const auto& c : cases) {
    const auto before = fs::exists(c.path) && fs::is_regular_file(c.path) ? fs::file_size(c.path) : 0;
    const Finished refused = run(serial({"recover", c.path}), *dir_ / "refused.log");
    EXPECT_EQ(refused.exit_code, 2) << c.path << ": " << refused.output;
    const auto lines = lines_of(refused.output);
    ASSERT_EQ(lines.size(), 1u) << refused.output;
    EXPECT_TRUE(lines[0].starts_with("rmtsweep recover: ")) << lines[0];
    EXPECT_TRUE(contains(lines[0], c.says)) << lines[0];
    EXPECT_FALSE(contains(refused.output, "MPI_ABORT")) << refused.output;
    if (fs::is_regular_file(c.path)) {
      EXPECT_TRUE(damaged_beside(c.path).empty()) << c.path << " was renamed";
      EXPECT_EQ(fs::file_size(c.path), before) << c.path << " was changed";
    }
  }
  // A file another process is writing (its lock held).
  const std::string locked = copy_sweep(finished_, *dir_ / "locked");
  const io::FileLock lock = io::FileLock::try_exclusive(io::lock_path(locked));
  ASSERT_TRUE(lock.locked());
  const Finished refused = run(serial({"recover", locked}), *dir_ / "locked.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(contains(refused.output, "holds its lock (" + locked + ".lock")) << refused.output;
  EXPECT_TRUE(damaged_beside(locked).empty());
}

// status: agreement, points the journal holds that the file marks pending (a kill between the two
// writes, here made by hand), points the file holds without a record (a journal file removed).
TEST_F(Recover, StatusSaysWhenTheFileAndItsJournalDisagree) {
  const std::string path = copy_sweep(finished_, *dir_ / "status");
  const Finished agrees = run(serial({"status", path}), path + ".1.log");
  EXPECT_TRUE(
      contains(agrees.output, "journal: " + path + ".journal: 2 files, 32 records; the file agrees with it"))
      << agrees.output;
  const std::string unset =
      "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); s = f['points/status']; "
      "s[0] = 0; s[9] = 0; s[20] = 0";
  ASSERT_EQ(run({RMTSWEEP_PYTHON, "-c", unset, path}, path + ".py.log").exit_code, 0)
      << read_text(path + ".py.log");
  const Finished pending = run(serial({"status", path}), path + ".2.log");
  EXPECT_TRUE(contains(pending.output,
                       "journal and file disagree: 3 points the journal holds as done or failed are pending "
                       "in the file"))
      << pending.output;
  EXPECT_TRUE(contains(pending.output, "`rmtsweep recover " + path + "` rebuilds the file from the journal"))
      << pending.output;
  fs::remove(store::journal_directory(path) + "/" + store::journal_file_name(0, 1));
  const Finished missing = run(serial({"status", path}), path + ".3.log");
  EXPECT_TRUE(contains(missing.output, "points done or failed in the file have no record in the journal"))
      << missing.output;
  fs::remove_all(store::journal_directory(path));
  const Finished none = run(serial({"status", path}), path + ".4.log");
  EXPECT_TRUE(contains(none.output, "journal: none (" + path + ".journal is missing)")) << none.output;
}

// run --resume of a file that does not open (cut to half) rebuilds it from its journal first, keeping
// the cut file, and then resumes it: the result equals the finished file. status of the cut file names
// recover.
TEST_F(Recover, ResumeOfATruncatedFileRebuildsItFromItsJournalAndFinishesIt) {
  const std::string path = copy_sweep(finished_, *dir_ / "resume");
  truncate_to(path, 0.5);
  const Finished status = run(serial({"status", path}), path + ".status.log");
  EXPECT_EQ(status.exit_code, 1) << status.output;
  EXPECT_TRUE(contains(status.output, "or `rmtsweep recover " + path + "` rebuilds it from its journal"))
      << status.output;
  const Finished resumed = run(mpi_command(2, small_sweep(path, {"--resume"})), path + ".log");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;  // point 3 fails again, as injected
  EXPECT_TRUE(
      contains(resumed.output, path + " could not be read as a sweep file: rebuilt from its journal ("))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "31 of 32 points done, 1 failed; resuming the rest"))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "1 of 1 points computed in this run (1 failed)")) << resumed.output;
  EXPECT_EQ(damaged_beside(path).size(), 1u) << "the cut file is kept";
  const Finished same = compare(finished_, path, resumed_differences);
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// run --resume of a missing file whose journal holds points rebuilds it the same way.
TEST_F(Recover, ResumeOfAMissingFileRebuildsItFromItsJournal) {
  const std::string path = copy_sweep(finished_, *dir_ / "resume-missing");
  fs::remove(path);
  const Finished resumed = run(mpi_command(2, small_sweep(path, {"--resume"})), path + ".log");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, path + " is missing: rebuilt from its journal (")) << resumed.output;
  const Finished same = compare(finished_, path, resumed_differences);
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// A new sweep over an old file with --force moves the old journal aside (nothing lost) and starts a
// fresh one, which recovers the new file; without --force, a journal of a missing file is refused.
TEST_F(Recover, ANewSweepWithForceMovesTheOldJournalAsideAndNeverMixesItIn) {
  const std::string path = copy_sweep(finished_, *dir_ / "force");
  const Finished forced = run(mpi_command(2, small_sweep(path, {"--force"}, "9")), path + ".log");
  EXPECT_EQ(forced.exit_code, 3) << forced.output;
  EXPECT_TRUE(contains(forced.output, "rmtsweep run: note: the old journal " + path +
                                          ".journal was moved to " + path + ".journal.replaced-"))
      << forced.output;
  std::vector<std::string> aside;
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path())) {
    if (contains(entry.path().string(), ".journal.replaced-")) aside.push_back(entry.path().string());
  }
  ASSERT_EQ(aside.size(), 1u);
  EXPECT_EQ(store::read_journal(aside[0]).record_count(), 32) << "the old journal lost records";
  const store::Journal fresh = store::read_journal(store::journal_directory(path));
  EXPECT_EQ(fresh.record_count(), 32);
  EXPECT_EQ(fresh.head().provenance.sweep_id, store::SweepReader(path).text_attribute("sweep_id"));
  const std::string copy = copy_sweep(path, *dir_ / "force/copy");
  truncate_to(copy, 0.3);
  ASSERT_EQ(run(serial({"recover", copy}), copy + ".log").exit_code, 0);
  const Finished same = compare(path, copy);
  EXPECT_EQ(same.exit_code, 0) << same.output;

  fs::remove(path);  // the file gone, its journal left: a new run without --force is refused
  const Finished refused = run(mpi_command(2, small_sweep(path)), path + ".refused.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(contains(refused.output, "its journal " + path +
                                           ".journal holds 32 points of a sweep whose file is "
                                           "missing: `rmtsweep recover " +
                                           path + "` rebuilds the file from it"))
      << refused.output;
  // The library names its switch (replace); the program says it as its option.
  EXPECT_TRUE(
      contains(refused.output, "; pass --force to start a new sweep instead (moving the journal aside)"))
      << refused.output;
  EXPECT_FALSE(fs::exists(path));
}

/// 80 points at d = 40 in 16 lines of 5 snr, each group waiting 0.1 s after each line (the test-only
/// unit_pause key): about 0.8 s on two ranks whatever the machine, long enough to be killed midway.
std::vector<std::string> long_sweep(const std::string& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"run",     "--output",    output,         "--d",      "40",
                                "--delta", "0.25,0.5",    "--gamma",      "0.25,0.5", "--snr",
                                "0:4:5",   "--weighting", "mean,optimal", "--trials", "2",
                                "--seed",  "3",           "--unit_pause", "0.1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

/// Polls `path` until `enough` points are done (or `pid` ended); false on timeout.
bool wait_until_done(const std::string& path, pid_t pid, std::int64_t enough) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!io::is_hdf5_file(path)) continue;
    try {
      const auto status = read_status(path);
      if (std::count(status.begin(), status.end(), std::int64_t{1}) >= enough) return true;
    } catch (const std::exception&) {  // still being created
    }
    if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
  }
  return false;
}

// kill -9 of every rank mid-run, the file then cut (at 60 % and at 10 %): recover keeps every point
// the journal held (at least every point the file held as done), their values those of a clean run;
// --resume on 3 ranks finishes it and it equals the clean run's file.
TEST(RecoverKilled, ASweepKilledMidRunIsRebuiltWithEveryPointItsJournalHeldAndResumesToACleanRunsFile) {
  const TempDir dir;
  const Finished reference = run(mpi_command(2, long_sweep(dir / "ref.h5")), dir / "ref.log");
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  const pid_t mpirun = start(mpi_command(2, long_sweep(dir / "k.h5")), dir / "k.log");
  ASSERT_TRUE(wait_until_done(dir / "k.h5", mpirun, 8)) << read_text(dir / "k.log");
  for (const pid_t rank : children_of(mpirun)) kill(rank, SIGKILL);
  kill(mpirun, SIGKILL);
  (void)wait_for(mpirun, dir / "k.log");
  const auto at_kill = read_status(dir / "k.h5");
  const auto done_at_kill = std::count(at_kill.begin(), at_kill.end(), std::int64_t{1});
  ASSERT_LT(done_at_kill, 80) << "the sweep finished before it was killed: the test proved nothing";
  const std::int64_t journaled = journaled_points(dir / "k.h5");
  EXPECT_GE(journaled, done_at_kill) << "a point done in the file is missing from the journal";

  for (const double fraction : {0.6, 0.1}) {
    const std::string path =
        copy_sweep(dir / "k.h5", dir / ("cut" + std::to_string(static_cast<int>(fraction * 100))));
    truncate_to(path, fraction);
    const Finished recovered = run(serial({"recover", path}), path + ".log");
    ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
    const auto status = read_status(path);
    EXPECT_EQ(std::count(status.begin(), status.end(), std::int64_t{1}), journaled) << recovered.output;
    for (std::size_t i = 0; i < at_kill.size(); ++i) {
      if (at_kill[i] == 1) {
        EXPECT_EQ(status[i], 1) << "point " << i << " was done at the kill and is lost";
      }
    }
    // The recovered points hold the clean run's values: the resume computes only the others.
    const Finished resumed = run(mpi_command(3, long_sweep(path, {"--resume"})), path + ".resume.log");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_TRUE(contains(resumed.output, std::to_string(80 - journaled) + " of " +
                                             std::to_string(80 - journaled) + " points computed in this run"))
        << resumed.output;
    const Finished same = compare(dir / "ref.h5", path, resumed_differences);
    EXPECT_EQ(same.exit_code, 0) << same.output;
  }
}

// A refined file: left as it is when whole (its /refine blocks are not journaled: a rebuild would drop them);
// behind its journal, recover rebuilds /points and says that /refine is not journaled.
TEST(RecoverRefined, ARefinedFileIsKeptWholeOrRebuiltWithItsPointsAndTheNoteThatRefineIsNotJournaled) {
  const TempDir dir;
  const std::string path = dir / "r.h5";
  const std::vector<std::string> keys{
      "--d",         "60",      "--delta",  "0.5",      "--gamma",         "0.5",
      "--snr",       "0:2.4:5", "--trials", "4",        "--seed",          "5",
      "--weighting", "mean",    "--table",  "centered", "--store_spectra", "false"};
  std::vector<std::string> args{"run", "--output", path};
  args.insert(args.end(), keys.begin(), keys.end());
  ASSERT_EQ(run(mpi_command(2, args), dir / "run.log").exit_code, 0) << read_text(dir / "run.log");
  const Finished refined =
      run(mpi_command(2, {"refine", path, "--max-points", "16", "--max-rounds", "1"}), dir / "refine.log");
  // 0, or 4 where the budget of 16 points is spent before the tolerance is reached: refined either way.
  ASSERT_TRUE(refined.exit_code == 0 || refined.exit_code == 4) << refined.output;
  fs::copy_file(path, dir / "refined.h5");
  const Finished whole = run(serial({"recover", path}), dir / "whole.log");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  EXPECT_TRUE(contains(whole.output, "nothing to recover")) << whole.output;
  EXPECT_EQ(read_text(path), read_text(dir / "refined.h5")) << "a whole refined file was changed";
  // A point the journal holds made pending in the file (a kill between its record and its status): rebuilt.
  const std::string unset = "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['points/status'][0] = 0";
  ASSERT_EQ(run({RMTSWEEP_PYTHON, "-c", unset, path}, dir / "unset.log").exit_code, 0)
      << read_text(dir / "unset.log");
  const Finished recovered = run(serial({"recover", path}), dir / "recover.log");
  ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
  EXPECT_TRUE(
      contains(recovered.output, "note: the refined points (/refine, `rmtsweep refine`) are not journaled"))
      << recovered.output;
  const Finished differences =
      compare(dir / "refined.h5", path,
              {"--ignore-attr", "runs", "--ignore-attr", "run_1_started", "--ignore-attr", "run_1_mpi_ranks",
               "--ignore-attr", "run_1_ranks_per_point", "--ignore-attr", "run_1_eigensolver"});
  for (const std::string& line : lines_of(differences.output)) {
    if (contains(line, "difference(s)")) continue;
    EXPECT_TRUE(line.starts_with("/refine")) << "beyond /refine: " << line;
  }
}

}  // namespace
}  // namespace rmtsweep::test
