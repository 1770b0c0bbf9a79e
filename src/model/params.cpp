#include "rmtsweep/model/params.hpp"

#include <cmath>
#include <numeric>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace rmtsweep::model {
namespace {

/// Largest V or N accepted: the counts must fit in 64-bit integers with room to spare.
constexpr double max_count = 1e15;

}  // namespace

Table parse_table(const std::string& text, const std::string& option) {
  if (text == "iid") return Table::iid;
  if (text == "centered") return Table::centered;
  throw InvalidOption(option, text, "allowed: iid, centered");
}

std::string to_string(Table table) { return table == Table::iid ? "iid" : "centered"; }

std::int64_t PointParams::vocabulary() const {
  return 2 * std::llround(static_cast<double>(d) / (2.0 * delta));
}

std::int64_t PointParams::sequences() const { return std::llround(static_cast<double>(d) / gamma); }

void validate(const PointParams& params) {
  const std::string d_text = std::to_string(params.d);
  if (params.d < 1) throw InvalidOption("d", d_text, "allowed: an integer d >= 1");
  if (params.T < 1 || params.T > max_sequence_length) {
    throw InvalidOption("T", std::to_string(params.T),
                        "allowed: an integer T with 1 <= T <= " + std::to_string(max_sequence_length));
  }
  const std::string delta_allowed =
      "allowed: delta > 0 such that the vocabulary V = 2 round(d/(2 delta)) is between 2 and 1e15 (d = " +
      d_text + ")";
  if (!(params.delta > 0.0) || !std::isfinite(params.delta) ||
      !(static_cast<double>(params.d) / params.delta <= max_count) || params.vocabulary() < 2) {
    throw InvalidOption("delta", format_double(params.delta), delta_allowed);
  }
  const std::string gamma_allowed =
      "allowed: gamma > 0 such that the number of sequences N = round(d/gamma) is between 2 and 1e15 (d = " +
      d_text + ")";
  if (!(params.gamma > 0.0) || !std::isfinite(params.gamma) ||
      !(static_cast<double>(params.d) / params.gamma <= max_count) || params.sequences() < 2) {
    throw InvalidOption("gamma", format_double(params.gamma), gamma_allowed);
  }
  if (!(params.snr >= 0.0 && params.snr <= max_snr)) {
    throw InvalidOption("snr", format_double(params.snr),
                        "allowed: a number snr with 0 <= snr <= " + format_double(max_snr));
  }
  if (params.trial < 0)
    throw InvalidOption("trial", std::to_string(params.trial), "allowed: an integer trial >= 0");
  if (!params.correlation.valid_for(params.T))
    throw InvalidOption("correlation", to_string(params.correlation), allowed_correlations(params.T));
  if (!params.weighting.valid_for(params.T))
    throw InvalidOption("weighting", to_string(params.weighting), allowed_weightings(params.T));
}

}  // namespace rmtsweep::model
