#pragma once
/// The names of the eigen solvers (which library reduces a distributed matrix) and of what computed a point's
/// eigenpairs, apart from the solvers themselves (eigen.hpp): no MPI, so that the options that name them
/// (simulate/options.hpp, config/) are plain values.
namespace rmtsweep::parallel {

/// Which library reduces a matrix that is spread over several processes.
enum class EigenSolver {
  automatic,  ///< ELPA where elpa_applies, else ScaLAPACK
  scalapack,  ///< pdsytrd (LAPACK's dsytrd on a 1 x 1 grid): eigen.hpp's symmetric_eigen
  elpa,       ///< ELPA's two-stage solver (std::invalid_argument where elpa_applies is false)
};

/// What computed the eigenpairs: the library (and method) the result came from.
enum class Reducer {
  lapack,            ///< LAPACK's dsytrd on one process
  scalapack,         ///< ScaLAPACK's pdsytrd on a grid of several processes
  elpa,              ///< ELPA's two-stage solver
  spectra_lanczos,   ///< Spectra's implicitly restarted Lanczos on the factored S (files written before block
                     ///< Lanczos)
  spectra_davidson,  ///< Spectra's block Davidson on the factored S (files written before block Lanczos)
  block_lanczos,     ///< block Lanczos on the factored S, the ridge in the same basis (no S formed)
  /// A whole line of snr values from one factorization of its snr-free part (simulate/line.hpp):
  lapack_line,     ///< dsytrd + dstedc on one process
  scalapack_line,  ///< pdsytrd on a grid of several processes
  lanczos_line,    ///< one block Lanczos basis of the snr-free part for every snr (no S formed)
};

/// Whether the eigenpairs came from a Krylov method on the factored S (S never formed).
constexpr bool is_krylov(Reducer reducer) noexcept {
  return reducer == Reducer::spectra_lanczos || reducer == Reducer::spectra_davidson ||
         reducer == Reducer::block_lanczos || reducer == Reducer::lanczos_line;
}

/// Whether the eigenpairs came from a line of snr values factored once (simulate/line.hpp).
constexpr bool is_line(Reducer reducer) noexcept {
  return reducer == Reducer::lapack_line || reducer == Reducer::scalapack_line ||
         reducer == Reducer::lanczos_line;
}

/// "lapack", "scalapack", "elpa", "block-lanczos", "lapack-line", "scalapack-line", "lanczos-line" (older
/// files: "spectra-lanczos", "spectra-davidson"): as `rmtsweep point`,
/// its JSON and the file's /points/solver say it.
const char* to_string(Reducer reducer) noexcept;

}  // namespace rmtsweep::parallel
