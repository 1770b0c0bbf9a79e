#pragma once
/// The parameters of one point (model.md section 1) and their validation.
#include <cstdint>
#include <string>

#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/weighting.hpp"

namespace rmtsweep::model {

/// `iid` (default) or `centered` embedding table (model.md section 1.1).
enum class Table { iid, centered };

/// Parses "iid" or "centered"; throws InvalidOption otherwise.
Table parse_table(const std::string& text, const std::string& option = "table");
/// The option text of a table ("iid" or "centered"), which parse_table reads back.
std::string to_string(Table table);

/// Largest sequence length accepted: R is formed as a dense T x T matrix (and diagonalised for
/// `optimal` weights), so T is bounded to keep that at 128 MB and seconds.
inline constexpr int max_sequence_length = 4096;

/// Largest snr accepted. Beyond it the rounding of the signal part of S (eps snr) exceeds 2e-4 of the
/// unit noise scale, so the simulated bulk is no longer resolved; and without a bound the theory's
/// s^3 and (s + 1)(s + delta)(s + gamma) overflow from snr ~ 1e102 on (model.md 5.2), which printed
/// null overlaps and eigenvalues.
inline constexpr double max_snr = 1e12;

/// Everything that defines one point. Built only through validated parsing, so the
/// simulation and the theory may assume it is valid.
struct PointParams {
  int d = 400;
  int T = 10;
  double delta = 0.5;
  double gamma = 0.25;
  double snr = 1.0;
  Weighting weighting{};
  Correlation correlation{};
  Table table = Table::iid;
  std::uint64_t seed = 0;
  int trial = 0;

  /// V = 2 round(d / (2 delta)): vocabulary size, even so the classes balance.
  std::int64_t vocabulary() const;
  /// N = round(d / gamma): number of sequences.
  std::int64_t sequences() const;
};

/// Checks every field (d >= 1, T >= 1, delta > 0, gamma > 0, 0 <= snr <= max_snr, trial >= 0, V >= 2,
/// N >= 2, L <= T, custom weights of length T); throws InvalidOption naming the option.
/// V and N must also stay below 1e15 (finite, 64-bit counts), and the correlation and weighting must be
/// valid_for this T (|phi| < 1, finite tau, custom weights of nonzero sum): the checks their parsers make.
void validate(const PointParams& params);

}  // namespace rmtsweep::model
