// `rmtsweep assemble FILE --output PHASE.h5`: the phase tables in a file of their own, the sweep
// file only read; assembling in place while another process holds the file open; and a sweep file kept
// from before dimension scales (tests/data/sweep_noscales.h5) assembled, resumed and read by status.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "command.hpp"
#include "rmtsweep/io/dimension_scale.hpp"
#include "rmtsweep/io/hdf5.hpp"

namespace {

namespace io = rmtsweep::io;
using rmtsweep::test::read_bytes;
using rmtsweep::test::run;
using rmtsweep::test::run_rmtsweep;
using rmtsweep::test::run_rmtsweep_mpi;
using rmtsweep::test::ScratchDir;

const std::vector<std::string> cell_dimensions{"weighting", "d", "delta", "gamma", "snr"};

std::vector<double> doubles(const std::string& file, const std::string& dataset) {
  const io::File h5 = io::open_file(file, io::Access::read_only);
  return io::read_doubles(io::open_dataset(h5, dataset));
}

/// A process that holds `file` open read-only with h5py (as a notebook does) until the object is destroyed.
class Reader {
 public:
  Reader(const std::string& file, const std::filesystem::path& marker) {
    const std::string script = "import h5py, time, pathlib; f = h5py.File('" + file +
                               "', 'r'); pathlib.Path('" + marker.string() + "').touch(); time.sleep(60)";
    const auto started =
        run(std::string(RMTSWEEP_PYTHON) + " -c \"" + script + "\" > /dev/null 2>&1 & echo $!");
    pid_ = std::stol(started.output);
    for (int i = 0; i < 300 && !std::filesystem::exists(marker); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  ~Reader() { run("kill " + std::to_string(pid_)); }

 private:
  long pid_ = 0;
};

// One small sweep (d = 24, 24 points, seconds) for the suite.
class AssembleOutput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = std::make_unique<ScratchDir>("rmtsweep-assemble-output");
    sweep_ = (*scratch_ / "sweep.h5").string();
    const auto made =
        run_rmtsweep_mpi(1,
                         "run --d 24 --delta 0.5,1 --gamma 0.5 --snr 0:3:3 --weighting mean,optimal "
                         "--trials 2 --output " +
                             sweep_);
    ASSERT_EQ(made.status, 0) << made.output;
  }
  static void TearDownTestSuite() { scratch_.reset(); }

