#include "rmtsweep/model/symmetric_eigen.hpp"

#include <cstddef>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/lapack.hpp"

namespace rmtsweep::model {

SymmetricEigen symmetric_eigen(std::vector<double> a, int n) {
  SymmetricEigen result;
  result.values.assign(static_cast<std::size_t>(n), 0.0);
  const int lda = n > 1 ? n : 1;
  int info = 0;
  int lwork = -1;
  double optimal_work = 0.0;
  dsyev_("V", "U", &n, a.data(), &lda, result.values.data(), &optimal_work, &lwork, &info, 1, 1);
  if (info != 0) throw ScalapackError("dsyev", info);
  lwork = static_cast<int>(optimal_work);
  std::vector<double> work(static_cast<std::size_t>(lwork > 1 ? lwork : 1));
  dsyev_("V", "U", &n, a.data(), &lda, result.values.data(), work.data(), &lwork, &info, 1, 1);
  if (info != 0) throw ScalapackError("dsyev", info);
  result.vectors = std::move(a);
  return result;
}

namespace {

/// dsyevd and dsyevd_2stage take the same arguments.
using DivideAndConquer = void (*)(const char*, const char*, const int*, double*, const int*, double*, double*,
                                  const int*, int*, const int*, int*, std::size_t, std::size_t);

/// `routine` (named `name` in errors) on a: the values, and the vectors in place of a where jobz is "V";
/// a workspace query, then the call.
std::vector<double> divide_and_conquer(DivideAndConquer routine, const char* name, const char* jobz,
                                       std::vector<double>& a, int n) {
  std::vector<double> values(static_cast<std::size_t>(n), 0.0);
  if (n == 0) return values;
  const int lda = n > 1 ? n : 1;
  int info = 0, lwork = -1, liwork = -1, optimal_iwork = 0;
  double optimal_work = 0.0;
  routine(jobz, "U", &n, a.data(), &lda, values.data(), &optimal_work, &lwork, &optimal_iwork, &liwork, &info,
          1, 1);
  if (info != 0) throw ScalapackError(name, info);
  lwork = static_cast<int>(optimal_work);
  liwork = optimal_iwork;
  std::vector<double> work(static_cast<std::size_t>(lwork > 1 ? lwork : 1));
  std::vector<int> iwork(static_cast<std::size_t>(liwork > 1 ? liwork : 1));
  routine(jobz, "U", &n, a.data(), &lda, values.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1,
          1);
  if (info != 0) throw ScalapackError(name, info);
  return values;
}

}  // namespace

std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n) {
  return n < two_stage_from ? divide_and_conquer(dsyevd_, "dsyevd", "N", a, n)
                            : divide_and_conquer(dsyevd_2stage_, "dsyevd_2stage", "N", a, n);
}

SymmetricEigen symmetric_eigen_dc(std::vector<double> a, int n) {
  SymmetricEigen result;
  result.values = divide_and_conquer(dsyevd_, "dsyevd", "V", a, n);
  result.vectors = std::move(a);
  return result;
}

}  // namespace rmtsweep::model
