#include "rmtsweep/model/correlation.hpp"

#include <cmath>
#include <cstddef>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace rmtsweep::model {
namespace {

std::string allowed_correlations(int T) {
  return "allowed: iid, prefix:L with 1 <= L <= T (T = " + std::to_string(T) +
         "), markov:phi with -1 < phi < 1";
}

}  // namespace

Correlation parse_correlation(const std::string& text, int T, const std::string& option) {
  const std::string allowed = allowed_correlations(T);
  Correlation correlation;
  if (text == "iid") {
    correlation.kind = Correlation::Kind::iid;
    return correlation;
  }
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw InvalidOption(option, text, allowed);
  const std::string name = text.substr(0, colon);
  const std::string_view argument = std::string_view(text).substr(colon + 1);
  if (name == "prefix") {
    const std::int64_t L = parse_integer(argument, option, allowed, text);
    if (L < 1 || L > T) throw InvalidOption(option, text, allowed);
    correlation.kind = Correlation::Kind::prefix;
    correlation.prefix_length = static_cast<int>(L);
    return correlation;
  }
  if (name == "markov") {
    const double phi = parse_double(argument, option, allowed, text);
    if (!(std::abs(phi) < 1.0)) throw InvalidOption(option, text, allowed);
    correlation.kind = Correlation::Kind::markov;
    correlation.phi = phi;
    return correlation;
  }
  throw InvalidOption(option, text, allowed);
}

std::string to_string(const Correlation& correlation) {
  switch (correlation.kind) {
    case Correlation::Kind::iid:
      return "iid";
    case Correlation::Kind::prefix:
      return "prefix:" + std::to_string(correlation.prefix_length);
    case Correlation::Kind::markov:
      return "markov:" + format_double(correlation.phi);
  }
  return "?";
}

std::vector<double> correlation_matrix(const Correlation& correlation, int T) {
  const auto n = static_cast<std::size_t>(T);
  std::vector<double> R(n * n, 0.0);
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t s = 0; s < n; ++s) {
      double value = t == s ? 1.0 : 0.0;
      switch (correlation.kind) {
        case Correlation::Kind::iid:
          break;
        case Correlation::Kind::prefix: {
          const auto L = static_cast<std::size_t>(correlation.prefix_length);
          if (t < L && s < L) value = 1.0;
          break;
        }
        case Correlation::Kind::markov:
          value = std::pow(correlation.phi, static_cast<double>(t > s ? t - s : s - t));
          break;
      }
      R[t * n + s] = value;
    }
  }
  return R;
}

}  // namespace rmtsweep::model
