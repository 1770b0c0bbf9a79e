// The main of every MPI test executable (DLA-Future's gtest_mpi_listener): MPI is initialised
// once; after each test every rank's outcome and failure messages are gathered on rank 0, which
// alone prints, so a test that fails on any rank is reported FAILED and names the ranks; the exit
// code is the same on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "mpi_listener.hpp"
#include "rmtsweep/parallel/environment.hpp"

int main(int argc, char** argv) {
  int any_failed = 0;
  {
    // As the program starts MPI: MPI_THREAD_FUNNELED asked for and checked (OpenMP kernels run in the tests).
    const rmtsweep::parallel::MpiEnvironment mpi(argc, argv);
    testing::InitGoogleTest(&argc, argv);
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    std::unique_ptr<testing::TestEventListener> printer(
        listeners.Release(listeners.default_result_printer()));
    listeners.Append(new rmtsweep::testing::MpiListener(std::move(printer), MPI_COMM_WORLD));
    const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  return any_failed;
}
