// End-to-end sweeps with the real binary under mpiexec: the same
// file on 1, 2, 3 ranks and with ranks_per_point = 2; existing output and changed config
// refused; a failing point recorded while the others finish; bad values rejected before
// any file exists.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>

#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// A small grid (16 points at d = 60, each a few ms) in an INI file.
std::string write_small_config(const TempDir& dir) {
  const std::string path = dir / "small.ini";
  std::ofstream(path)
      << "# small end-to-end sweep\n"
         "d = 60\nT = 10\ncorrelation = prefix:3\nseed = 7\ntrials = 2\n"
         "delta = 0.5,1\ngamma = 0.5\nsnr = 0:3:2\nweighting = mean,custom:3,2,1,0,0,0,0,0,0,0\n";
  return path;
}

TEST(SweepEndToEnd, OneTwoAndThreeRanksAndGroupsOfTwoGiveTheSameFile) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const Finished one =
      run(mpi_command(1, {"run", "--config", config, "--output", dir / "r1.h5"}), dir / "r1.log");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_EQ(read_status(dir / "r1.h5"), std::vector<std::int64_t>(16, 1));
  // The summary counts points, whatever the tasks (runs of points sharing a table) were.
  EXPECT_NE(one.output.find("16 of 16 points computed in this run (0 failed); 16/16 done"), std::string::npos)
      << one.output;
  for (const auto& [ranks, extra] : std::vector<std::pair<int, std::vector<std::string>>>{
           {2, {}}, {3, {}}, {4, {"--ranks_per_point", "2"}}}) {
    std::string name = std::string("r").append(std::to_string(ranks));
    if (!extra.empty()) name += "g2";  // appends only: GCC 12 warns falsely (-Wrestrict) on "r" + string
    std::vector<std::string> args{"run", "--config", config, "--output", dir / (name + ".h5")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Finished many = run(mpi_command(ranks, args), dir / (name + ".log"));
    ASSERT_EQ(many.exit_code, 0) << many.output;
    EXPECT_NE(many.output.find("16/16 done"), std::string::npos) << many.output;
    expect_same_values(dir / "r1.h5", dir / (name + ".h5"));
  }
}

// A finite-size sweep: the d axis in config order (not ascending), each size's spectra in its own
// dataset, the same values on 1, 2 and 3 ranks.
TEST(SweepEndToEnd, ASweepOverSeveralSizesGivesTheSameFileOnOneTwoAndThreeRanks) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const std::vector<std::string> sizes{"--d", "60,24,40", "--store_spectra", "true"};
  for (const int ranks : {1, 2, 3}) {
    std::string name = "d";  // not "d" + to_string(): GCC 12 warns falsely there (-Wrestrict, its bug 105329)
    name += std::to_string(ranks);
    std::vector<std::string> args{"run", "--config", config, "--output", dir / (name + ".h5")};
    args.insert(args.end(), sizes.begin(), sizes.end());
    const Finished done = run(mpi_command(ranks, args), dir / (name + ".log"));
    ASSERT_EQ(done.exit_code, 0) << done.output;
    EXPECT_NE(done.output.find("48/48 done"), std::string::npos) << done.output;
    if (ranks > 1) expect_same_values(dir / "d1.h5", dir / (name + ".h5"));
  }
  const Finished status = run({RMTSWEEP_BINARY, "status", dir / "d1.h5"}, dir / "status.log");
  EXPECT_NE(status.output.find("by size: d=60 16/16 done; d=24 16/16 done; d=40 16/16 done"),
            std::string::npos)
      << status.output;
  const io::File file = io::open_file(dir / "d1.h5", io::Access::read_only);
  EXPECT_EQ(io::read_ints(io::open_dataset(file, "grid/d")), (std::vector<std::int64_t>{60, 24, 40}));
  const auto d = io::read_ints(io::open_dataset(file, "points/d"));
  EXPECT_EQ(d.front(), 60);
  EXPECT_EQ(d.back(), 40);
  for (const int size : {24, 40, 60}) {
    const std::string group = "spectra/d" + std::to_string(size);
    EXPECT_EQ(io::shape(io::open_dataset(file, group + "/eigenvalues")),
              (std::vector<hsize_t>{16, static_cast<hsize_t>(size)}));
    for (const std::int64_t point : io::read_ints(io::open_dataset(file, group + "/point")))
      EXPECT_EQ(d[static_cast<std::size_t>(point)], size) << group;
  }
}

