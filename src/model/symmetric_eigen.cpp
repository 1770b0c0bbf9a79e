#include "rmtsweep/model/symmetric_eigen.hpp"

#include <cstddef>

#include "rmtsweep/common/error.hpp"

extern "C" void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                       double* work, const int* lwork, int* info, std::size_t jobz_len, std::size_t uplo_len);

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

}  // namespace rmtsweep::model
