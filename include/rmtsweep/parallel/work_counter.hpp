#pragma once
/// Dynamic hand-out of task numbers 0, 1, 2, ... to group leaders: an MPI-3 RMA counter on
/// rank 0 of a communicator (MPI_Win_allocate, MPI_Fetch_and_op inside one passive
/// MPI_Win_lock_all epoch), so no group waits for another and rank 0 computes too.
#include <mpi.h>

#include <cstdint>

namespace rmtsweep::parallel {

class WorkCounter {
 public:
  /// Collective on `comm`: allocates the window (three int64 slots on rank 0: next task, points
  /// done, closed flag), zeroes it and opens the access epoch on every rank.
  explicit WorkCounter(MPI_Comm comm);
  WorkCounter(const WorkCounter&) = delete;
  WorkCounter& operator=(const WorkCounter&) = delete;
  /// Collective: closes the epoch and frees the window. While an exception unwinds the
  /// window is left alone (main calls MPI_Abort), so a throw never hangs in MPI_Win_free.
  ~WorkCounter();

  /// Atomically takes the next task number (fetch-and-add 1 on rank 0's slot).
  std::int64_t next();
  /// No task numbers below `total` are handed out any more: later next() calls return >= total,
  /// and closed() is true (a stop, as opposed to tasks running out).
  void close(std::int64_t total);
  /// Whether some leader has called close(): a group in the middle of a task stops there too.
  bool closed();
  /// Counts `points` finished points.
  void add_done(std::int64_t points = 1);
  /// Points counted as finished so far (atomic read).
  std::int64_t done();

 private:
  static constexpr int slots = 3;
  std::int64_t fetch(int slot, std::int64_t operand, MPI_Op op);
  MPI_Win window_ = MPI_WIN_NULL;
};

}  // namespace rmtsweep::parallel
