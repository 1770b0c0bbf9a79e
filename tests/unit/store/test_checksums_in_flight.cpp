// A /lines row a run is writing while `status` or `assemble --output` checks the file
// (include/rmtsweep/store/checksums.hpp, Writer): its data and checksum written but not yet its count. With a
// live writer it is in flight, not damage; without one it is damage; a complete row is checked either way.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <limits>

#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/store/checksums.hpp"
#include "rmtsweep/store/line_store.hpp"

namespace rmtsweep::store {
namespace {

class LinesBeingWritten : public ::testing::Test {
 protected:
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("rmtsweep_in_flight_" + std::to_string(::getpid()) + ".h5");
  io::File file;

  // Three rows of /lines/d40 with their line indices 30, 31, 32: row 0 written whole, row 1 all but its
  // count (written last), row 2 only its poles.
  void SetUp() override {
    file = io::create_file(path);
    const std::string base = lines_group_of(40);
    (void)io::create_group(file, std::string(lines_group));
    const io::Group group = io::create_group(file, base);
    const io::Dataset line = io::create_int_dataset(file, base + "/line", {3});
    io::write(line, std::vector<std::int64_t>{30, 31, 32});
    (void)SecularTable::create(group, 3, 4, line);
    (void)io::create_int_dataset(file, base + "/checksum", {3}, io::DatasetOptions{.int_fill = no_checksum});
    const SecularTable table = SecularTable::open(group);
    const spectral::RankOneLine secular{
        {0.5, 1.0, 2.0}, {0.1, 0.2, 0.3}, {0.0, 0.0, 0.1}, 1.5, spectral::OverlapForm::direct};
    ASSERT_TRUE(table.write(0, secular, true));
    ASSERT_TRUE(table.write(1, secular, true));
    io::write_rows(io::open_dataset(file, base + "/count"), 1, 1, std::vector<std::int64_t>{0});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    io::write_rows(io::open_dataset(file, base + "/poles"), 2, 1, std::vector<double>{0.5, 1.0, nan, nan});
  }
  void TearDown() override {
    file = io::File{};
    std::filesystem::remove(path);
  }
};

TEST_F(LinesBeingWritten, WithoutAWriterTheUnfinishedRowsAreDamage) {
  const ChecksumReport report = check_checksums(file, {}, Writer::absent);
  EXPECT_EQ(report.damaged_lines, (std::vector<std::int64_t>{31, 32}));
}

TEST_F(LinesBeingWritten, WithALiveWriterTheUnfinishedRowsAreInFlightAndNotDamage) {
  const ChecksumReport report = check_checksums(file, {}, Writer::live);
  EXPECT_TRUE(report.damaged_lines.empty());
  EXPECT_EQ(report.rows, 1) << "the complete row is checked";
}

TEST_F(LinesBeingWritten, WithALiveWriterACompleteRowThatDiffersIsStillDamage) {
  io::write_rows(io::open_dataset(file, lines_group_of(40) + "/rho"), 0, 1, std::vector<double>{1.25});
  const ChecksumReport report = check_checksums(file, {}, Writer::live);
  EXPECT_EQ(report.damaged_lines, (std::vector<std::int64_t>{30}));
}

}  // namespace
}  // namespace rmtsweep::store
