// SweepReader on a file kept from the first schema (tests/data/sweep_schema1.h5, written by
// rmtsweep 0.1.0 before the schema table existed: d = 16, 8 points, point 1 failed by fault
// injection): files of earlier versions must keep reading, and assemble must keep working on them.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace config = rmtsweep::config;
namespace store = rmtsweep::store;
namespace column = rmtsweep::store::column;

namespace {

const std::string kept = std::string(RMTSWEEP_SOURCE_DIR) + "/tests/data/sweep_schema1.h5";

TEST(SweepReader, AFileOfTheFirstSchemaOpensWithItsConfig) {
  const store::SweepReader reader(kept);
  EXPECT_EQ(reader.schema_version(), 1);
  EXPECT_EQ(reader.points(), 8);
  const config::SweepConfig config = reader.config();
  EXPECT_EQ(config.d, std::vector<int>{16});
  EXPECT_EQ(config.point_count(), 8);
  EXPECT_EQ(reader.draws().version, 2);
}

/// The columns added to the table after that file was written: the reader says they are absent.
bool added_later(const store::Column& c) {
  for (const char* name :
       {"effective_tokens", "solver", "operator_products", "solver_residual", "solver_fell_back", "d_index",
        "theory_finite_t_top_eigenvalue", "theory_finite_t_overlap", "theory_finite_t_threshold_snr",
        "theory_finite_t_bulk_edge_right", "theory_finite_t_levels_top_eigenvalue",
        "theory_finite_t_levels_overlap", "theory_finite_t_levels_overlap_error"}) {
    if (c.name == name) return true;
  }
  return false;
}

TEST(SweepReader, EveryColumnOfTheTableReadsFromTheFirstSchemaOrIsReportedMissing) {
  const store::SweepReader reader(kept);
  for (const store::Column* c : store::point_columns()) {
    if (added_later(*c)) {
      EXPECT_FALSE(reader.has(*c)) << c->name;
      EXPECT_THROW((void)reader.reals(*c), rmtsweep::InvalidFile) << c->name;
      continue;
    }
    ASSERT_TRUE(reader.has(*c)) << c->name;
    const std::size_t per_point = c->shape == store::ColumnShape::top_k ? 4 : 1;
    const std::size_t rows = c->type == store::ColumnType::text      ? reader.texts(*c).size()
                             : c->type == store::ColumnType::integer ? reader.integers(*c).size()
                                                                     : reader.reals(*c).size();
    EXPECT_EQ(rows, 8 * per_point) << c->name;
  }
}

TEST(SweepReader, StatusAndMeasurementsAreWhatTheRunRecorded) {
  const store::SweepReader reader(kept);
  const store::StatusCounts counts = store::count_status(reader.status());
  EXPECT_EQ(counts.done, 7);
  EXPECT_EQ(counts.failed, 1);
  EXPECT_EQ(counts.pending + counts.other, 0);
  const auto top = reader.reals(column::top_eigenvalue);
  EXPECT_TRUE(std::isnan(top[1])) << "the failed point holds no measurement";
  EXPECT_GT(top[0], 0.0);
  EXPECT_NE(reader.texts(column::error)[1].find("fault injected"), std::string::npos);
  EXPECT_EQ(reader.texts(column::weighting)[2], "last");
}

TEST(SweepReader, AFileOfTheFirstSchemaStillAssembles) {
  const auto dir = std::filesystem::temp_directory_path() / ("rmtsweep_reader_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto copy = dir / "old.h5";
  std::filesystem::copy_file(kept, copy, std::filesystem::copy_options::overwrite_existing);
  const rmtsweep::assemble::SweepData data = rmtsweep::assemble::read_sweep(copy);
  EXPECT_EQ(data.total, 8);
  EXPECT_EQ(data.done, 7);
  EXPECT_EQ(data.failed, 1);
  EXPECT_EQ(data.points.size(), 7u);
  std::filesystem::remove_all(dir);
}

TEST(SweepReader, AFileThatIsNotASweepIsAnInvalidFileNamingIt) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto text = dir / ("rmtsweep_not_a_sweep_" + std::to_string(::getpid()) + ".h5");
  {
    std::FILE* f = std::fopen(text.c_str(), "w");
    std::fputs("not hdf5\n", f);
    std::fclose(f);
  }
  try {
    const store::SweepReader reader(text);
    ADD_FAILURE() << "no InvalidFile";
  } catch (const rmtsweep::InvalidFile& e) {
    EXPECT_EQ(e.path(), text.string());
    EXPECT_NE(std::string(e.what()).find("not an HDF5 file"), std::string::npos) << e.what();
  }
  std::filesystem::remove(text);
}

}  // namespace

