#pragma once
/// The symmetric eigenproblem of a distributed matrix: all eigenvalues, top-k eigenvectors.
#include <vector>

#include "rmtsweep/parallel/distributed_matrix.hpp"

namespace rmtsweep::parallel {

struct EigenResult {
  std::vector<double> values;  ///< all n eigenvalues, ascending (the same on every rank)
  DistributedMatrix vectors;   ///< n x k; column j is the unit eigenvector of the (j+1)-th largest
};

/// Eigenvalues of the symmetric matrix A (its lower triangle) and the eigenvectors of the k
/// largest (collective over A's grid). A is destroyed. One tridiagonal reduction (pdsytrd);
/// the tridiagonal matrix is replicated (O(n) data) and solved on every rank (dsterf for all
/// values, dstevr for the top k vectors); pdormtr maps the k vectors back. This costs one
/// 4n^3/3 reduction plus O(n^2 k), instead of two reductions for values and vectors.
EigenResult symmetric_eigen(DistributedMatrix& a, int k);

}  // namespace rmtsweep::parallel
