// rmtsweep::testing::MpiListener (tests/mpi_listener.hpp).
#include "mpi_listener.hpp"

#include <cstdio>

namespace rmtsweep::testing {
namespace {

/// Every rank's string on rank 0 (empty elsewhere), in rank order.
std::vector<std::string> gather_strings(const std::string& mine, MPI_Comm comm, int rank, int size) {
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int r = 0; r < size && rank == 0; ++r) {
    offsets[static_cast<std::size_t>(r)] = total;
    total += lengths[static_cast<std::size_t>(r)];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  for (int r = 0; r < size && rank == 0; ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                             static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
  }
  return out;
}

std::string test_name(const ::testing::TestInfo& test) {
  return std::string(test.test_suite_name()) + "." + test.name();
}

}  // namespace

MpiListener::MpiListener(std::unique_ptr<::testing::TestEventListener> printer, MPI_Comm comm)
    : printer_(std::move(printer)), comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void MpiListener::OnTestProgramStart(const ::testing::UnitTest& unit) {
  if (root()) printer_->OnTestProgramStart(unit);
}
void MpiListener::OnTestIterationStart(const ::testing::UnitTest& unit, int iteration) {
  tests_run_ = 0;
  failed_tests_.clear();
  if (root()) printer_->OnTestIterationStart(unit, iteration);
}
void MpiListener::OnEnvironmentsSetUpStart(const ::testing::UnitTest& unit) {
  if (root()) printer_->OnEnvironmentsSetUpStart(unit);
}
void MpiListener::OnEnvironmentsSetUpEnd(const ::testing::UnitTest& unit) {
  if (root()) printer_->OnEnvironmentsSetUpEnd(unit);
}
void MpiListener::OnTestSuiteStart(const ::testing::TestSuite& suite) {
  if (root()) printer_->OnTestSuiteStart(suite);
}
void MpiListener::OnTestStart(const ::testing::TestInfo& test) {
  messages_.clear();
  failed_here_ = false;
  if (root()) printer_->OnTestStart(test);
}

void MpiListener::OnTestPartResult(const ::testing::TestPartResult& result) {
  if (!result.failed()) return;
  failed_here_ = true;
  messages_ += std::string(result.file_name() ? result.file_name() : "?") + ":" +
               std::to_string(result.line_number()) + ": Failure\n" + result.message() + "\n";
}

void MpiListener::OnTestEnd(const ::testing::TestInfo& test) {
  ++tests_run_;
  const int mine = failed_here_ ? 1 : 0;
  std::vector<int> failed(static_cast<std::size_t>(size_));
  MPI_Gather(&mine, 1, MPI_INT, failed.data(), 1, MPI_INT, 0, comm_);
  const std::vector<std::string> messages = gather_strings(messages_, comm_, rank_, size_);
  if (!root()) return;
  std::string ranks;
  for (int r = 0; r < size_; ++r) {
    if (!failed[static_cast<std::size_t>(r)]) continue;
    std::fprintf(stdout, "[rank %d] %s", r, messages[static_cast<std::size_t>(r)].c_str());
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
  }
  const auto ms = static_cast<long long>(test.result()->elapsed_time());
  if (ranks.empty()) {
    std::fprintf(stdout, "[       OK ] %s (%lld ms)\n", test_name(test).c_str(), ms);
  } else {
    const std::string label =
        test_name(test) + (ranks.find(',') == std::string::npos ? " (rank " : " (ranks ") + ranks + ")";
    std::fprintf(stdout, "[  FAILED  ] %s (%lld ms)\n", label.c_str(), ms);
    failed_tests_.push_back(label);
  }
  std::fflush(stdout);
}

void MpiListener::OnTestSuiteEnd(const ::testing::TestSuite& suite) {
  if (root()) printer_->OnTestSuiteEnd(suite);
}
void MpiListener::OnEnvironmentsTearDownStart(const ::testing::UnitTest& unit) {
  if (root()) printer_->OnEnvironmentsTearDownStart(unit);
}
void MpiListener::OnEnvironmentsTearDownEnd(const ::testing::UnitTest& unit) {
  if (root()) printer_->OnEnvironmentsTearDownEnd(unit);
}

void MpiListener::OnTestIterationEnd(const ::testing::UnitTest& unit, int) {
  if (!root()) return;
  std::fprintf(stdout, "[==========] %d test(s) ran on %d rank(s). (%lld ms total)\n", tests_run_, size_,
               static_cast<long long>(unit.elapsed_time()));
  std::fprintf(stdout, "[  PASSED  ] %d test(s).\n", tests_run_ - static_cast<int>(failed_tests_.size()));
  if (!failed_tests_.empty()) {
    std::fprintf(stdout, "[  FAILED  ] %zu test(s), listed below:\n", failed_tests_.size());
    for (const auto& name : failed_tests_) std::fprintf(stdout, "[  FAILED  ] %s\n", name.c_str());
  }
  std::fflush(stdout);
}

void MpiListener::OnTestProgramEnd(const ::testing::UnitTest& unit) {
  if (root()) printer_->OnTestProgramEnd(unit);
}

}  // namespace rmtsweep::testing
