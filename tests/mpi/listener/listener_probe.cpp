// A deliberately failing MPI test program, run only by check_listener.sh (never by ctest
// directly): one test passes everywhere, one fails on rank 1 alone, one on every rank but 0.
// The shared MPI main must report the second and third FAILED with the ranks that failed.
#include <gtest/gtest.h>
#include <mpi.h>

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

TEST(ListenerProbe, PassesOnEveryRank) { EXPECT_EQ(1 + 1, 2); }

TEST(ListenerProbe, FailsOnRankOneOnly) {
  if (world_rank() == 1) ADD_FAILURE() << "deliberate failure on rank 1";
}

TEST(ListenerProbe, FailsOnEveryRankButZero) {
  EXPECT_EQ(world_rank(), 0) << "deliberate failure off rank 0";
}

}  // namespace
