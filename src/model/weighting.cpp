#include "rmtsweep/model/weighting.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/model/symmetric_eigen.hpp"

namespace rmtsweep::model {
namespace {

std::vector<double> parse_custom(std::string_view list, const std::string& option, const std::string& text,
                                 const std::string& allowed) {
  std::vector<double> w;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string_view item =
        list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    w.push_back(parse_double(item, option, allowed, text));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return w;
}

std::vector<double> normalised_to_unit_sum(std::vector<double> w) {
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  for (double& x : w) x /= sum;
  return w;
}

/// The vector of the top eigenspace of R closest to the all-ones direction: the projection of
/// 1 onto that eigenspace, which has a positive sum whenever it is nonzero (model.md section 3).
std::vector<double> optimal_weights(const Correlation& correlation, int T) {
  const auto n = static_cast<std::size_t>(T);
  const SymmetricEigen eigen = symmetric_eigen(correlation_matrix(correlation, T), T);
  const double top = eigen.values.back();
  const double tolerance = 1e-10 * std::max(1.0, std::abs(top));
  std::vector<double> projection(n, 0.0);
  std::size_t first_top = n - 1;
  for (std::size_t k = n; k-- > 0;) {
    if (eigen.values[k] < top - tolerance) break;
    first_top = k;
    const double* v = &eigen.vectors[k * n];
    const double along_ones = std::accumulate(v, v + n, 0.0);
    for (std::size_t t = 0; t < n; ++t) projection[t] += along_ones * v[t];
  }
  const double sum = std::accumulate(projection.begin(), projection.end(), 0.0);  // = |P 1|^2 >= 0
  if (sum > 1e-12 * static_cast<double>(T)) return normalised_to_unit_sum(std::move(projection));
  // The top eigenspace is orthogonal to 1 (markov:phi < 0 with even T): sum 1 is impossible, so
  // return the unit-norm eigenvector whose largest entry is positive. g does not depend on scale.
  std::vector<double> w(eigen.vectors.begin() + static_cast<std::ptrdiff_t>(first_top * n),
                        eigen.vectors.begin() + static_cast<std::ptrdiff_t>((first_top + 1) * n));
  const auto largest =
      std::max_element(w.begin(), w.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  if (*largest < 0) {
    for (double& x : w) x = -x;
  }
  return w;
}

std::vector<double> harmonic_weights(int T) {
  const auto n = static_cast<std::size_t>(T);
  if (n == 1) return {1.0};
  std::vector<double> H(n, 0.0);  // H[k] = 1 + 1/2 + ... + 1/k
  for (std::size_t k = 1; k < n; ++k) H[k] = H[k - 1] + 1.0 / static_cast<double>(k);
  std::vector<double> w(n);
  for (std::size_t t = 1; t <= n; ++t) w[t - 1] = H[n - 1] - H[t - 1];
  return normalised_to_unit_sum(std::move(w));
}

}  // namespace

bool Weighting::valid_for(int T) const noexcept {
  if (kind == Kind::causal) return std::isfinite(tau);
  if (kind != Kind::custom) return true;
  if (custom.size() != static_cast<std::size_t>(T)) return false;
  double sum = 0.0, magnitude = 0.0;
  for (const double x : custom) {
    if (!std::isfinite(x)) return false;
    sum += x;
    magnitude += std::abs(x);
  }
  // A sum that is zero up to rounding of the given numbers cannot be normalised to 1.
  return std::abs(sum) > 1e-12 * magnitude;
}

std::string allowed_weightings(int T) {
  return "allowed: mean, last, optimal, harmonic, causal:tau with finite tau, custom:w1,...,wT with T = " +
         std::to_string(T) + " finite numbers of nonzero sum";
}

Weighting parse_weighting(const std::string& text, int T, const std::string& option) {
  const std::string allowed = allowed_weightings(T);
  Weighting weighting;
  if (text == "mean") {
    weighting.kind = Weighting::Kind::mean;
  } else if (text == "last") {
    weighting.kind = Weighting::Kind::last;
  } else if (text == "optimal") {
    weighting.kind = Weighting::Kind::optimal;
  } else if (text == "harmonic") {
    weighting.kind = Weighting::Kind::harmonic;
  } else if (text.rfind("causal:", 0) == 0) {
    weighting.kind = Weighting::Kind::causal;
    weighting.tau = parse_double(std::string_view(text).substr(7), option, allowed, text);
  } else if (text.rfind("custom:", 0) == 0) {
    weighting.kind = Weighting::Kind::custom;
    weighting.custom = parse_custom(std::string_view(text).substr(7), option, text, allowed);
  } else {
    throw InvalidOption(option, text, allowed);
  }
  if (!weighting.valid_for(T)) throw InvalidOption(option, text, allowed);
  return weighting;
}

std::string to_string(const Weighting& weighting) {
  switch (weighting.kind) {
    case Weighting::Kind::mean:
      return "mean";
    case Weighting::Kind::last:
      return "last";
    case Weighting::Kind::optimal:
      return "optimal";
    case Weighting::Kind::harmonic:
      return "harmonic";
    case Weighting::Kind::causal:
      return "causal:" + format_double(weighting.tau);
    case Weighting::Kind::custom: {
      std::string text = "custom:";
      for (std::size_t t = 0; t < weighting.custom.size(); ++t) {
        if (t > 0) text += ',';
        text += format_double(weighting.custom[t]);
      }
      return text;
    }
  }
  return "?";
}

std::vector<double> pooling_weights(const Weighting& weighting, const Correlation& correlation, int T) {
  const auto n = static_cast<std::size_t>(T);
  switch (weighting.kind) {
    case Weighting::Kind::mean:
      return std::vector<double>(n, 1.0 / static_cast<double>(T));
    case Weighting::Kind::last: {
      std::vector<double> w(n, 0.0);
      w[n - 1] = 1.0;
      return w;
    }
    case Weighting::Kind::optimal:
      return optimal_weights(correlation, T);
    case Weighting::Kind::harmonic:
      return harmonic_weights(T);
    case Weighting::Kind::causal:
      return causal_limit_weights(weighting.tau, T);
    case Weighting::Kind::custom:
      return normalised_to_unit_sum(weighting.custom);
  }
  return {};
}

std::vector<double> causal_limit_weights(double tau, int T) {
  const auto n = static_cast<std::size_t>(T);
  // With q = e^{-tau} for tau >= 0 (and e^{tau} kept as is otherwise) nothing overflows:
  // e^tau/(e^tau + t - 1) = 1/(1 + (t-1) q) and 1/(e^tau + i - 1) = q/(1 + (i-1) q).
  const bool large = tau >= 0.0;
  const double e = large ? std::exp(-tau) : std::exp(tau);
  // The first token attends only to itself: its self-weight is exactly 1 (also when e^tau underflows).
  auto self = [&](double t) {
    return t == 1.0 ? 1.0 : large ? 1.0 / (1.0 + (t - 1.0) * e) : e / (e + t - 1.0);
  };
  auto cross = [&](double i) { return large ? e / (1.0 + (i - 1.0) * e) : 1.0 / (e + i - 1.0); };
  std::vector<double> w(n, 0.0);
  double tail = 0.0;  // sum_{i=t+1..T} 1/(e^tau + i - 1), built from t = T down
  for (std::size_t t = n; t >= 1; --t) {
    w[t - 1] = (self(static_cast<double>(t)) + tail) / static_cast<double>(T);
    tail += cross(static_cast<double>(t));
  }
  return normalised_to_unit_sum(std::move(w));
}

}  // namespace rmtsweep::model