namespace {

std::string invalid_file_message(const std::string& path) {
  try {
    const store::SweepReader reader(path);
  } catch (const rmtsweep::InvalidFile& e) {
    return e.what();
  }
  return "no InvalidFile";
}

TEST(SweepReader, AnotherProgramsHdf5FileIsNotCalledAnInterruptedSweep) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rmtsweep_other_" + std::to_string(::getpid()) + ".h5");
  {
    const auto file = rmtsweep::io::create_file(path);
    (void)rmtsweep::io::create_group(file, "data");
  }
  const std::string message = invalid_file_message(path);
  EXPECT_NE(message.find("another program's file"), std::string::npos) << message;
  EXPECT_EQ(message.find("interrupted"), std::string::npos) << message;
  std::filesystem::remove(path);
}

// Another program's file with the names a sweep file has (/points, /grid, a config attribute) is still
// another program's: no advice may offer to overwrite it.
TEST(SweepReader, AnotherProgramsFileWithPointsAndGridIsNotCalledAnInterruptedSweep) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rmtsweep_alike_" + std::to_string(::getpid()) + ".h5");
  {
    const auto file = rmtsweep::io::create_file(path);
    (void)rmtsweep::io::create_group(file, "points");
    (void)rmtsweep::io::create_group(file, "grid");
    (void)rmtsweep::io::create_double_dataset(file, "grid/delta", {3});
    rmtsweep::io::write_attribute(file, "config", "x = 1");
  }
  const std::string message = invalid_file_message(path);
  EXPECT_NE(message.find("another program's file"), std::string::npos) << message;
  EXPECT_EQ(message.find("interrupted"), std::string::npos) << message;
  EXPECT_FALSE(store::SweepReader::written_by_rmtsweep(path));
  std::filesystem::remove(path);
}

// What an rmtsweep that created files in place left when killed: /grid/delta, created first with its
// description, and no schema_version (written last).
TEST(SweepReader, ASweepWithoutItsSchemaVersionIsOneWhoseCreationWasInterrupted) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rmtsweep_cut_" + std::to_string(::getpid()) + ".h5");
  {
    const auto file = rmtsweep::io::create_file(path);
    (void)rmtsweep::io::create_group(file, "grid");
    const auto delta =
        rmtsweep::io::create_double_dataset(file, std::string(store::grid_axis::delta.path), {3});
    rmtsweep::io::write_attribute(delta, "description", std::string(store::grid_axis::delta.description));
  }
  const std::string message = invalid_file_message(path);
  EXPECT_NE(message.find("creation was interrupted"), std::string::npos) << message;
  EXPECT_TRUE(store::SweepReader::written_by_rmtsweep(path));
  std::filesystem::remove(path);
}

// A FIFO (or a device) is refused before it is opened, which would block until a writer comes.
TEST(SweepReader, AFifoIsRefusedWithoutOpeningIt) {
  const auto path = std::filesystem::temp_directory_path() / ("rmtsweep_fifo_" + std::to_string(::getpid()));
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string message = invalid_file_message(path);
  EXPECT_NE(message.find("not a regular file (a FIFO)"), std::string::npos) << message;
  EXPECT_NE(invalid_file_message("/dev/zero").find("a character device"), std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
