#pragma once
// Declarations of the BLACS, ScaLAPACK, PBLAS and LAPACK routines rmtsweep calls (Debian's
// libscalapack-openmpi has BLACS inside; OpenBLAS has LAPACK). Fortran routines take their
// character arguments' hidden lengths last (gfortran's convention, std::size_t); PBLAS is C
// and ignores them. Private to src/parallel: everyone else calls the checked wrappers.
#include <mpi.h>

#include <cstddef>

extern "C" {

int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int* context, const char* order, int rows, int cols);
void Cblacs_gridinfo(int context, int* rows, int* cols, int* my_row, int* my_col);
void Cblacs_gridexit(int context);

int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* context, const int* lld, int* info);

void pdsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* beta, double* c,
             const int* ic, const int* jc, const int* descc, std::size_t, std::size_t);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
             const double* b, const int* ib, const int* jb, const int* descb, const double* beta, double* c,
             const int* ic, const int* jc, const int* descc, std::size_t, std::size_t);
void pdposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* ia, const int* ja,
             const int* desca, double* b, const int* ib, const int* jb, const int* descb, int* info,
             std::size_t);
void pdtran_(const int* m, const int* n, const double* alpha, const double* a, const int* ia, const int* ja,
             const int* desca, const double* beta, double* c, const int* ic, const int* jc, const int* descc);
void pdsytrd_(const char* uplo, const int* n, double* a, const int* ia, const int* ja, const int* desca,
              double* d, double* e, double* tau, double* work, const int* lwork, int* info, std::size_t);
void pdormtr_(const char* side, const char* uplo, const char* trans, const int* m, const int* n, double* a,
              const int* ia, const int* ja, const int* desca, double* tau, double* c, const int* ic,
              const int* jc, const int* descc, double* work, const int* lwork, int* info, std::size_t,
              std::size_t, std::size_t);

void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc, std::size_t,
            std::size_t);
void dposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b,
            const int* ldb, int* info, std::size_t);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, std::size_t, std::size_t);
void dsytrd_(const char* uplo, const int* n, double* a, const int* lda, double* d, double* e, double* tau,
             double* work, const int* lwork, int* info, std::size_t);
void dormtr_(const char* side, const char* uplo, const char* trans, const int* m, const int* n,
             const double* a, const int* lda, const double* tau, double* c, const int* ldc, double* work,
             const int* lwork, int* info, std::size_t, std::size_t, std::size_t);
void dsterf_(const int* n, double* d, double* e, int* info);
void dstedc_(const char* compz, const int* n, double* d, double* e, double* z, const int* ldz, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, std::size_t);
void dptsv_(const int* n, const int* nrhs, double* d, double* e, double* b, const int* ldb, int* info);
void dstevr_(const char* jobz, const char* range, const int* n, double* d, double* e, const double* vl,
             const double* vu, const int* il, const int* iu, const double* abstol, int* m, double* w,
             double* z, const int* ldz, int* isuppz, double* work, const int* lwork, int* iwork,
             const int* liwork, int* info, std::size_t, std::size_t);

int openblas_get_num_threads(void);
void openblas_set_num_threads(int threads);
char* openblas_get_corename(void);
/// OpenBLAS (pthreads build): ends its worker threads; the next threaded call starts them again.
/// Weak, so that a BLAS without it links and release_blas_threads() does nothing.
__attribute__((weak)) int blas_thread_shutdown_(void);
}

namespace rmtsweep::parallel {
/// Workspace size from a LWORK = -1 query result (WORK(1) holds it as a double).
inline int workspace_size(double query) { return query >= 0 ? static_cast<int>(query) + 1 : 1; }
}  // namespace rmtsweep::parallel
