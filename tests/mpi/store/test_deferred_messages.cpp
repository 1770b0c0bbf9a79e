// The failed points' messages of a sweep file written in parallel (src/store/failure_messages.cpp): each
// rank's, for /points and for a /refine block, reach the file whole when it closes, on 1 and on 3 ranks; a
// close empties the message of a point that is no longer failed, and a close that changes nothing writes
// nothing.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "rmtsweep/config/grid.hpp"
#include "rmtsweep/config/predictions.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/parallel/collectives.hpp"
#include "rmtsweep/parallel/communicator.hpp"
#include "rmtsweep/store/failure_messages.hpp"
#include "rmtsweep/store/refine_file.hpp"
#include "rmtsweep/store/sweep_file.hpp"
#include "rmtsweep/theory/prediction.hpp"
#include "shared_dir.hpp"
#include "small_grid.hpp"

namespace rmtsweep::sweep {
namespace {

using test::small_grid;

/// The file of a test, in a directory of its own on every rank.
class SharedFile {
 public:
  const std::string& path() const noexcept { return path_; }

 private:
  test::SharedDir directory_;
  std::string path_ = directory_ / "sweep.h5";
};

store::RunInfo run_on(int ranks) {
  store::RunInfo run;
  run.command_line = "test_sweep_deferred_messages";
  run.started = "2025-01-01T00:00:00Z";
  run.mpi_ranks = ranks;
  return run;
}

/// Longer than the 1024 bytes a row of schema_version 2 held, with a UTF-8 character: kept whole.
std::string message_of(int rank, const std::string& where) {
  return "rank " + std::to_string(rank) + " failed " + where + " (δ = 0.5): " + std::string(1500, 'x');
}

std::vector<std::string> errors_at(const std::string& path, const std::string& table) {
  const io::File file = io::open_file(path, io::Access::read_only);
  return io::read_strings(io::open_dataset(file, table + "/error"));
}

std::int64_t messages_run(const std::string& path) {
  const io::File file = io::open_file(path, io::Access::read_only);
  return io::read_int_attribute(file, std::string(store::messages_run_attribute));
}

TEST(DeferredMessages, EachRanksFailuresReachThePointsAndARefineBlockWholeWhenTheFileCloses) {
  const parallel::Communicator comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const int rank = comm.rank(), size = comm.size();
  const SharedFile shared;
  const config::Grid grid = small_grid();
  {
    store::SweepFile file =
        store::SweepFile::create(shared.path(), comm, grid, config::grid_predictions(grid), run_on(size));
    store::RefineFile refined(file.handle(), grid.config(), file.k(), file.run_index(), file.messages());
    refined.add_block(4);
    // Rank r fails point 2 r + 1 and refined row r (independent writes, as the groups' leaders do).
    file.write_failed(2 * rank + 1, message_of(rank, "a point"), 0.5);
    refined.write_failed(rank, message_of(rank, "a refined row"), 0.5);
    refined.close();
    file.close();
  }
  if (rank != 0) return;
  const std::vector<std::string> points = errors_at(shared.path(), "points");
  ASSERT_EQ(points.size(), 8u);
  for (int row = 0; row < 8; ++row) {
    const bool failed = row % 2 == 1 && row / 2 < size;
    EXPECT_EQ(points[static_cast<std::size_t>(row)], failed ? message_of(row / 2, "a point") : "")
        << "row " << row;
  }
  const std::vector<std::string> refined = errors_at(shared.path(), "refine/block_0");
  ASSERT_EQ(refined.size(), 4u);
  for (int row = 0; row < 4; ++row)
    EXPECT_EQ(refined[static_cast<std::size_t>(row)], row < size ? message_of(row, "a refined row") : "")
        << row;
  EXPECT_EQ(messages_run(shared.path()), 0);
}

TEST(DeferredMessages, ACloseEmptiesTheMessageOfAPointNoLongerFailedAndOneThatChangesNothingWritesNothing) {
  const parallel::Communicator comm = parallel::Communicator::duplicate(MPI_COMM_WORLD);
  const int size = comm.size();
  const SharedFile shared;
  const config::Grid grid = small_grid();
  {
    store::SweepFile file =
        store::SweepFile::create(shared.path(), comm, grid, config::grid_predictions(grid), run_on(size));
    if (comm.rank() == size - 1) file.write_failed(3, message_of(size - 1, "a point"), 0.5);
    file.close();
  }
  if (comm.rank() == 0) {
    EXPECT_EQ(errors_at(shared.path(), "points")[3], message_of(size - 1, "a point"));
  }
  {
    store::SweepFile file =
        store::SweepFile::open_for_resume(shared.path(), comm, grid, run_on(size));  // run 1
    if (comm.rank() == 0) file.mark_pending(3);  // no longer failed, as a repaired point is
    file.close();
  }
  if (comm.rank() == 0) {
    EXPECT_EQ(errors_at(shared.path(), "points")[3], "");
    EXPECT_EQ(messages_run(shared.path()), 1);
  }
  {
    store::SweepFile file =
        store::SweepFile::open_for_resume(shared.path(), comm, grid, run_on(size));  // run 2
    file.close();
  }
  if (comm.rank() == 0) {
    EXPECT_EQ(messages_run(shared.path()), 1) << "a close that changed nothing wrote";
  }
}

}  // namespace
}  // namespace rmtsweep::sweep
