// The untyped calls behind include/rmtsweep/parallel/collectives.hpp.
#include "rmtsweep/parallel/collectives.hpp"

#include <limits>
#include <stdexcept>

#include "rmtsweep/parallel/communicator.hpp"

namespace rmtsweep::parallel {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 0;
  RMTSWEEP_MPI_CHECK(MPI_Comm_size(comm, &size));
  return size;
}

int ranks_on_this_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  RMTSWEEP_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  return Communicator::own(node).size();
}

std::string broadcast(std::string text, MPI_Comm comm, int root) {
  const auto length = broadcast(static_cast<long long>(text.size()), comm, root);
  text.resize(static_cast<std::size_t>(length));
  broadcast(std::span<char>(text.data(), text.size()), comm, root);
  return text;
}

namespace detail {

int checked_count(std::size_t count) {
  if (count > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("collective of " + std::to_string(count) + " elements: MPI counts are int");
  return static_cast<int>(count);
}

void broadcast_bytes(void* data, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  RMTSWEEP_MPI_CHECK(MPI_Bcast(data, count, type, root, comm));
}

void all_reduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  RMTSWEEP_MPI_CHECK(MPI_Allreduce(in, out, count, type, op, comm));
}

void reduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  RMTSWEEP_MPI_CHECK(MPI_Reduce(in, out, count, type, op, root, comm));
}

void all_gather_varying(const void* mine, int count, void* all, const int* counts, const int* offsets,
                        MPI_Datatype type, MPI_Comm comm) {
  RMTSWEEP_MPI_CHECK(MPI_Allgatherv(mine, count, type, all, counts, offsets, type, comm));
}

std::vector<int> gather_counts(int count, int root, MPI_Comm comm) {
  std::vector<int> counts(rank_of(comm) == root ? static_cast<std::size_t>(size_of(comm)) : 0);
  RMTSWEEP_MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm));
  return counts;
}

void gather_varying(const void* mine, int count, void* all, const int* counts, const int* offsets,
                    MPI_Datatype type, int root, MPI_Comm comm) {
  RMTSWEEP_MPI_CHECK(MPI_Gatherv(mine, count, type, all, counts, offsets, type, root, comm));
}

}  // namespace detail
}  // namespace rmtsweep::parallel
