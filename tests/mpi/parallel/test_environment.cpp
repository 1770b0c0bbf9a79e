// MPI as the program starts it (parallel::MpiEnvironment, which the shared test main uses too): with at least
// MPI_THREAD_FUNNELED, since OpenMP kernels and BLAS threads run beside MPI calls from the main thread.
#include <gtest/gtest.h>
#include <mpi.h>

#include "rmtsweep/parallel/environment.hpp"

namespace {

TEST(MpiEnvironment, ProvidesAtLeastTheFunneledThreadLevel) {
  int provided = MPI_THREAD_SINGLE;
  ASSERT_EQ(MPI_Query_thread(&provided), MPI_SUCCESS);
  EXPECT_GE(provided, MPI_THREAD_FUNNELED) << rmtsweep::parallel::thread_level_name(provided);
  int main_thread = 0;
  MPI_Is_thread_main(&main_thread);
  EXPECT_TRUE(main_thread);
}

TEST(MpiEnvironment, NamesTheThreadLevelsForItsMessage) {
  EXPECT_EQ(rmtsweep::parallel::thread_level_name(MPI_THREAD_SINGLE), "MPI_THREAD_SINGLE");
  EXPECT_EQ(rmtsweep::parallel::thread_level_name(MPI_THREAD_FUNNELED), "MPI_THREAD_FUNNELED");
  EXPECT_EQ(rmtsweep::parallel::thread_level_name(MPI_THREAD_MULTIPLE), "MPI_THREAD_MULTIPLE");
}

}  // namespace
