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
};

/// Parses "iid", "prefix:L" (1 <= L <= T) or "markov:phi" (|phi| < 1); throws InvalidOption
/// naming `option` otherwise. T is needed to check L.
Correlation parse_correlation(const std::string& text, int T, const std::string& option = "correlation");

/// The canonical text of a correlation, such that parse_correlation(to_string(c)) == c.
std::string to_string(const Correlation& correlation);

/// R as a row-major T x T matrix.
std::vector<double> correlation_matrix(const Correlation& correlation, int T);

}  // namespace rmtsweep::model
