#pragma once
/// Exceptions of rmtsweep. Every error carries its context: the option and value, the
/// routine and code. `main` turns them into one line on stderr and an exit status.
#include <stdexcept>
#include <string>
#include <system_error>

namespace rmtsweep {

/// A user-supplied value that is not allowed. The program prints
/// "rmtsweep: invalid --<option> '<value>': <allowed>" and exits with status 2.
class InvalidOption : public std::invalid_argument {
 public:
  InvalidOption(std::string option, std::string value, std::string allowed)
      : std::invalid_argument("invalid --" + option + " '" + value + "': " + allowed),
        option_(std::move(option)),
        value_(std::move(value)),
        allowed_(std::move(allowed)) {}
  /// An option refused as a whole rather than for its value (an unknown option, one given twice,
  /// one missing its value): `message` is the whole text, e.g. "unknown option '--foo'; allowed: ...";
  /// allowed() is that message too. Exit status 2 as for any InvalidOption.
  static InvalidOption described(std::string option, std::string value, const std::string& message) {
    return InvalidOption(Described{}, std::move(option), std::move(value), message);
  }
  const std::string& option() const noexcept { return option_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& allowed() const noexcept { return allowed_; }

 private:
  struct Described {};
  InvalidOption(Described, std::string option, std::string value, const std::string& message)
      : std::invalid_argument(message), option_(std::move(option)), value_(std::move(value)), allowed_(message) {}
  std::string option_, value_, allowed_;
};

/// A ScaLAPACK or LAPACK routine returned info != 0.
class ScalapackError : public std::runtime_error {
 public:
  ScalapackError(std::string routine, int info)
      : std::runtime_error(routine + " failed with info = " + std::to_string(info)),
        routine_(std::move(routine)),
        info_(info) {}
  const std::string& routine() const noexcept { return routine_; }
  int info() const noexcept { return info_; }

 private:
  std::string routine_;
  int info_;
};

/// The category of MPI error codes, so MpiError is a std::system_error (as in Arbor).
const std::error_category& mpi_error_category() noexcept;

/// An MPI call returned an error code.
class MpiError : public std::system_error {
 public:
  MpiError(int code, const std::string& call) : std::system_error(code, mpi_error_category(), call) {}
};

/// An HDF5 call failed; the message holds the call and HDF5's error stack.
class Hdf5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws MpiError when an MPI call did not return MPI_SUCCESS.
#define RMTSWEEP_MPI_CHECK(call)                                             \
  do {                                                                       \
    const int rmtsweep_mpi_rc_ = (call);                                     \
    if (rmtsweep_mpi_rc_ != 0) throw ::rmtsweep::MpiError(rmtsweep_mpi_rc_, #call); \
  } while (false)

}  // namespace rmtsweep
