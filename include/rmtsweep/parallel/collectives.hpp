#pragma once
/// Typed collectives (Arbor's communication/mpi.hpp): the only place outside src/parallel where
/// rmtsweep broadcasts or reduces. Each call is collective over `comm` and throws MpiError when MPI
/// fails. Values are trivially copyable types with an MPI datatype (mpi_type below), strings, or
/// contiguous ranges of them.
///
/// Two ways to sum a range across ranks, chosen by what the caller needs:
/// - all_sum: MPI_Allreduce. Every rank gets the sum, but an MPI library may add in a different
///   order on different ranks, so the copies can differ in the last bit.
/// - sum_on_root_then_broadcast: MPI_Reduce to rank 0, then MPI_Bcast. Every rank holds the same
///   bits: use it where ranks make decisions (or run an iteration) on the sum and must stay in step.
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::parallel {

/// The MPI datatype of T (a compile error for types without one).
template <class T>
MPI_Datatype mpi_type() noexcept {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<U, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<U, long>)
    return MPI_LONG;
  else if constexpr (std::is_same_v<U, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<U, unsigned long>)
    return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return MPI_UNSIGNED_LONG_LONG;
  else if constexpr (std::is_same_v<U, char>)
    return MPI_CHAR;
  else if constexpr (std::is_same_v<U, signed char>)
    return MPI_SIGNED_CHAR;
  else if constexpr (std::is_same_v<U, unsigned char>)
    return MPI_UNSIGNED_CHAR;
  else
    static_assert(!sizeof(U), "no MPI datatype for this type");
}

/// The rank of this process in `comm`.
int rank_of(MPI_Comm comm);
/// The number of processes of `comm`.
int size_of(MPI_Comm comm);
/// How many processes of `comm` share this one's node (MPI_COMM_TYPE_SHARED; collective).
int ranks_on_this_node(MPI_Comm comm);

namespace detail {
void broadcast_bytes(void* data, int count, MPI_Datatype type, int root, MPI_Comm comm);
void all_reduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void reduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
void all_gather_varying(const void* mine, int count, void* all, const int* counts, const int* offsets,
                        MPI_Datatype type, MPI_Comm comm);
/// Every rank's count on `root` (empty elsewhere).
std::vector<int> gather_counts(int count, int root, MPI_Comm comm);
void gather_varying(const void* mine, int count, void* all, const int* counts, const int* offsets,
                    MPI_Datatype type, int root, MPI_Comm comm);
/// count as an int, or std::length_error for ranges MPI cannot count.
int checked_count(std::size_t count);
}  // namespace detail

/// Rank `root`'s elements of `values` on every rank (in place; every rank passes the same size).
template <class T>
void broadcast(std::span<T> values, MPI_Comm comm, int root = 0) {
  if (!values.empty())
    detail::broadcast_bytes(values.data(), detail::checked_count(values.size()), mpi_type<T>(), root, comm);
}

/// Rank `root`'s value on every rank.
template <class T>
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) T
    broadcast(T value, MPI_Comm comm, int root = 0) {
  broadcast(std::span<T>(&value, 1), comm, root);
  return value;
}

/// An enum's value from `root` (as its underlying integer).
template <class E>
requires std::is_enum_v<E> E broadcast(E value, MPI_Comm comm, int root = 0) {
  return static_cast<E>(broadcast(static_cast<long long>(value), comm, root));
}

/// Rank `root`'s flag on every rank.
inline bool broadcast(bool value, MPI_Comm comm, int root = 0) {
  return broadcast(value ? 1 : 0, comm, root) != 0;
}

/// Rank `root`'s string on every rank (its length first, then its bytes).
std::string broadcast(std::string text, MPI_Comm comm, int root = 0);

/// Rank `root`'s vector on every rank, whatever size the others passed.
template <class T>
std::vector<T> broadcast(std::vector<T> values, MPI_Comm comm, int root = 0) {
  const auto size = broadcast(static_cast<long long>(values.size()), comm, root);
  values.resize(static_cast<std::size_t>(size));
  broadcast(std::span<T>(values), comm, root);
  return values;
}

