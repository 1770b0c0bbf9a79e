// The RMA task counter (include/rmtsweep/parallel/work_counter.hpp).
#include "rmtsweep/parallel/work_counter.hpp"

#include <exception>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::parallel {

WorkCounter::WorkCounter(MPI_Comm comm) {
  int rank = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  const MPI_Aint bytes = rank == 0 ? slots * static_cast<MPI_Aint>(sizeof(std::int64_t)) : 0;
  void* base = nullptr;
  RMTSWEEP_MPI_CHECK(MPI_Win_allocate(bytes, sizeof(std::int64_t), MPI_INFO_NULL, comm, &base, &window_));
  RMTSWEEP_MPI_CHECK(MPI_Win_lock_all(0, window_));
  if (rank == 0) {
    const std::int64_t zeros[slots] = {0, 0, 0};
    RMTSWEEP_MPI_CHECK(MPI_Put(zeros, slots, MPI_INT64_T, 0, 0, slots, MPI_INT64_T, window_));
    RMTSWEEP_MPI_CHECK(MPI_Win_flush(0, window_));
  }
  RMTSWEEP_MPI_CHECK(MPI_Barrier(comm));
}

WorkCounter::~WorkCounter() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (window_ == MPI_WIN_NULL || finalized || std::uncaught_exceptions() > 0) return;
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
}

std::int64_t WorkCounter::fetch(int slot, std::int64_t operand, MPI_Op op) {
  std::int64_t result = 0;
  RMTSWEEP_MPI_CHECK(MPI_Fetch_and_op(&operand, &result, MPI_INT64_T, 0, slot, op, window_));
  RMTSWEEP_MPI_CHECK(MPI_Win_flush(0, window_));
  return result;
}

std::int64_t WorkCounter::next() { return fetch(0, 1, MPI_SUM); }

void WorkCounter::close(std::int64_t total) {
  (void)fetch(0, total, MPI_REPLACE);
  (void)fetch(2, 1, MPI_REPLACE);
}

bool WorkCounter::closed() { return fetch(2, 0, MPI_NO_OP) != 0; }

void WorkCounter::add_done(std::int64_t points) { (void)fetch(1, points, MPI_SUM); }

std::int64_t WorkCounter::done() { return fetch(1, 0, MPI_NO_OP); }

}  // namespace rmtsweep::parallel