// At d = 130 a group of 2 ranks (a 2 x 1 grid of 64-row blocks) reduces S with ELPA, unless
// eigensolver = scalapack; one rank uses LAPACK. All three files hold the same values (to the
// 1e-9 of expect_same_values: the reductions differ by rounding only). Each point alone (lines = off):
// a line never takes ELPA, which does not expose its orthogonal factor.
TEST(SweepEndToEnd, GroupsOfTwoRanksGiveTheSameFileWithElpaAndWithScalapack) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const Finished one = run(
      mpi_command(1, {"run", "--config", config, "--d", "130", "--output", dir / "one.h5", "--lines", "off"}),
      dir / "one.log");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_EQ(one.output.find("S reduced by ELPA"), std::string::npos) << "one rank uses LAPACK";
  for (const std::string solver : {"auto", "scalapack"}) {
    const std::string name = "pair-" + solver;
    const Finished pair =
        run(mpi_command(2, {"run", "--config", config, "--d", "130", "--ranks_per_point", "2",
                            "--eigensolver", solver, "--output", dir / (name + ".h5"), "--lines", "off"}),
            dir / (name + ".log"));
    ASSERT_EQ(pair.exit_code, 0) << pair.output;
    EXPECT_NE(pair.output.find("16/16 done"), std::string::npos) << pair.output;
    // What actually reduced S, counted from the engine's own results.
    const bool elpa = pair.output.find("S reduced by ELPA in 16 of the 16 points done") != std::string::npos;
    EXPECT_EQ(elpa, solver == "auto") << pair.output;
    EXPECT_EQ(pair.output.find("S reduced by ELPA") == std::string::npos, solver == "scalapack")
        << pair.output;
    expect_same_values(dir / "one.h5", dir / (name + ".h5"));
  }
}

// The matrix-free engine (S never formed) in a sweep: the same file on 1 and 3 ranks of one-rank
// groups, and on groups of two ranks (to the 1e-9 of expect_same_values), and a point record that
// says how it converged.
TEST(SweepEndToEnd, AKrylovSweepGivesTheSameFileOnOneThreeRanksAndGroupsOfTwo) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const std::vector<std::string> krylov{"--eigensolver", "krylov", "--store_spectra", "false", "--d", "120"};
  std::vector<std::string> args{"run", "--config", config, "--output", dir / "k1.h5"};
  args.insert(args.end(), krylov.begin(), krylov.end());
  const Finished one = run(mpi_command(1, args), dir / "k1.log");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_NE(one.output.find("S never formed (Krylov engine) in 16 of the 16 points"), std::string::npos)
      << one.output;
  for (const auto& [ranks, extra] :
       std::vector<std::pair<int, std::vector<std::string>>>{{3, {}}, {2, {"--ranks_per_point", "2"}}}) {
    const std::string name = std::string("k").append(std::to_string(ranks)).append(extra.empty() ? "" : "g2");
    std::vector<std::string> many_args{"run", "--config", config, "--output", dir / (name + ".h5")};
    many_args.insert(many_args.end(), krylov.begin(), krylov.end());
    many_args.insert(many_args.end(), extra.begin(), extra.end());
    const Finished many = run(mpi_command(ranks, many_args), dir / (name + ".log"));
    ASSERT_EQ(many.exit_code, 0) << many.output;
    expect_same_values(dir / "k1.h5", dir / (name + ".h5"));
  }
  const io::File file = io::open_file(dir / "k1.h5", io::Access::read_only);
  for (const std::string& solver : io::read_strings(io::open_dataset(file, "points/solver")))
    EXPECT_EQ(solver, "lanczos-line");
  for (const std::int64_t products : io::read_ints(io::open_dataset(file, "points/operator_products")))
    EXPECT_GT(products, 0);
  for (const double residual : io::read_doubles(io::open_dataset(file, "points/solver_residual")))
    EXPECT_LT(residual, 1e-9);
}

