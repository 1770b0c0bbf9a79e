// What repairs each kind of checksum damage (include/rmtsweep/store/checksums.hpp): `run --resume` the rows
// (from the journal) and the datasets written at creation (from the config), `recover` the others, and
// `assemble` /phase; the text `status` prints after its DAMAGED line.
#include <gtest/gtest.h>

#include "rmtsweep/store/checksums.hpp"

namespace rmtsweep::store {
namespace {

TEST(ChecksumRepairs, ADatasetWrittenAtCreationIsRestoredByResumeAndTheOthersByRecoverOrAssemble) {
  for (const char* path :
       {"/grid/d", "/grid/snr", "/grid/weighting", "/grid/trial", "/points/point", "/points/theory_overlap",
        "/points/snr_index", "/checksums/point", "/spectra/d40/point", "/lines/d40/line"})
    EXPECT_EQ(repairer_of(path), Repairer::resume) << path;
  for (const char* path : {"/points/error", "/points/k", "/spectra/d40/eigenvalue_index", "/spectra/dx/point",
                           "/lines/d40/poles"})
    EXPECT_EQ(repairer_of(path), Repairer::recover) << path;
  EXPECT_EQ(repairer_of("/phase/trials_done"), Repairer::assemble);
}

TEST(ChecksumRepairs, TheDamagedLineNamesWhatRepairsEachKind) {
  ChecksumReport report;
  report.checksummed = true;
  EXPECT_EQ(describe_repairs(report, "s.h5"), "");
  report.damaged_datasets = {"/grid/snr", "/phase/trials_done", "/points/error"};
  report.damaged_points = {5, 17};
  report.damaged_lines = {3};
  EXPECT_EQ(describe_repairs(report, "s.h5"),
            "`rmtsweep run ... --resume` restores points 5 17 and lines 3 from the journal (or computes them "
            "again) and /grid/snr from the config; `rmtsweep recover s.h5` rebuilds /points/error from the "
            "journal; `rmtsweep assemble s.h5` writes /phase/trials_done again");
}

}  // namespace
}  // namespace rmtsweep::store
