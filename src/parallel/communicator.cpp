#include "rmtsweep/parallel/communicator.hpp"

#include <utility>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::parallel {

Communicator Communicator::duplicate(MPI_Comm comm) {
  MPI_Comm copy = MPI_COMM_NULL;
  RMTSWEEP_MPI_CHECK(MPI_Comm_dup(comm, &copy));
  return own(copy);
}

Communicator Communicator::split(MPI_Comm comm, int color, int key) {
  MPI_Comm part = MPI_COMM_NULL;
  RMTSWEEP_MPI_CHECK(MPI_Comm_split(comm, color, key, &part));
  return own(part);
}

Communicator::Communicator(Communicator&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), owned_(std::exchange(other.owned_, false)) {}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    owned_ = std::exchange(other.owned_, false);
  }
  return *this;
}

Communicator::~Communicator() { release(); }

void Communicator::release() noexcept {
  if (owned_ && comm_ != MPI_COMM_NULL && comm_ != MPI_COMM_WORLD && comm_ != MPI_COMM_SELF) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }
  comm_ = MPI_COMM_NULL;
  owned_ = false;
}

int Communicator::rank() const {
  int rank = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(comm_, &rank));
  return rank;
}

int Communicator::size() const {
  int size = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm_, &size));
  return size;
}

}  // namespace rmtsweep::parallel
