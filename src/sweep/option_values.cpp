// The option parsers shared by run, point and theory (include/rmtsweep/sweep/option_values.hpp).
#include "rmtsweep/sweep/option_values.hpp"

#include <algorithm>
#include <cmath>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/parse_number.hpp"

namespace rmtsweep::sweep {
namespace {

constexpr std::int64_t int_max = 2147483647;

std::int64_t bounded(const std::string& text, const std::string& name, std::int64_t low, std::int64_t high,
                     const std::string& allowed) {
  const std::int64_t value = model::parse_integer(text, name, allowed);
  if (value < low || value > high) throw InvalidOption(name, text, allowed);
  return value;
}

std::string integer_range(const std::string& name, std::int64_t low, std::int64_t high) {
  return "allowed: an integer " + name + " with " + std::to_string(low) + " <= " + name +
         " <= " + std::to_string(high);
}

}  // namespace

int parse_d(const std::string& text) {
  return static_cast<int>(bounded(text, "d", 1, int_max, integer_range("d", 1, int_max)));
}

int parse_T(const std::string& text) {
  return static_cast<int>(
      bounded(text, "T", 1, model::max_sequence_length, integer_range("T", 1, model::max_sequence_length)));
}

std::uint64_t parse_seed(const std::string& text) {
  return model::parse_unsigned(text, "seed", "allowed: an integer 0 <= seed < 2^64");
}

int parse_trial(const std::string& text) {
  return static_cast<int>(bounded(text, "trial", 0, int_max, integer_range("trial", 0, int_max)));
}

int parse_trials(const std::string& text) {
  return static_cast<int>(bounded(text, "trials", 1, 1000000, "allowed: an integer 1 <= trials <= 1000000"));
}

std::string k_allowed(int d) { return "allowed: an integer min(4, d) <= k <= d = " + std::to_string(d); }

int parse_k(const std::string& text, int d, bool is_default) {
  const std::int64_t k = model::parse_integer(text, "k", k_allowed(d));
  if (is_default) return static_cast<int>(std::min<std::int64_t>(k, d));
  if (k < 1 || k > d) throw InvalidOption("k", text, k_allowed(d));
  return static_cast<int>(k);
}

double parse_ridge(const std::string& text) {
  return model::parse_double(
      text, "ridge",
      "allowed: a finite number (lambda = ridge * kappa; S + lambda I must be positive "
      "definite)");
}

double parse_sweep_ridge(const std::string& text) {
  const std::string allowed = "allowed: a finite ridge > 0";
  const double ridge = model::parse_double(text, "ridge", allowed);
  if (!(ridge > 0.0)) throw InvalidOption("ridge", text, allowed);
  return ridge;
}

long long parse_ntest(const std::string& text) {
  return bounded(text, "ntest", 0, std::int64_t{1} << 40,
                 "allowed: an integer 0 <= ntest <= 2^40 (0 means N)");
}

parallel::EigenSolver parse_eigensolver(const std::string& text) {
  if (text == "auto") return parallel::EigenSolver::automatic;
  if (text == "scalapack") return parallel::EigenSolver::scalapack;
  throw InvalidOption("eigensolver", text,
                      "allowed: auto (ELPA for groups of several ranks where it applies, else ScaLAPACK) or "
                      "scalapack (always pdsytrd: less memory)");
}

const char* eigensolver_setting(parallel::EigenSolver solver) noexcept {
  return solver == parallel::EigenSolver::scalapack ? "scalapack" : "auto";
}

}  // namespace rmtsweep::sweep
