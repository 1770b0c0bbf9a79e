#pragma once
/// The signal spike: its strength, the population and sample (BBP-type) transitions, outlier
/// locations, eigenvector overlaps and thresholds in snr (model.md section 5.2). Pure functions.
#include <optional>

#include "rmtsweep/model/params.hpp"

namespace rmtsweep::theory {

/// theta, s = theta - delta and the overlap cap of model.md 5.2.
struct SignalStrength {
  double theta = 0.0;  ///< g (snr + delta) for `iid` tables, g snr for `centered`
  double s = 0.0;      ///< theta - delta
  double cap =
      0.0;  ///< snr/(snr + delta) for `iid` (the table noise is not aligned with mu), 1 for `centered`
};

/// theta, s and cap for pooling gain g (model.md 5.2).
SignalStrength signal_strength(double g, double snr, double delta, model::Table table);

/// F(s) = s^3 - (delta + gamma + delta gamma) s - 2 delta gamma (model.md 5.2).
double detectability(double s, double delta, double gamma);

/// s*, the largest (and only positive) root of F; it always exceeds sqrt(delta).
double critical_signal(double delta, double gamma);

/// Population outlier (model.md 5.2): present iff s > sqrt(delta), at kappa (s + delta)(s + 1)/s.
std::optional<double> population_outlier(double s, double delta, double kappa);

/// Overlap of the population top eigenvector with u: cap (1 - delta/s^2) above the population
/// threshold, 0 below.
double population_overlap(double s, double delta, double cap);

/// True iff the sample covariance S has the outlier: s > 0 and F(s) > 0, i.e. s > s*. (F is also
/// positive between its two negative roots, which s >= -delta can reach; that is not an outlier.)
bool sample_detectable(double s, double delta, double gamma);

/// lambda_S = kappa (s + 1)(s + delta)(s + gamma)/s^2 (model.md 5.2); meaningful when detectable,
/// and equal to the right bulk edge at s = s*.
double sample_outlier(double s, double delta, double gamma, double kappa);

/// |u_hat^T u|^2 = cap F(s)/(s^2 (s + gamma)) when detectable, 0 otherwise (model.md 5.2).
double sample_overlap(double s, double delta, double gamma, double cap);

/// snr_pop = (delta + sqrt(delta))/g - delta (`iid`) or (delta + sqrt(delta))/g (`centered`), clipped at 0
/// (model.md 5.2: a negative raw value means the outlier exists at every snr >= 0).
double population_threshold_snr(double g, double delta, model::Table table);

/// snr_sample = (s* + delta)/g - delta (`iid`) or (s* + delta)/g (`centered`), clipped at 0.
double sample_threshold_snr(double g, double delta, double gamma, model::Table table);

}  // namespace rmtsweep::theory