  static inline std::unique_ptr<ScratchDir> scratch_;
  static inline std::string sweep_;
};

TEST_F(AssembleOutput, WritesThePhaseTablesToTheirOwnFileAndLeavesTheSweepFileUntouched) {
  const std::string phase = (*scratch_ / "phase.h5").string(),
                    in_place = (*scratch_ / "in_place.h5").string();
  const std::string before = read_bytes(sweep_);
  const auto written = run_rmtsweep("assemble --quiet " + sweep_ + " --output " + phase);
  ASSERT_EQ(written.status, 0) << written.output;
  EXPECT_TRUE(read_bytes(sweep_) == before) << "the sweep file changed";
  std::filesystem::copy_file(sweep_, in_place);
  ASSERT_EQ(run_rmtsweep("assemble --quiet " + in_place).status, 0);
  for (const char* name : {"phase/overlap_mean", "phase/detected_fraction", "phase/empirical_threshold_snr",
                           "phase/theory/overlap", "phase/detection/null/threshold"}) {
    const auto own = doubles(phase, name), beside = doubles(in_place, name);
    ASSERT_EQ(own.size(), beside.size()) << name;
    for (std::size_t i = 0; i < own.size(); ++i)
      EXPECT_TRUE(own[i] == beside[i] || (std::isnan(own[i]) && std::isnan(beside[i]))) << name << " " << i;
  }
  const io::File h5 = io::open_file(phase, io::Access::read_only);
  EXPECT_EQ(io::read_string_attribute(h5, "sweep_file"), std::filesystem::absolute(sweep_).string());
  EXPECT_NE(io::read_string_attribute(h5, "config").find("weighting = mean,optimal"), std::string::npos);
  EXPECT_EQ(io::attached_dimensions(io::open_dataset(h5, "phase/overlap_mean")), cell_dimensions);
  EXPECT_FALSE(io::exists(h5, "points"));
}

TEST_F(AssembleOutput, AnExistingOutputIsKeptUnlessForceIsGiven) {
  const std::string phase = (*scratch_ / "kept.h5").string();
  rmtsweep::test::write_text(phase, "my notes\n");
  const auto refused = run_rmtsweep("assemble --quiet " + sweep_ + " --output " + phase);
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_NE(refused.output.find("invalid --output '" + phase + "'"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("--force"), std::string::npos) << refused.output;
  EXPECT_EQ(read_bytes(phase), "my notes\n");
  const auto forced = run_rmtsweep("assemble --quiet " + sweep_ + " --output " + phase + " --force");
  EXPECT_EQ(forced.status, 0) << forced.output;
  EXPECT_TRUE(io::is_hdf5_file(phase));
}

TEST_F(AssembleOutput, TheSweepFileItselfIsRefusedAsOutput) {
  const auto refused = run_rmtsweep("assemble --quiet " + sweep_ + " --output " + sweep_ + " --force");
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_NE(refused.output.find("a file other than the sweep file"), std::string::npos) << refused.output;
}

TEST_F(AssembleOutput, StatusOnAPhaseFileNamesItsSweepFile) {
  const std::string phase = (*scratch_ / "for_status.h5").string();
  ASSERT_EQ(run_rmtsweep("assemble --quiet " + sweep_ + " --output " + phase).status, 0);
  const auto status = run_rmtsweep("status " + phase);
  EXPECT_NE(status.status, 0);
  EXPECT_NE(status.output.find("a phase file (rmtsweep assemble --output) of the sweep file"),
            std::string::npos)
      << status.output;
}

TEST_F(AssembleOutput, InPlaceWhileAReaderHoldsTheFileItSaysWhyAndWhatToDoAndOutputStillWorks) {
  const std::string held = (*scratch_ / "held.h5").string();
  std::filesystem::copy_file(sweep_, held);
  const std::string before = read_bytes(held);
  const Reader reader(held, *scratch_ / "reader_open");
  const auto refused = run_rmtsweep("assemble --quiet " + held);
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_NE(refused.output.find("another process holds the file open (HDF5 file locking)"), std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("--output PHASE.h5"), std::string::npos) << refused.output;
  EXPECT_TRUE(read_bytes(held) == before) << "a refused assemble changed the file";
  const auto beside =
      run_rmtsweep("assemble --quiet " + held + " --output " + (*scratch_ / "held_phase.h5").string());
  EXPECT_EQ(beside.status, 0) << beside.output;
}

// A file of the previous schema: no dimension scales, /phase/weighting without _Encoding, delta stored with
// 0.6000000000000001 (tests/data/README.md). Assembling attaches the scales to its /phase; its points keep
// reading, and it resumes with its own axis values.
TEST(AssembleOldFile, AFileFromBeforeDimensionScalesAssemblesResumesAndReads) {
  const ScratchDir scratch("rmtsweep-old-file");
  const std::string file = (scratch / "old.h5").string();
  std::filesystem::copy_file(std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_noscales.h5", file);
  const auto assembled = run_rmtsweep("assemble --quiet " + file);
  ASSERT_EQ(assembled.status, 0) << assembled.output;
  {
    const io::File h5 = io::open_file(file, io::Access::read_only);
    EXPECT_EQ(io::attached_dimensions(io::open_dataset(h5, "phase/overlap_mean")), cell_dimensions);
    EXPECT_TRUE(io::is_scale(io::open_dataset(h5, "phase/delta")));
    EXPECT_EQ(io::read_string_attribute(io::open_dataset(h5, "phase/weighting"), "_Encoding"), "utf-8");
    EXPECT_EQ(io::read_doubles(io::open_dataset(h5, "phase/delta")),
              (std::vector<double>{0.4, 0.6000000000000001, 0.8}));
  }
  const auto status = run_rmtsweep("status " + file);
  EXPECT_EQ(status.status, 0) << status.output;
  const auto resumed =
      run_rmtsweep_mpi(1,
                       "run --d 16 --delta 0.4:0.8:3 --gamma 0.5 --snr 0:2:3 --weighting mean,optimal "
                       "--trials 2 --seed 3 --k 4 --resume --output " +
                           file);
  EXPECT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("1 of 1 points computed in this run"), std::string::npos) << resumed.output;
  EXPECT_EQ(run_rmtsweep("assemble --quiet " + file).status, 0);
}

// The same file's /phase, assembled by that commit with HDF5's modification times in every object header:
// assembling again makes each of its datasets anew without them, so that a new `checksum` attribute (another
// margin) sets no clock time in a header; assembling with another margin and then with the first leaves the
// first bytes, seconds apart (the times are whole seconds).
TEST(AssembleOldFile, AnOlderAssemblyIsReplacedDeterministically) {
  const ScratchDir scratch("rmtsweep-old-phase");
  const std::string file = (scratch / "old.h5").string();
  std::filesystem::copy_file(std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_noscales.h5", file);
  {
    const io::File h5 = io::open_file(file, io::Access::read_only);
    ASSERT_TRUE(io::tracks_times(io::open_dataset(h5, "phase/overlap_mean")))
        << "the kept file's /phase no longer records times: this test proves nothing";
  }
  ASSERT_EQ(run_rmtsweep("assemble --quiet " + file).status, 0);
  {
    const io::File h5 = io::open_file(file, io::Access::read_only);
    const io::Group phase = io::open_group(h5, "phase");
    int checked = 0;
    for (const std::string& name : io::list_children(phase)) {
      const hid_t object = H5Oopen(phase, name.c_str(), H5P_DEFAULT);
      ASSERT_GE(object, 0) << name;
      const bool dataset = H5Iget_type(object) == H5I_DATASET;
      if (dataset) {
        EXPECT_FALSE(io::tracks_times(object)) << "/phase/" << name;
      }
      H5Oclose(object);
      if (!dataset) continue;
      ++checked;
    }
    EXPECT_GT(checked, 20);
  }
  const std::string first = read_bytes(file);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_EQ(run_rmtsweep("assemble --quiet --margin 6 " + file).status, 0);
  EXPECT_FALSE(read_bytes(file) == first) << "another margin changed nothing: this test proves nothing";
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_EQ(run_rmtsweep("assemble --quiet " + file).status, 0);
  EXPECT_TRUE(read_bytes(file) == first);
}

}  // namespace
