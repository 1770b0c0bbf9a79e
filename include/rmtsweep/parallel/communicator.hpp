#pragma once
/// An MPI communicator handle that either borrows (never frees) or owns (frees once) the
/// communicator, as DLA-Future's comm::Communicator. Converts to MPI_Comm.
#include <mpi.h>

namespace rmtsweep::parallel {

class Communicator {
 public:
  /// Borrows `comm`: the caller keeps ownership (e.g. MPI_COMM_WORLD).
  static Communicator borrow(MPI_Comm comm) noexcept { return Communicator(comm, false); }
  /// Takes ownership of `comm`: it is freed by the destructor (unless MPI is finalized).
  static Communicator own(MPI_Comm comm) noexcept { return Communicator(comm, true); }
  /// An owned duplicate of `comm` (MPI_Comm_dup), for a private message space.
  static Communicator duplicate(MPI_Comm comm);
  /// MPI_Comm_split of `comm`; a rank with color MPI_UNDEFINED gets a null communicator.
  static Communicator split(MPI_Comm comm, int color, int key);

  Communicator() noexcept = default;
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  ~Communicator();

  operator MPI_Comm() const noexcept { return comm_; }
  MPI_Comm get() const noexcept { return comm_; }
  bool is_null() const noexcept { return comm_ == MPI_COMM_NULL; }
  int rank() const;
  int size() const;

 private:
  Communicator(MPI_Comm comm, bool owned) noexcept : comm_(comm), owned_(owned) {}
  void release() noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;
};

}  // namespace rmtsweep::parallel
