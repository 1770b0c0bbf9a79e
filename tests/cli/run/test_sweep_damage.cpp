// Silent damage: bytes flipped in /points or /spectra are named by `status` and
// restored by `run --resume` from the journal's CRC-checked records (src/store/verify.cpp); a journal
// removed or cut short while a run writes it is said, and `recover` then keeps every point the file holds
// (it never ends with fewer done points than the file and the journal hold together); a journal path that
// is a regular file is called one.
#include "rmtsweep/store/journal.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> small_sweep(const std::string& output, const std::vector<std::string>& extra = {}) {
  return small_sweep_args(output, extra);
}

/// 960 points at d = 40 with their spectra, each computed alone, each group waiting 5 ms after each (the
/// test-only unit_pause key): seconds on two ranks whatever the machine, long enough to act on its journal.
std::vector<std::string> long_sweep(const std::string& output) {
  return small_sweep_args(output, {"--lines", "off", "--unit_pause", "0.005"}, "60", "40");
}

Finished serial(const std::vector<std::string>& args, const std::string& log) {
  return run_serial(args, log);
}

Finished compare(const std::string& a, const std::string& b, const std::vector<std::string>& extra = {}) {
  return compare_sweep_files(a, b, extra);
}

std::int64_t done_in(const std::string& path) {
  const std::vector<std::int64_t> status = read_status(path);
  return std::count(status.begin(), status.end(), std::int64_t{1});
}

/// Overwrites one row of a dataset in place, as a flipped byte on the disk would change it.
void overwrite(const std::string& path, const std::string& dataset, hsize_t row,
               const std::vector<double>& values) {
  const io::File file = io::open_file(path, io::Access::read_write);
  io::write_rows(io::open_dataset(file, dataset), row, 1, values);
}

