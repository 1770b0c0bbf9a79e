#pragma once
// What the two line engines (dense: line.cpp, Krylov: krylov_line.cpp) share (private to src/simulate).
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/simulate/line.hpp"
#include "stages.hpp"

namespace rmtsweep::simulate {

/// The signal side of a line's training sequences (docs/model.md section 9): sigma_n = sum_t w_t xi_{n,t}
/// = s^T a_n (s the class signs of the tokens), their mean, and the V-vectors that turn the noise table
/// into the line's vectors: c-bar0 = Z a-bar, b0 = Z a_y, p = Z a_sigma.
struct LineSignal {
  std::vector<double> sigma;          ///< sigma_n - sigma-bar (N)
  std::vector<double> labels;         ///< y_n (N)
  double sigma_mean = 0.0;            ///< sigma-bar
  double q = 0.0;                     ///< ||sigma~||^2 / N
  double h = 0.0;                     ///< sigma~^T y / N: b(r) = b0 + r h u
  std::vector<double> sigma_weights;  ///< a_sigma = (1/N) sum_n sigma~_n a_n (V)
};
LineSignal line_signal(const SparsePooling& sequences, std::int64_t vocabulary);

/// Raised by the line engines, on every rank of the group alike, when the training sequences' signal weights
/// sigma_n do not vary (q = 0: d = 1, or a correlation whose weighted signs cancel, such as
/// markov:-0.99999999 under mean pooling): S(r) then has no rank-one form in r, and simulate_line computes
/// the line's points one at a time instead.
class SignalDoesNotVary : public NumericalFailure {
 public:
  SignalDoesNotVary()
      : NumericalFailure(
            "simulate_line: the training sequences' signal weights sigma_n do not vary (q = 0); "
            "compute these points one at a time (lines = off)") {}
};

/// The ridge along a line: beta(r) = sum_k coefficients(r)_k basis_k, basis d x count (column-major,
/// replicated). The same span for every snr (Sherman-Morrison on the snr-free part).
struct LineRidge {
  std::vector<double> basis;
  int count = 0;
  std::function<std::vector<double>(double r)> coefficients;
};

/// The direct form's ridge (S(r) = S0' + q v v^T, v = r u + p / q, b(r) = b0 + r h u) from
/// betas = A^{-1} [u, p, b0] (d x 3, column-major; A = S0' + lambda I): the basis [beta_b, beta_u, beta_p]
/// and Sherman-Morrison's coefficients per r.
LineRidge direct_form_ridge(const std::vector<double>& betas, const std::vector<double>& p, double q,
                            double h);

/// The test accuracy of the line's ridge at each r (model.md section 6): one pass over the table per
/// basis vector (its token projections), then every test sequence is scored at every r in O(count)
/// from sum_t w_t p_k(v_t), its signal weight and c-bar(r) = mean0 + r sigma-bar u. The same on every
/// rank of the grid (collective over the grid's column communicator).
std::vector<double> line_test_accuracies(const PointContext& context, const PooledSequences& pooled,
                                         const LineRidge& ridge, const std::vector<double>& mean0,
                                         double sigma_mean, std::span<const double> r, std::int64_t ntest);

/// The Krylov engine's line (krylov_line.cpp): one block Krylov basis of S0 for every snr. The positions of
/// the snr values whose pairs or ridge did not converge within the budget are appended to `unconverged`
/// (their points hold the last Ritz values; simulate_line recomputes them one at a time).
LineResult krylov_line(const model::PointParams& params, std::span<const double> snr,
                       const SimulationOptions& options, MPI_Comm comm,
                       std::vector<std::size_t>& unconverged);

/// The points of a line from its secular form and ridge: per r the top k eigenvalues and their overlaps
/// (and all d eigenvalues with options.spectrum: `zeros` more zeros below the secular roots, the Gram
/// form's d - N), the ridge accuracy; seconds and solver fields as given.
std::vector<PointResult> line_points(const spectral::RankOneLine& secular, int k, std::size_t zeros,
                                     std::span<const double> r, const std::vector<double>& accuracies,
                                     bool spectrum, parallel::Reducer reducer, CovariancePath path);

}  // namespace rmtsweep::simulate
