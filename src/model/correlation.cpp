#include "rmtsweep/model/correlation.hpp"

#include <cmath>
#include <cstddef>
#include <limits>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace rmtsweep::model {

bool Correlation::valid_for(int T) const noexcept {
  switch (kind) {
    case Kind::iid:
      return true;
    case Kind::prefix:
      return prefix_length >= 1 && prefix_length <= T;
    case Kind::markov:
      return std::abs(phi) < 1.0;  // false for NaN too
  }
  return false;
}

std::string allowed_correlations(int T) {
  return "allowed: iid, prefix:L with 1 <= L <= T (T = " + std::to_string(T) +
         "), markov:phi with -1 < phi < 1";
}

Correlation parse_correlation(const std::string& text, int T, const std::string& option) {
  const std::string allowed = allowed_correlations(T);
  Correlation correlation;
  const std::string_view view(text);
  if (text == "iid") {
    correlation.kind = Correlation::Kind::iid;
  } else if (view.starts_with("prefix:")) {
    // An L beyond int is as invalid as any L > T: held as 0, which valid_for refuses.
    const std::int64_t L = parse_integer(view.substr(7), option, allowed, text);
    correlation.kind = Correlation::Kind::prefix;
    correlation.prefix_length = L >= 1 && L <= std::numeric_limits<int>::max() ? static_cast<int>(L) : 0;
  } else if (view.starts_with("markov:")) {
    correlation.kind = Correlation::Kind::markov;
    correlation.phi = parse_double(view.substr(7), option, allowed, text);
  } else {
    throw InvalidOption(option, text, allowed);
  }
  if (!correlation.valid_for(T)) throw InvalidOption(option, text, allowed);
  return correlation;
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
