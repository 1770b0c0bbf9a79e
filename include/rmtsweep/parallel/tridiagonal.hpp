#pragma once
/// A = Q T Q^T for a distributed symmetric matrix: the tridiagonal T replicated on every rank and Q kept
/// as Householder reflectors in A's storage, to be applied to vectors later (pdsytrd / pdormtr, or LAPACK's
/// dsytrd / dormtr on a 1 x 1 grid). What symmetric_eigen reduces with, and what a line of snr values
/// factors once (simulate/line.hpp).
#include <mpi.h>

#include <vector>

#include "rmtsweep/parallel/distributed_matrix.hpp"

namespace rmtsweep::parallel {

class Tridiagonal {
 public:
  /// Reduces the lower triangle of `a` (collective over its grid). `a` is overwritten with the
  /// reflectors and must outlive this object, unchanged.
  explicit Tridiagonal(DistributedMatrix& a);
  Tridiagonal(const Tridiagonal&) = delete;
  Tridiagonal& operator=(const Tridiagonal&) = delete;

  int size() const noexcept { return a_.rows(); }
  /// T's diagonal and subdiagonal (sub[n - 1] = 0), the same on every rank.
  const std::vector<double>& diagonal() const noexcept { return diag_; }
  const std::vector<double>& subdiagonal() const noexcept { return sub_; }

  /// C <- Q C (trans "N") or Q^T C (trans "T") for C with A's row distribution (collective).
  void apply(const char* trans, DistributedMatrix& c) const;
  /// Q x or Q^T x for the b columns of the replicated n x b column-major x; the result replicated
  /// (collective: one pdormtr and one Allreduce of n b doubles).
  std::vector<double> apply(const char* trans, const std::vector<double>& x, int b) const;

 private:
  DistributedMatrix& a_;
  mutable std::vector<double> tau_;  ///< pdormtr takes it non-const
  std::vector<double> diag_, sub_;
};

/// z <- (T + shift I)^{-1} z for the nrhs columns of the n x nrhs column-major z, T the tridiagonal
/// (diag, sub), by LAPACK's dptsv (L D L^T), the same on every rank. A pivot <= 0 means T + shift I is
/// not positive definite: dptsv's info > 0 becomes ScalapackError{"dptsv", info} on every rank of comm.
void solve_shifted_tridiagonal(const std::vector<double>& diag, const std::vector<double>& sub, double shift,
                               std::vector<double>& z, int nrhs, MPI_Comm comm);

/// All eigenvalues (ascending) and eigenvectors of the tridiagonal (diag, sub), by LAPACK's divide and
/// conquer dstedc (eigenvectors orthogonal to rounding, the work in dgemm): on this rank only (no MPI).
struct TridiagonalEigen {
  std::vector<double> values;   ///< ascending
  std::vector<double> vectors;  ///< n x n column-major, column j the unit eigenvector of values[j]
};
TridiagonalEigen tridiagonal_eigen(const std::vector<double>& diag, const std::vector<double>& sub);

}  // namespace rmtsweep::parallel