/// What `decide()` returns on rank `root`, on every rank: the others never call it. For choices
/// that must send every rank down the same branch (a file exists, a lock is held).
template <class Decide>
auto decided_on_root(MPI_Comm comm, Decide&& decide, int root = 0) {
  using T = std::decay_t<decltype(decide())>;
  T value{};
  if (rank_of(comm) == root) value = decide();
  return broadcast(std::move(value), comm, root);
}

/// Elementwise sum over the ranks, in place (MPI_Allreduce; see the note above on bits).
template <class T>
void all_sum(std::span<T> values, MPI_Comm comm) {
  if (!values.empty())
    detail::all_reduce(MPI_IN_PLACE, values.data(), detail::checked_count(values.size()), mpi_type<T>(),
                       MPI_SUM, comm);
}

/// Elementwise maximum over the ranks, in place.
template <class T>
void all_max(std::span<T> values, MPI_Comm comm) {
  if (!values.empty())
    detail::all_reduce(MPI_IN_PLACE, values.data(), detail::checked_count(values.size()), mpi_type<T>(),
                       MPI_MAX, comm);
}

/// The sum of one value over the ranks.
template <class T>
requires std::is_arithmetic_v<T> T all_sum(T value, MPI_Comm comm) {
  all_sum(std::span<T>(&value, 1), comm);
  return value;
}

/// The maximum of one value over the ranks.
template <class T>
requires std::is_arithmetic_v<T> T all_max(T value, MPI_Comm comm) {
  all_max(std::span<T>(&value, 1), comm);
  return value;
}

/// Elementwise sum over the ranks, added on rank 0 and broadcast, in place: every rank holds
/// bit-identical sums.
template <class T>
void sum_on_root_then_broadcast(std::span<T> values, MPI_Comm comm) {
  if (values.empty()) return;
  const int count = detail::checked_count(values.size());
  if (rank_of(comm) == 0) {
    detail::reduce(MPI_IN_PLACE, values.data(), count, mpi_type<T>(), MPI_SUM, 0, comm);
  } else {
    detail::reduce(values.data(), nullptr, count, mpi_type<T>(), MPI_SUM, 0, comm);
  }
  broadcast(values, comm, 0);
}

/// Every rank's `mine` concatenated on every rank (MPI_Allgatherv): rank r's part of size counts[r]
/// at offsets[r] of `all` (copies: every rank holds the same bits).
template <class T>
void all_gather(std::span<const T> mine, std::span<T> all, const std::vector<int>& counts,
                const std::vector<int>& offsets, MPI_Comm comm) {
  detail::all_gather_varying(mine.data(), detail::checked_count(mine.size()), all.data(), counts.data(),
                             offsets.data(), mpi_type<T>(), comm);
}

/// Every rank's `mine` concatenated in rank order on rank `root` (MPI_Gatherv after a gather of the
/// counts; each rank may pass another size); empty on the other ranks.
template <class T>
std::vector<T> gather(std::span<const T> mine, MPI_Comm comm, int root = 0) {
  const int count = detail::checked_count(mine.size());
  const std::vector<int> counts = detail::gather_counts(count, root, comm);
  std::vector<int> offsets(counts.size(), 0);
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = detail::checked_count(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<T> all(total);
  detail::gather_varying(mine.data(), count, all.data(), counts.data(), offsets.data(), mpi_type<T>(), root,
                         comm);
  return all;
}

/// Runs `work` on every rank of `comm` and agrees on its outcome: when it threw on any rank, every rank
/// throws AgreedFailure, carrying the exception where it was thrown (main prints it there and ends every
/// rank with exit status 1, without MPI_Abort). For work with no collective call inside, whose failure on
/// some ranks would otherwise leave the others waiting in the next collective (a rank 0-only rename, a
/// leader's independent write). Collective.
template <class Work>
void agreed(MPI_Comm comm, Work&& work) {
  std::exception_ptr error;
  try {
    work();
  } catch (...) {
    error = std::current_exception();
  }
  int failed = error ? 1 : 0;
  all_max(std::span<int>(&failed, 1), comm);
  if (failed) throw AgreedFailure(error);
}

}  // namespace rmtsweep::parallel