TEST(SweepEndToEnd, TheStaticScheduleFallbackGivesTheSameFileAsTheDynamicOne) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  ASSERT_EQ(
      run(mpi_command(3, {"run", "--config", config, "--output", dir / "dyn.h5"}), dir / "d.log").exit_code,
      0);
  setenv("RMTSWEEP_SCHEDULE", "static", 1);  // inherited by mpiexec and the local ranks
  const Finished fixed =
      run(mpi_command(3, {"run", "--config", config, "--output", dir / "st.h5"}), dir / "s.log");
  unsetenv("RMTSWEEP_SCHEDULE");
  ASSERT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_NE(fixed.output.find("static schedule"), std::string::npos) << fixed.output;
  EXPECT_EQ(read_status(dir / "st.h5"), std::vector<std::int64_t>(16, 1));
  expect_same_values(dir / "dyn.h5", dir / "st.h5");
}

/// The small sweep run to the end on 2 ranks into dir/a.h5; returns its config's path.
std::string finished_small_sweep(const TempDir& dir) {
  const std::string config = write_small_config(dir);
  EXPECT_EQ(
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5"}), dir / "a.log").exit_code, 0);
  return config;
}

TEST(SweepEndToEnd, AnExistingOutputIsRefusedWithoutForceAndLeftByteIdentical) {
  const TempDir dir;
  const std::string config = finished_small_sweep(dir);
  const std::string before = read_text(dir / "a.h5");
  const Finished again =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5"}), dir / "b.log");
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.output.find("invalid --output"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
  EXPECT_EQ(read_text(dir / "a.h5"), before);
  const Finished forced =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5", "--force", "--seed", "8"}),
          dir / "c.log");
  EXPECT_EQ(forced.exit_code, 0) << forced.output;
  const io::File file = io::open_file(dir / "a.h5", io::Access::read_only);
  EXPECT_NE(io::read_string_attribute(file, "config").find("seed = 8\n"), std::string::npos);
}

// A running sweep holds its file's lock (FILE.h5.lock); held so here, as if a run were writing
// the file, a second run (--resume or --force) and an assemble are refused with exit 2 and leave
// the file byte-identical; released, both go ahead. A reader holding the file itself open (HDF5
// keeps a shared flock on it, as h5py in a notebook does) stops neither.
TEST(SweepEndToEnd, AFileAnotherProcessIsWritingIsRefusedByRunAndAssembleButAReaderStopsNeither) {
  const TempDir dir;
  const std::string config = finished_small_sweep(dir);
  const std::string before = read_text(dir / "a.h5");
  const int writer = ::open((dir / "a.h5.lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(writer, 0) << "run leaves its lock file beside the sweep file";
  ASSERT_EQ(::flock(writer, LOCK_EX | LOCK_NB), 0) << "the finished run released its lock";
  for (const char* mode : {"--resume", "--force"}) {
    const Finished second =
        run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5", mode}), dir / "b.log");
    EXPECT_EQ(second.exit_code, 2) << mode << ": " << second.output;
    EXPECT_NE(second.output.find("holds its lock"), std::string::npos) << second.output;
  }
  const Finished assembled = run(mpi_command(1, {"assemble", dir / "a.h5"}), dir / "c.log");
  EXPECT_EQ(assembled.exit_code, 2) << assembled.output;
  EXPECT_NE(assembled.output.find("holds its lock"), std::string::npos) << assembled.output;
  EXPECT_EQ(read_text(dir / "a.h5"), before);
  const Finished status = run(mpi_command(1, {"status", dir / "a.h5"}), dir / "d.log");
  EXPECT_EQ(status.exit_code, 0) << "a reader is let in: " << status.output;
  ::close(writer);

  const int reader = ::open((dir / "a.h5").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(::flock(reader, LOCK_SH | LOCK_NB), 0);
  const Finished resumed =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5", "--resume"}), dir / "e.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  ::close(reader);
  EXPECT_EQ(run(mpi_command(1, {"assemble", dir / "a.h5"}), dir / "f.log").exit_code, 0);
}

TEST(SweepEndToEnd, ResumeWithADifferentConfigIsRefusedShowingTheDifference) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  ASSERT_EQ(
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5"}), dir / "a.log").exit_code, 0);
  const std::string before = read_text(dir / "a.h5");
  const Finished resumed =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5", "--resume", "--snr", "0,2"}),
          dir / "b.log");
  EXPECT_EQ(resumed.exit_code, 2);
  EXPECT_NE(resumed.output.find("- snr = 0,3"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("+ snr = 0,2"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("invalid --resume"), std::string::npos) << resumed.output;
  EXPECT_EQ(read_text(dir / "a.h5"), before);
}

/// Runs the small sweep into dir/a.h5, applies `edit` (a Python statement on the h5py File f)
/// to it, and tries --resume; `before` gets the file's bytes as the resume found them.
Finished resume_after_editing(const TempDir& dir, const std::string& edit, std::string& before) {
  const std::string config = write_small_config(dir);
  const Finished first =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5"}), dir / "a.log");
  EXPECT_EQ(first.exit_code, 0) << first.output;
  const std::string script = "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); " + edit;
  EXPECT_EQ(run({RMTSWEEP_PYTHON, "-c", script, dir / "a.h5"}, dir / "py.log").exit_code, 0);
  before = read_text(dir / "a.h5");
  return run(mpi_command(2, {"run", "--config", config, "--output", dir / "a.h5", "--resume"}),
             dir / "b.log");
}

// A file from an rmtsweep that drew its random numbers differently (files before draws_version
// was recorded drew version 1) is not resumed: the same seed would give another table, and the
// file would mix two. Refused with exit 2 naming both versions; the file is left as it was.
TEST(SweepEndToEnd, ResumingAFileDrawnWithAnotherDrawsVersionIsRefused) {
  const TempDir dir;
  std::string before;
  const Finished resumed = resume_after_editing(dir, "del f.attrs['draws_version']", before);
  EXPECT_EQ(resumed.exit_code, 2);
  EXPECT_NE(resumed.output.find("drawn with draws_version 1"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("draws version 2"), std::string::npos) << resumed.output;
  EXPECT_EQ(read_text(dir / "a.h5"), before);
  const Finished status = run({RMTSWEEP_BINARY, "status", dir / "a.h5"}, dir / "s.log");
  EXPECT_NE(status.output.find("draws: version 1 (Box-Muller; this rmtsweep cannot resume it)"),
            std::string::npos)
      << status.output;
}

// The same for a file whose Gaussian draws came from another Boost.Random.
TEST(SweepEndToEnd, ResumingAFileDrawnWithAnotherBoostRandomIsRefused) {
  const TempDir dir;
  std::string before;
  const Finished resumed =
      resume_after_editing(dir, "f.attrs.modify('draws_library', b'Boost.Random 1_00')", before);
  EXPECT_EQ(resumed.exit_code, 2);
  EXPECT_NE(resumed.output.find("its Gaussian draws came from Boost.Random 1_00"), std::string::npos)
      << resumed.output;
  EXPECT_EQ(read_text(dir / "a.h5"), before);
}

TEST(SweepEndToEnd, AFailingPointIsRecordedWithItsMessageWhileTheOthersFinish) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const Finished failed = run(mpi_command(2, {"run", "--config", config, "--output", dir / "f.h5",
                                              "--fail_points", "4,10", "--lines", "off"}),
                              dir / "f.log");
  EXPECT_EQ(failed.exit_code, 3) << failed.output;
  std::vector<std::int64_t> expected(16, 1);
  expected[4] = expected[10] = 2;
  EXPECT_EQ(read_status(dir / "f.h5"), expected);
  const io::File file = io::open_file(dir / "f.h5", io::Access::read_only);
  const auto errors = io::read_strings(io::open_dataset(file, "points/error"));
  EXPECT_NE(errors[4].find("fault injected"), std::string::npos) << errors[4];
  EXPECT_EQ(errors[3], "");
  const Finished status = run({RMTSWEEP_BINARY, "status", dir / "f.h5"}, dir / "s.log");
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_NE(status.output.find("16 total, 14 done, 0 pending, 2 failed"), std::string::npos) << status.output;
  EXPECT_NE(status.output.find("draws: version 2, Boost.Random "), std::string::npos) << status.output;
  EXPECT_NE(status.output.find("  4 (d=60 delta=0.5 gamma=0.5 snr=3 weighting=mean trial=0): fault injected"),
            std::string::npos)
      << status.output;
}

// In a group of 2 ranks a fault on one rank only (as an out-of-memory error would be) cannot be
// recorded: the other rank waits in a collective call and never learns of it. The job ends with
// an error naming the point instead of hanging, point 4 stays pending, and --resume completes.
TEST(SweepEndToEnd, AFaultOnOneRankOfAGroupEndsTheJobInsteadOfHangingAndTheFileResumes) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const Finished failed =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "g.h5", "--ranks_per_point", "2",
                          "--fail_points", "4", "--lines", "off"}),
          dir / "g.log");
  EXPECT_NE(failed.exit_code, 0) << failed.output;
  EXPECT_NE(failed.output.find("rank 1: point 4 failed on this rank (fault injected"), std::string::npos)
      << failed.output;
  EXPECT_EQ(read_status(dir / "g.h5")[4], 0);
  const Finished resumed = run(mpi_command(2, {"run", "--config", config, "--output", dir / "g.h5",
                                               "--ranks_per_point", "2", "--resume"}),
                               dir / "h.log");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(read_status(dir / "g.h5"), std::vector<std::int64_t>(16, 1));
}

// On a CPU with AVX2, OpenBLAS's generic Prescott kernels (what Debian 12's OpenBLAS falls back
// to on CPUs it does not know; forced here) make `run` print a note naming the setting that
// selects the fast kernels; with those kernels selected, no note.
TEST(SweepEndToEnd, RunNotesWhenOpenBlasRunsItsGenericKernelsOnAFasterCpu) {
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this CPU has no AVX2: no faster OpenBLAS kernel";
  const std::string fast = __builtin_cpu_supports("avx512f") ? "SkylakeX" : "Haswell";
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const auto with_core = [&](const std::string& core, const std::string& name) {
    std::vector<std::string> command{"env", "OPENBLAS_CORETYPE=" + core};
    const auto mpi = mpi_command(1, {"run", "--config", config, "--output", dir / (name + ".h5")});
    command.insert(command.end(), mpi.begin(), mpi.end());
    return run(command, dir / (name + ".log"));
  };
  const Finished generic = with_core("Prescott", "generic");
  EXPECT_EQ(generic.exit_code, 0) << generic.output;
  EXPECT_NE(generic.output.find("OpenBLAS runs its generic Prescott kernels on this CPU; OPENBLAS_CORETYPE=" +
                                fast),
            std::string::npos)
      << generic.output;
  const Finished tuned = with_core(fast, "tuned");
  EXPECT_EQ(tuned.exit_code, 0) << tuned.output;
  EXPECT_EQ(tuned.output.find("generic Prescott kernels"), std::string::npos) << tuned.output;
}

TEST(SweepEndToEnd, BadValuesAreRejectedWithExitTwoBeforeAnyFileIsCreated) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--correlation", "prefix:11"}, "invalid --correlation 'prefix:11'"},
      {{"--ranks_per_point", "2"}, "invalid --ranks_per_point '2'"},
      {{"--snr", "1:0"}, "invalid --snr '1:0'"},
      {{"--weighting", "mean,2"}, "invalid --weighting 'mean,2'"},
      {{"--delta", "1e9"}, "invalid --delta"},
      {{"--k", "3"}, "invalid --k '3'"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args{"run", "--config", config, "--output", dir / "bad.h5"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Finished bad = run(mpi_command(3, args), dir / "bad.log");
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
    EXPECT_NE(bad.output.find(message), std::string::npos) << bad.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.h5")) << extra[0];
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.h5.lock")) << extra[0];
  }
}

TEST(SweepEndToEnd, AnOutputPathThatIsADirectoryIsRefusedWithExitTwoEvenWithForce) {
  const TempDir dir;
  const std::string config = write_small_config(dir);
  std::filesystem::create_directory(dir / "out.h5");
  const Finished forced =
      run(mpi_command(2, {"run", "--config", config, "--output", dir / "out.h5", "--force"}), dir / "d.log");
  EXPECT_EQ(forced.exit_code, 2) << forced.output;
  EXPECT_NE(forced.output.find("invalid --output"), std::string::npos) << forced.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir / "out.h5"));
}

}  // namespace
}  // namespace rmtsweep::test
