// `run --resume` repairs what fails a checksum (docs/reliability.md, Checksums): a point's row from its
// journal record, a /lines row from its line record, a /grid axis and a column written at creation from
// the config, each with its checksum; a point whose status was flipped to pending from its done record,
// not computed again. `status` names each kind of damage with what repairs it, and none once resumed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/journal.hpp"
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

/// Runs a Python snippet on `path` (sys.argv[1]) with h5py imported.
void python(const std::string& code, const std::string& path, const std::string& log) {
  const Finished done = run({RMTSWEEP_PYTHON, "-c", "import sys, h5py\n" + code, path}, log);
  ASSERT_EQ(done.exit_code, 0) << done.output;
}

/// Flips the lowest bit of the byte at `byte` of the (contiguous) storage of `dataset`, as a disk would.
void flip(const std::string& path, const std::string& dataset, std::size_t byte, const std::string& log) {
  python("f = h5py.File(sys.argv[1], 'r'); at = f['" + dataset + "'].id.get_offset() + " +
             std::to_string(byte) +
             "; f.close()\n"
             "with open(sys.argv[1], 'r+b') as raw:\n"
             "    raw.seek(at); b = raw.read(1)[0]; raw.seek(at); raw.write(bytes([b ^ 1]))\n",
         path, log);
}

TEST(ResumeChecksums, EveryKindOfChecksumDamageAndAFlippedStatusAreRestoredWithoutComputingAPoint) {
  const TempDir dir;
  const std::string output = dir / "s.h5";
  ASSERT_EQ(run(mpi_command(2, small_sweep_args(output)), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  std::filesystem::copy_file(output, dir / "reference.h5");
  // A point that is not the last record of its writer: pending, it is no point in flight.
  const store::Journal journal = store::read_journal(store::journal_directory(output));
  const std::vector<store::PointRecord>& records = journal.files.front().records;
  ASSERT_GE(records.size(), 3u);
  const std::int64_t unset = records[0].index != 6 ? records[0].index : records[1].index;
  std::int64_t line = 0;
  std::size_t theory_row = 0;  // a normal value: its lowest bit changes it by 1e-16 relative
  {
    const io::File file = io::open_file(output, io::Access::read_only);
    line = io::read_ints(io::open_dataset(file, "lines/d40/line")).at(1);
    const std::vector<double> theory = io::read_doubles(io::open_dataset(file, "points/theory_overlap"));
    while (theory_row < theory.size() && !std::isnormal(theory[theory_row])) ++theory_row;
    ASSERT_LT(theory_row, theory.size());
  }
  const std::string log = dir / "py.log";
  flip(output, "checksums/points", 6 * 8, log);                // point 6's row checksum: no cell differs
  flip(output, "lines/d40/rho", 1 * 8, log);                   // the second /lines row
  flip(output, "grid/snr", 2 * 8, log);                        // a /grid axis
  flip(output, "points/theory_overlap", theory_row * 8, log);  // a lowest byte written at creation
  python("f = h5py.File(sys.argv[1], 'r+'); f['points/status'][" + std::to_string(unset) + "] = 0", output,
         log);

  const Finished damaged = run_serial({"status", output}, dir / "status.log");
  EXPECT_EQ(damaged.exit_code, 4) << damaged.output;
  EXPECT_TRUE(
      contains(damaged.output,
               "DAMAGED: datasets /grid/snr /points/theory_overlap; points 6; lines " + std::to_string(line) +
                   "; `rmtsweep run ... --resume` restores points 6 and lines " + std::to_string(line) +
                   " from the journal (or computes them again) and /grid/snr "
                   "/points/theory_overlap from the config"))
      << damaged.output;
  EXPECT_TRUE(contains(damaged.output, "the journal vouches for 1 results the file no longer shows as done"))
      << damaged.output;

  const Finished resumed = run(mpi_command(2, small_sweep_args(output, {"--resume"})), dir / "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output,
                       "1 points held values other than those written (damaged bytes: 6 "
                       "(checksum)): 1 restored from the journal, 0 to compute again"))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output,
                       "1 points pending in the file were done or failed in their journal "
                       "records (" +
                           std::to_string(unset) + "): 1 restored from the journal"))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "1 /lines rows failed their checksums (lines " + std::to_string(line) +
                                           "): 1 restored from the journal, 0 without a record"))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "(/grid/snr /points/theory_overlap): 2 rewritten from the config"))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "0 of 0 points computed in this run")) << resumed.output;
  // Restored bit for bit, /points/run included: nothing was computed again.
  const Finished same = compare_sweep_files(dir / "reference.h5", output, resumed_run_attributes);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  const Finished clean = run_serial({"status", output}, dir / "clean.log");
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  EXPECT_TRUE(contains(clean.output, "rows checked by their checksums: no damage found")) << clean.output;
  EXPECT_TRUE(contains(clean.output, "verify: no damage found")) << clean.output;
}

TEST(ResumeChecksums, WhatNoRecordHoldsIsComputedAgainToTheSameValues) {
  const TempDir dir;
  const std::string output = dir / "s.h5";
  ASSERT_EQ(run(mpi_command(2, small_sweep_args(output)), dir / "run.log").exit_code, 0)
      << read_text(dir / "run.log");
  std::filesystem::copy_file(output, dir / "reference.h5");
  std::int64_t line = 0;
  {
    const io::File file = io::open_file(output, io::Access::read_only);
    line = io::read_ints(io::open_dataset(file, "lines/d40/line")).at(1);
  }
  const std::string log = dir / "py.log";
  flip(output, "points/top_eigenvalue", 6 * 8, log);  // point 6's value, its lowest mantissa byte
  flip(output, "lines/d40/rho", 1 * 8, log);
  std::filesystem::remove_all(store::journal_directory(output));  // no record holds them

  const Finished resumed = run(mpi_command(2, small_sweep_args(output, {"--resume"})), dir / "resume.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output,
                       "1 points held values other than those written (damaged bytes: 6 "
                       "(checksum)): 0 restored from the journal, 1 to compute again"))
      << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "1 /lines rows failed their checksums (lines " + std::to_string(line) +
                                           "): 0 restored from the journal, 1 without a record (their "))
      << resumed.output;
  // Computed again by this run (its /points/run), to the values the first run wrote.
  std::vector<std::string> ignore = resumed_run_attributes;
  ignore.insert(ignore.end(), {"--ignore-dataset", "points/run"});
  const Finished same = compare_sweep_files(dir / "reference.h5", output, ignore);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  const Finished clean = run_serial({"status", output}, dir / "clean.log");
  EXPECT_TRUE(contains(clean.output, "rows checked by their checksums: no damage found")) << clean.output;
}

}  // namespace
}  // namespace rmtsweep::test
