// The option parsers shared by run, point and theory (include/rmtsweep/config/option_values.hpp).
#include "rmtsweep/config/option_values.hpp"

#include <algorithm>
#include <cmath>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/simulate/engine.hpp"

namespace rmtsweep::config {
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
  return static_cast<int>(bounded(text, "trials", 1, max_trials,
                                  "allowed: an integer 1 <= trials <= " + std::to_string(max_trials)));
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

EigenSetting parse_eigensolver(const std::string& text) {
  for (const EigenSetting s :
       {EigenSetting::automatic, EigenSetting::dense, EigenSetting::krylov, EigenSetting::scalapack}) {
    if (text == eigensolver_setting(s)) return s;
  }
  throw InvalidOption(
      "eigensolver", text,
      "allowed: auto (Krylov where no spectrum is stored and it is faster, else dense), dense (S "
      "formed and reduced: LAPACK, or ELPA/ScaLAPACK on groups of several ranks), krylov (S never "
      "formed: the top k and the ridge by block Lanczos) or scalapack (dense, always pdsytrd on groups: less "
      "memory)");
}

const char* eigensolver_setting(EigenSetting setting) noexcept {
  switch (setting) {
    case EigenSetting::automatic:
      return "auto";
    case EigenSetting::dense:
      return "dense";
    case EigenSetting::krylov:
      return "krylov";
    case EigenSetting::scalapack:
      return "scalapack";
  }
  return "auto";
}

simulate::Engine engine_of(EigenSetting setting) noexcept {
  switch (setting) {
    case EigenSetting::automatic:
      return simulate::Engine::automatic;
    case EigenSetting::krylov:
      return simulate::Engine::krylov;
    case EigenSetting::dense:
    case EigenSetting::scalapack:
      return simulate::Engine::dense;
  }
  return simulate::Engine::automatic;
}

void require_spectrum_engine(EigenSetting setting, bool spectrum, const std::string& given,
                             const std::string& asked_by, const std::string& instead) {
  if (!spectrum || simulate::gives_spectrum(engine_of(setting))) return;
  throw InvalidOption("eigensolver", given,
                      "allowed with " + asked_by + ": auto, dense or scalapack; krylov needs " + instead +
                          " (the Krylov engine never forms S and gives its top k eigenvalues only)");
}

LinesSetting parse_lines(const std::string& text) {
  for (const LinesSetting s : {LinesSetting::automatic, LinesSetting::off}) {
    if (text == lines_setting(s)) return s;
  }
  throw InvalidOption(
      "lines", text,
      "allowed: auto (the snr values of a line from one factorization, where the weights do not "
      "depend on the data) or off (each point alone)");
}

const char* lines_setting(LinesSetting setting) noexcept {
  return setting == LinesSetting::off ? "off" : "auto";
}

parallel::EigenSolver reducer_of(EigenSetting setting) noexcept {
  return setting == EigenSetting::scalapack ? parallel::EigenSolver::scalapack
                                            : parallel::EigenSolver::automatic;
}

}  // namespace rmtsweep::config
