#pragma once
// A GoogleTest listener for MPI tests (DLA-Future's gtest_mpi_listener): rank 0 prints; after each
// test the outcome and failure messages of every rank are gathered there, so a failure on any
// rank makes the test FAILED in rank 0's report, naming the ranks that failed, and the summary
// counts it. Every rank must run the same tests in the same order (the gathers are collective).
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace rmtsweep::testing {

class MpiListener : public ::testing::EmptyTestEventListener {
 public:
  /// `printer` is gtest's default result printer, which rank 0 uses for everything but the
  /// per-test results and the summary.
  MpiListener(std::unique_ptr<::testing::TestEventListener> printer, MPI_Comm comm);

  void OnTestProgramStart(const ::testing::UnitTest& unit) override;
  void OnTestIterationStart(const ::testing::UnitTest& unit, int iteration) override;
  void OnEnvironmentsSetUpStart(const ::testing::UnitTest& unit) override;
  void OnEnvironmentsSetUpEnd(const ::testing::UnitTest& unit) override;
  void OnTestSuiteStart(const ::testing::TestSuite& suite) override;
  void OnTestStart(const ::testing::TestInfo& test) override;
  void OnTestPartResult(const ::testing::TestPartResult& result) override;
  void OnTestEnd(const ::testing::TestInfo& test) override;
  void OnTestSuiteEnd(const ::testing::TestSuite& suite) override;
  void OnEnvironmentsTearDownStart(const ::testing::UnitTest& unit) override;
  void OnEnvironmentsTearDownEnd(const ::testing::UnitTest& unit) override;
  void OnTestIterationEnd(const ::testing::UnitTest& unit, int iteration) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

 private:
  bool root() const noexcept { return rank_ == 0; }

  std::unique_ptr<::testing::TestEventListener> printer_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::string messages_;  ///< this rank's failure messages in the current test
  bool failed_here_ = false;
  int tests_run_ = 0;
  std::vector<std::string> failed_tests_;  ///< (rank 0) "Suite.Name (ranks 1, 2)"
};

}  // namespace rmtsweep::testing
