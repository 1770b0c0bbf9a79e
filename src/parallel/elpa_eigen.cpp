// symmetric_eigen through ELPA for matrices spread over several processes (elpa_eigen.hpp).
//
// Why: ScaLAPACK's pdsytrd reduces A to tridiagonal form with half of its flops in distributed
// matrix-vector products, one collective per column. ELPA's two-stage reduction (full -> band
// by BLAS 3, band -> tridiagonal by bulge chasing) does not. Measured on 2 ranks x 1 thread
// here (a covariance matrix, all eigenvalues and 4 vectors): 0.51-0.54 s at n = 2000 and
// 2.5-2.7 s at n = 4000, against 0.71 s and 4.2 s for the ScaLAPACK path's whole eigen stage.
#include "elpa_eigen.hpp"

#include <elpa/elpa.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/parallel/scalapack.hpp"
#include "scalapack_api.hpp"

// elpa.h declares elpa_strerr without C linkage; the library exports it as a C symbol.
extern "C" const char* rmtsweep_elpa_strerr(int error) __asm__("elpa_strerr");

namespace rmtsweep::parallel::detail {
namespace {

/// ELPA's library state: elpa_init once per process, elpa_uninit at exit.
class ElpaLibrary {
 public:
  ElpaLibrary() {
    if (elpa_init(ELPA_API_VERSION) != ELPA_OK)
      throw std::runtime_error("ELPA: this libelpa does not provide API version " +
                               std::to_string(ELPA_API_VERSION));
  }
  ~ElpaLibrary() {
    int error = 0;
    elpa_uninit(&error);
  }
  ElpaLibrary(const ElpaLibrary&) = delete;
  ElpaLibrary& operator=(const ElpaLibrary&) = delete;
};

/// One ELPA problem description (elpa_allocate ... elpa_deallocate).
class ElpaHandle {
 public:
  explicit ElpaHandle(MPI_Comm comm) : comm_(comm) {
    static const ElpaLibrary library;
    int error = ELPA_OK;
    handle_ = elpa_allocate(&error);
    try {
      check("elpa_allocate", error);
    } catch (...) {  // another rank failed: release this one's handle, as no destructor will
      if (handle_ != nullptr) elpa_deallocate(handle_, &error);
      throw;
    }
  }
  ~ElpaHandle() {
    int error = 0;
    elpa_deallocate(handle_, &error);
  }
  ElpaHandle(const ElpaHandle&) = delete;
  ElpaHandle& operator=(const ElpaHandle&) = delete;

  void set(const char* name, int value) {
    int error = ELPA_OK;
    elpa_set(handle_, name, value, &error);
    check((std::string("elpa_set ") + name).c_str(), error);
  }
  void setup() { check("elpa_setup", elpa_setup(handle_)); }
  elpa_t get() const noexcept { return handle_; }

  /// Throws ScalapackError{"<routine> (<ELPA's message>)", code} on every rank when any rank's
  /// ELPA call failed (code: the most negative of the ranks' ELPA error codes, all < 0).
  void check(const char* routine, int error) const {
    int worst = error;
    RMTSWEEP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MIN, comm_));
    if (worst != ELPA_OK) {
      const char* message = rmtsweep_elpa_strerr(worst);
      throw ScalapackError(std::string(routine) + " (ELPA: " + (message ? message : "unknown error") + ")",
                           worst);
    }
  }

 private:
  MPI_Comm comm_;
  elpa_t handle_ = nullptr;
};

/// Fills the strictly upper triangle of A from its lower triangle and negates all of A, using
/// `scratch` (A's shape and layout) for the transpose.
void negated_full_matrix(DistributedMatrix& a, DistributedMatrix& scratch) {
  const int n = a.rows(), one = 1;
  const double unit = 1.0, none = 0.0;
  pdtran_(&n, &n, &unit, a.data(), &one, &one, a.desc(), &none, scratch.data(), &one, &one, scratch.desc());
  for (int lc = 0; lc < a.local_cols(); ++lc) {
    const int j = a.col_map().to_global(lc);
    double* column = a.local_column(lc);
    const double* transposed = scratch.local_column(lc);
    for (int lr = 0; lr < a.local_rows(); ++lr) {
      const int i = a.row_map().to_global(lr);
      column[lr] = -(i < j ? transposed[lr] : column[lr]);
    }
  }
}

/// x of (A + shift I) x = rhs by pdposv on a copy of A's lower triangle held in `scratch`.
std::vector<double> cholesky_solution(const DistributedMatrix& a, const ShiftedSystem& system,
                                      DistributedMatrix& scratch) {
  const int n = a.rows();
  std::copy_n(a.data(), static_cast<std::size_t>(a.lld()) * static_cast<std::size_t>(a.local_cols()),
              scratch.data());
  for (int lc = 0; lc < scratch.local_cols(); ++lc) {
    const int j = scratch.col_map().to_global(lc);
    if (scratch.row_map().owner(j) == scratch.row_map().me)
      scratch.local(scratch.row_map().to_local(j), lc) += system.shift;
  }
  DistributedMatrix b(a.grid_ptr(), n, 1, a.row_map().block, a.col_map().block);
  b.set_column(0, system.rhs);
  cholesky_solve(scratch, b);
  return b.gather_leading(n, 1);
}

}  // namespace

EigenResult elpa_eigen(DistributedMatrix& a, int k, const ShiftedSystem* system) {
  const int n = a.rows(), block = a.row_map().block;
  const MPI_Comm comm = a.grid().comm();
  EigenResult result{{}, DistributedMatrix(a.grid_ptr(), n, k, block, block), {}, true};
  // One more n x n matrix: the Cholesky factor, then A's transpose, then ELPA's eigenvectors.
  DistributedMatrix scratch(a.grid_ptr(), n, n, block, block);
  if (system != nullptr) result.solution = cholesky_solution(a, *system, scratch);
  negated_full_matrix(a, scratch);

  ElpaHandle elpa(comm);
  elpa.set("na", n);
  elpa.set("nev", std::max(k, 1));
  elpa.set("local_nrows", a.local_rows());
  elpa.set("local_ncols", a.local_cols());
  elpa.set("nblk", block);
  elpa.set("mpi_comm_parent", static_cast<int>(MPI_Comm_c2f(comm)));
  elpa.set("process_row", a.grid().my_row());
  elpa.set("process_col", a.grid().my_col());
  elpa.set("blacs_context", a.grid().context());
  elpa.setup();
  elpa.set("solver", ELPA_SOLVER_2STAGE);
  std::vector<double> negated(static_cast<std::size_t>(n));
  int error = ELPA_OK;
  elpa_eigenvectors(elpa.get(), a.data(), negated.data(), scratch.data(), &error);
  elpa.check("elpa_eigenvectors", error);

  // -A's eigenvalues ascending are A's descending; its first k vectors are A's top k, in order.
  result.values.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    result.values[static_cast<std::size_t>(i)] = -negated[static_cast<std::size_t>(n - 1 - i)];
  for (int lc = 0; lc < result.vectors.local_cols(); ++lc)
    std::copy_n(scratch.local_column(lc), scratch.local_rows(), result.vectors.local_column(lc));
  return result;
}

}  // namespace rmtsweep::parallel::detail
