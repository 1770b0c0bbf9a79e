#pragma once
/// Positional sign correlation R = E[xi xi^T] (model.md section 2).
#include <string>
#include <vector>

namespace rmtsweep::model {

/// `iid`, `prefix:L` or `markov:phi`.
struct Correlation {
  enum class Kind { iid, prefix, markov };
  Kind kind = Kind::prefix;
  int prefix_length = 3;  ///< L of prefix:L
  double phi = 0.0;       ///< phi of markov:phi

  bool operator==(const Correlation&) const = default;
  /// Whether this is a correlation of model.md section 2 for sequences of length T: iid, prefix:L with
  /// 1 <= L <= T, markov:phi with -1 < phi < 1. What parse_correlation and model::validate both check.
  bool valid_for(int T) const noexcept;
};

/// What a correlation may be for sequences of length T (InvalidOption's "allowed" text).
std::string allowed_correlations(int T);

/// Parses "iid", "prefix:L" or "markov:phi" once into a Correlation valid_for(T); throws InvalidOption
/// naming `option`, the text as given and allowed_correlations(T) otherwise.
Correlation parse_correlation(const std::string& text, int T, const std::string& option = "correlation");

/// The canonical text of a correlation, such that parse_correlation(to_string(c)) == c.
std::string to_string(const Correlation& correlation);

/// R as a row-major T x T matrix.
std::vector<double> correlation_matrix(const Correlation& correlation, int T);

}  // namespace rmtsweep::model
