// The RMA work counter hands out every task number exactly once, also when rank 0 is busy.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "rmtsweep/parallel/work_counter.hpp"

namespace {

/// A marker file each rank > 0 creates when the counter is exhausted: rank 0 watches for them
/// without calling MPI, so it cannot lend the others its progress engine.
std::string marker(int rank) {
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return (std::filesystem::temp_directory_path() /
          ("rmtsweep_counter_" + std::to_string(pid) + "_" + std::to_string(rank)))
      .string();
}

TEST(WorkCounter, EveryTaskIsHandedOutExactlyOnceAcrossRanksWhileRankZeroIsBusy) {
  constexpr std::int64_t tasks = 300;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mine_done = marker(rank);
  std::vector<std::string> others_done;
  for (int r = 1; r < size; ++r) others_done.push_back(marker(r));
  std::vector<int> taken(tasks, 0);
  std::int64_t done_seen = 0;
  bool others_finished_while_rank0_busy = true;
  {
    rmtsweep::parallel::WorkCounter counter(MPI_COMM_WORLD);
    for (std::int64_t task = counter.next(); task < tasks; task = counter.next()) {
      ++taken[static_cast<std::size_t>(task)];
      counter.add_done();
      // Rank 0 "computes" its first task, making no MPI call, until every other rank has
      // exhausted the counter (or 30 s pass): a counter that needed rank 0's progress engine
      // would stall the others for as long as rank 0 computes.
      if (rank == 0 && size > 1) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        auto all_exist = [&] {
          for (const auto& path : others_done) {
            if (!std::filesystem::exists(path)) return false;
          }
          return true;
        };
        while (!all_exist() && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        others_finished_while_rank0_busy = all_exist();
      }
    }
    if (rank > 0) std::ofstream(mine_done) << "done\n";
    MPI_Barrier(MPI_COMM_WORLD);
    done_seen = counter.done();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank > 0) std::filesystem::remove(mine_done);
  std::vector<int> total(tasks, 0);
  MPI_Allreduce(taken.data(), total.data(), static_cast<int>(tasks), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::int64_t t = 0; t < tasks; ++t) EXPECT_EQ(total[static_cast<std::size_t>(t)], 1) << "task " << t;
  EXPECT_EQ(done_seen, tasks);
  EXPECT_TRUE(others_finished_while_rank0_busy) << "the other ranks waited for the busy rank 0";
  int mine = 0;
  for (const int n : taken) mine += n;
  std::vector<int> per_rank(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_INT, per_rank.data(), 1, MPI_INT, MPI_COMM_WORLD);
  if (size > 1) {
    EXPECT_LE(per_rank[0], 1) << "the busy rank 0 took more than its first task";
  }
}

// A stop on one rank (close) is seen by every rank: later fetches return at least the total,
// and closed() tells a stop from tasks merely running out, so a group in the middle of a run of
// points stops there too.
TEST(WorkCounter, CloseMakesEveryLaterFetchReturnAtLeastTheTotalAndIsSeenEverywhere) {
  rmtsweep::parallel::WorkCounter counter(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1 || rank == 0) (void)counter.next();
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_FALSE(counter.closed());
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) counter.close(10);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_TRUE(counter.closed());
  EXPECT_GE(counter.next(), 10);
}

}  // namespace
