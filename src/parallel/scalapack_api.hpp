#pragma once
// Declarations of the BLACS, ScaLAPACK and PBLAS routines rmtsweep calls (Debian's
// libscalapack-openmpi has BLACS inside), beside the BLAS and LAPACK ones of common/lapack.hpp.
// Fortran routines take their character arguments' hidden lengths last (gfortran's convention,
// std::size_t); PBLAS is C and ignores them. Private to src/parallel (and the benchmarks):
// everyone else calls the checked wrappers.
#include <mpi.h>

#include <cstddef>

#include "rmtsweep/common/lapack.hpp"

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
}

namespace rmtsweep::parallel {
/// Workspace size from a LWORK = -1 query result (WORK(1) holds it as a double).
inline int workspace_size(double query) { return query >= 0 ? static_cast<int>(query) + 1 : 1; }
}  // namespace rmtsweep::parallel