TEST(SilentDamage, FlippedValuesAreNamedByStatusAndRestoredBitForBitByResume) {
  const TempDir dir;
  const std::string output = dir / "flip.h5";
  ASSERT_EQ(run(mpi_command(2, small_sweep(output)), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  fs::copy_file(output, dir / "reference.h5");
  std::vector<double> top, spectrum;
  {
    const io::File file = io::open_file(output, io::Access::read_only);
    top = io::read_double_rows(io::open_dataset(file, "points/top_eigenvalues"), 7, 1);
    spectrum = io::read_double_rows(io::open_dataset(file, "spectra/d40/eigenvalues"), 3, 1);
  }
  top[1] = 1.5e91;
  spectrum[10] = 1.5e91;
  overwrite(output, "points/overlap", 5, {1.5e91});  // a measured value
  overwrite(output, "points/top_eigenvalues", 7, top);
  overwrite(output, "spectra/d40/eigenvalues", 3, spectrum);
  overwrite(output, "points/theory_overlap", 9, {0.75});  // a value written at creation
  {
    const io::File file = io::open_file(output, io::Access::read_write);
    io::write_rows(io::open_dataset(file, "points/status"), 11, 1, std::vector<std::int64_t>{77});
  }

  const Finished skipped = serial({"status", output, "--no-verify"}, dir / "status.log");
  EXPECT_TRUE(contains(skipped.output, "verify: skipped (--no-verify)")) << skipped.output;
  const Finished verified = serial({"status", output}, dir / "verify.log");
  EXPECT_EQ(verified.exit_code, 4) << "damaged: " << verified.output;
  EXPECT_TRUE(
      contains(verified.output,
               "verify: DAMAGED: 5 points hold values other than those written: 3 (spectrum); 5 (overlap); "
               "7 (top_eigenvalues); 9 (theory_overlap); 11 (status); `rmtsweep run ... --resume` restores"))
      << verified.output;

  const Finished resumed = run(mpi_command(2, small_sweep(output, {"--resume"})), dir / "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "5 points held values other than those written")) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "5 restored from the journal, 0 to compute again")) << resumed.output;
  // Restored, not computed again: /points/run as well as every value is the first run's, bit for bit.
  const Finished same = compare(dir / "reference.h5", output, resumed_run_attributes);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  const Finished clean = serial({"status", output}, dir / "clean.log");
  EXPECT_EQ(clean.exit_code, 0) << "done: " << clean.output;
  EXPECT_TRUE(contains(clean.output, "verify: 32 points done or failed compared with their journal records"))
      << clean.output;
  EXPECT_TRUE(contains(clean.output, "verify: no damage found")) << clean.output;
}

// A creation-time column that differs at most points is another version's theory, not flipped bytes: said
// apart, not called damage, and left as written by --resume.
TEST(SilentDamage, ATheoryColumnOfAnotherVersionIsNotCalledDamage) {
  const TempDir dir;
  const std::string output = dir / "theory.h5";
  ASSERT_EQ(run(mpi_command(2, small_sweep(output)), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  {
    const io::File file = io::open_file(output, io::Access::read_write);
    const io::Dataset set = io::open_dataset(file, "points/theory_overlap");
    std::vector<double> values = io::read_doubles(set);
    for (double& value : values) value = value * (1.0 + 1e-6) + 1e-6;  // every row: another theory
    io::write(set, values);
  }
  const auto theory = [&] {
    const io::File file = io::open_file(output, io::Access::read_only);
    return io::read_doubles(io::open_dataset(file, "points/theory_overlap"));
  };
  const std::vector<double> written = theory();
  const Finished status = serial({"status", output}, dir / "status.log");
  EXPECT_TRUE(contains(status.output,
                       "verify: note: theory_overlap differ from this rmtsweep's computation at "
                       "most points"))
      << status.output;
  EXPECT_TRUE(contains(status.output, "verify: no damage found")) << status.output;
  // A point damaged meanwhile is restored, its theory left as the file's version wrote it.
  overwrite(output, "points/overlap", 2, {1.5e91});
  const Finished resumed = run(mpi_command(2, small_sweep(output, {"--resume"})), dir / "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(
      contains(resumed.output, "1 points held values other than those written (damaged bytes: 2 (overlap))"))
      << resumed.output;
  EXPECT_EQ(theory(), written);
}

// The journal removed, then a file of it cut short, while the run writes: each said in one warning naming
// the file, the run goes on into a new journal file, and recover keeps every point the file holds.
TEST(SilentDamage, AJournalRemovedOrCutDuringARunIsSaidAndRecoverLosesNoPoint) {
  const TempDir dir;
  const std::string output = dir / "long.h5";
  const std::string journal = store::journal_directory(output);
  const pid_t mpirun = start(mpi_command(2, long_sweep(output)), dir / "long.log");
  const auto grown = [&](const std::string& file, std::uintmax_t bytes) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    std::error_code ec;
    while (std::chrono::steady_clock::now() < deadline) {
      if (fs::exists(file, ec) && fs::file_size(file, ec) > bytes) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  };
  ASSERT_TRUE(grown(journal + "/run-0-rank-0.jrnl", 40000)) << read_text(dir / "long.log");
  fs::remove_all(journal);
  ASSERT_TRUE(grown(journal + "/run-0-rank-0.2.jrnl", 40000)) << read_text(dir / "long.log");
  fs::resize_file(journal + "/run-0-rank-0.2.jrnl", 3000);
  const Finished finished = wait_for(mpirun, dir / "long.log");
  ASSERT_EQ(finished.exit_code, 0) << finished.output;
  EXPECT_TRUE(
      contains(finished.output, "rmtsweep: warning: " + journal +
                                    "/run-0-rank-0.jrnl was removed by another process while this run "
                                    "wrote it: its "))
      << finished.output;
  EXPECT_TRUE(
      contains(finished.output, "rmtsweep: warning: " + journal +
                                    "/run-0-rank-0.2.jrnl was cut short by another process while this run "
                                    "wrote it (3000 of its "))
      << finished.output;
  EXPECT_TRUE(contains(finished.output, "the journal goes on in " + journal + "/run-0-rank-0.3.jrnl"))
      << finished.output;
  const Finished status = serial({"status", output}, dir / "status.log");
  EXPECT_TRUE(contains(status.output, "points done or failed in the file have no record in the journal"))
      << status.output;

  fs::copy_file(output, dir / "before_recover.h5");
  const Finished recovered = serial({"recover", output}, dir / "recover.log");
  ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
  // The file is whole: nothing to recover, left as it is, and recover says which points no record holds.
  EXPECT_TRUE(contains(recovered.output, "nothing to recover")) << recovered.output;
  EXPECT_TRUE(contains(recovered.output, "960 of 960 points done")) << recovered.output;
  EXPECT_TRUE(contains(recovered.output,
                       "points done or failed in the file have no record in the journal (a journal file "
                       "removed or cut short): the file keeps them"))
      << recovered.output;
  EXPECT_EQ(done_in(output), 960);
  const Finished same = compare(dir / "before_recover.h5", output);
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// recover on an intact file whose journal was cut (it rebuilt 5 of 768 points before): every done point kept,
// the file left as it is (nothing to recover).
TEST(SilentDamage, RecoverOfAnIntactFileWithACutJournalKeepsEveryDonePoint) {
  const TempDir dir;
  const std::string output = dir / "cut.h5";
  ASSERT_EQ(run(mpi_command(2, small_sweep(output)), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  fs::copy_file(output, dir / "reference.h5");
  const std::string first = store::journal_directory(output) + "/run-0-rank-0.jrnl";
  fs::resize_file(first, fs::file_size(first) / 2);
  fs::remove(store::journal_directory(output) + "/run-0-rank-1.jrnl");
  const Finished recovered = serial({"recover", output}, dir / "recover.log");
  ASSERT_EQ(recovered.exit_code, 0) << recovered.output;
  EXPECT_TRUE(contains(recovered.output, "nothing to recover")) << recovered.output;
  EXPECT_EQ(done_in(output), 32);
  const Finished same = compare(dir / "reference.h5", output);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  // The file is kept as it is, so a flipped byte in the points no record vouches for would be kept too;
  // status says how many points no record vouches for.
  const Finished verified = serial({"status", output}, dir / "verify.log");
  EXPECT_TRUE(contains(verified.output, "without a record that vouches for them")) << verified.output;
}

// A regular file where the journal's directory should be is called one, not "missing".
TEST(SilentDamage, AJournalPathThatIsARegularFileIsCalledOne) {
  const TempDir dir;
  const std::string output = dir / "file.h5";
  ASSERT_EQ(run(mpi_command(1, small_sweep(output)), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  const std::string journal = store::journal_directory(output);
  fs::remove_all(journal);
  std::ofstream(journal) << "not a journal\n";
  const Finished status = serial({"status", output}, dir / "status.log");
  EXPECT_TRUE(contains(status.output,
                       "journal: none (" + journal + " is a regular file, not the journal's directory)"))
      << status.output;
  const Finished resumed = run(mpi_command(2, small_sweep(output, {"--resume"})), dir / "resume.log");
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "rmtsweep run: invalid --resume '" + output +
                                           "': its journal's path " + journal +
                                           " is a regular file, not the journal's directory: move it aside"))
      << resumed.output;
  EXPECT_FALSE(contains(resumed.output, "MPI_ABORT")) << resumed.output;
  const Finished recovered = serial({"recover", output}, dir / "recover.log");
  EXPECT_EQ(recovered.exit_code, 2) << recovered.output;
  EXPECT_TRUE(contains(recovered.output, journal + " is a regular file, not the journal's directory"))
      << recovered.output;
}

}  // namespace
}  // namespace rmtsweep::test
