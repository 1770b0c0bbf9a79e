#pragma once
/// Pooling weights (model.md section 3), normalised to sum 1.
#include <string>
#include <vector>

#include "rmtsweep/model/correlation.hpp"

namespace rmtsweep::model {

/// `mean`, `last`, `optimal`, `harmonic`, `causal:tau` or `custom:w1,...,wT`.
struct Weighting {
  enum class Kind { mean, last, optimal, harmonic, causal, custom };
  Kind kind = Kind::mean;
  double tau = 0.0;            ///< tau of causal:tau
  std::vector<double> custom;  ///< w of custom:..., as given (normalised by pooling_weights)

  bool operator==(const Weighting&) const = default;
  /// True for `causal:tau`, whose finite-d weights depend on the data.
  bool data_dependent() const noexcept { return kind == Kind::causal; }
  /// Whether this is a weighting of model.md section 3 for sequences of length T: causal:tau with a finite
  /// tau, custom weights of T finite entries whose sum is not zero up to rounding (so they normalise to sum
  /// 1). What parse_weighting and model::validate both check.
  bool valid_for(int T) const noexcept;
};

/// What a weighting may be for sequences of length T (InvalidOption's "allowed" text).
std::string allowed_weightings(int T);

/// Parses a weighting once into a Weighting valid_for(T); throws InvalidOption naming `option`, the text
/// as given and allowed_weightings(T) otherwise.
Weighting parse_weighting(const std::string& text, int T, const std::string& option = "weighting");

/// The canonical text of a weighting (round-trips through parse_weighting).
std::string to_string(const Weighting& weighting);

/// The deterministic weights w_1..w_T, normalised to sum 1. For `causal:tau` this is
/// the d -> infinity limit w(tau) of model.md section 3. `optimal` is the projection of the all-ones
/// vector on the top eigenspace of R (the top eigenvector, sign with sum > 0, when it is simple; mean
/// pooling for `iid`). When that eigenspace is orthogonal to 1 (markov:phi < 0 with even T) no
/// normalisation to sum 1 exists: the weights are then the unit-norm top eigenvector with its largest
/// entry positive (g and the overlaps do not depend on the scale of w).
std::vector<double> pooling_weights(const Weighting& weighting, const Correlation& correlation, int T);

/// w_t(tau) = (1/T)[e^tau/(e^tau + t - 1) + sum_{i=t+1..T} 1/(e^tau + i - 1)] (model.md section 3).
std::vector<double> causal_limit_weights(double tau, int T);

}  // namespace rmtsweep::model
