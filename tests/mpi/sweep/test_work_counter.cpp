// The RMA work counter hands out every task number exactly once, also when rank 0 is busy.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <thread>
#include <vector>

#include "rmtsweep/sweep/work_counter.hpp"

namespace {

TEST(WorkCounter, EveryTaskIsHandedOutExactlyOnceAcrossRanks) {
  constexpr std::int64_t tasks = 300;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> taken(tasks, 0);
  std::int64_t done_seen = 0;
  {
    rmtsweep::sweep::WorkCounter counter(MPI_COMM_WORLD);
    for (std::int64_t task = counter.next(); task < tasks; task = counter.next()) {
      ++taken[static_cast<std::size_t>(task)];
      counter.add_done();
      // Rank 0 is "busy" computing: the others must still get work without waiting for it.
      if (rank == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    done_seen = counter.done();
  }
  std::vector<int> total(tasks, 0);
  MPI_Allreduce(taken.data(), total.data(), static_cast<int>(tasks), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::int64_t t = 0; t < tasks; ++t) EXPECT_EQ(total[static_cast<std::size_t>(t)], 1) << "task " << t;
  EXPECT_EQ(done_seen, tasks);
  int mine = 0, size = 1;
  for (const int n : taken) mine += n;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> per_rank(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_INT, per_rank.data(), 1, MPI_INT, MPI_COMM_WORLD);
  if (size > 1) {
    EXPECT_LT(per_rank[0], per_rank[1]) << "the busy rank 0 should have taken fewer tasks";
  }
}

TEST(WorkCounter, CloseMakesEveryLaterFetchReturnAtLeastTheTotal) {
  rmtsweep::sweep::WorkCounter counter(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1 || rank == 0) (void)counter.next();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) counter.close(10);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_GE(counter.next(), 10);
}

}  // namespace
