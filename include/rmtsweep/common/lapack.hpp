#pragma once
/// Declarations of the BLAS, LAPACK and OpenBLAS routines rmtsweep calls (OpenBLAS has LAPACK), in one place
/// for the library and the benchmarks. Fortran routines take every argument by pointer and, last, one hidden
/// length per character argument (gfortran's convention, std::size_t). The distributed routines (BLACS,
/// ScaLAPACK, PBLAS) are src/parallel/scalapack_api.hpp's.
#include <cstddef>

extern "C" {

// BLAS
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y, const int* incy,
            std::size_t);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, std::size_t, std::size_t);
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc, std::size_t,
            std::size_t);

// LAPACK: linear systems and QR
void dposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b,
            const int* ldb, int* info, std::size_t);
void dptsv_(const int* n, const int* nrhs, double* d, double* e, double* b, const int* ldb, int* info);
void dgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, double* ab, const int* ldab,
            int* ipiv, double* b, const int* ldb, int* info);
void dpbsv_(const char* uplo, const int* n, const int* kd, const int* nrhs, double* ab, const int* ldab,
            double* b, const int* ldb, int* info, std::size_t);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);

// LAPACK: symmetric eigenproblems
void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
            double* work, const int* lwork, int* info, std::size_t, std::size_t);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info, std::size_t,
             std::size_t);
void dsyevd_2stage_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                    double* work, const int* lwork, int* iwork, const int* liwork, int* info, std::size_t,
                    std::size_t);
void dsyevr_(const char* jobz, const char* range, const char* uplo, const int* n, double* a, const int* lda,
             const double* vl, const double* vu, const int* il, const int* iu, const double* abstol, int* m,
             double* w, double* z, const int* ldz, int* isuppz, double* work, const int* lwork, int* iwork,
             const int* liwork, int* info, std::size_t, std::size_t, std::size_t);
void dsbevx_(const char* jobz, const char* range, const char* uplo, const int* n, const int* kd, double* ab,
             const int* ldab, double* q, const int* ldq, const double* vl, const double* vu, const int* il,
             const int* iu, const double* abstol, int* m, double* w, double* z, const int* ldz, double* work,
             int* iwork, int* ifail, int* info, std::size_t, std::size_t, std::size_t);
void dsytrd_(const char* uplo, const int* n, double* a, const int* lda, double* d, double* e, double* tau,
             double* work, const int* lwork, int* info, std::size_t);
void dormtr_(const char* side, const char* uplo, const char* trans, const int* m, const int* n,
             const double* a, const int* lda, const double* tau, double* c, const int* ldc, double* work,
             const int* lwork, int* info, std::size_t, std::size_t, std::size_t);
void dsterf_(const int* n, double* d, double* e, int* info);
void dstedc_(const char* compz, const int* n, double* d, double* e, double* z, const int* ldz, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, std::size_t);
void dstevr_(const char* jobz, const char* range, const int* n, double* d, double* e, const double* vl,
             const double* vu, const int* il, const int* iu, const double* abstol, int* m, double* w,
             double* z, const int* ldz, int* isuppz, double* work, const int* lwork, int* iwork,
             const int* liwork, int* info, std::size_t, std::size_t);
void dstemr_(const char* jobz, const char* range, const int* n, double* d, double* e, const double* vl,
             const double* vu, const int* il, const int* iu, int* m, double* w, double* z, const int* ldz,
             const int* nzc, int* isuppz, int* tryrac, double* work, const int* lwork, int* iwork,
             const int* liwork, int* info, std::size_t, std::size_t);
// The secular equation of a rank-one update (the line's eigenpairs, spectral/rank_one.hpp).
void dlaed4_(const int* n, const int* i, const double* d, const double* z, double* delta, const double* rho,
             double* dlam, int* info);

// OpenBLAS
int openblas_get_num_threads(void);
void openblas_set_num_threads(int threads);
char* openblas_get_corename(void);
char* openblas_get_config(void);
/// OpenBLAS (pthreads build): ends its worker threads; the next threaded call starts them again.
/// Weak, so that a BLAS without it links and parallel::release_blas_threads() does nothing.
__attribute__((weak)) int blas_thread_shutdown_(void);
}
