#pragma once
/// Exceptions of rmtsweep: one hierarchy under rmtsweep::Error (as Ginkgo's gko::Error), so that
/// code which must tell failures apart (the sweep's runner, `main`'s exit status) does so by type,
/// never by comparing message strings. Every error carries its context: the option and value, the
/// file and what is wrong with it, the routine and code.
///
///   Error                      what() is one line fit for the user
///   ├─ InvalidOption           a user-supplied value that is not allowed (exit status 2)
///   ├─ InvalidFile             a file that is not what a command needs (exit status 2)
///   ├─ NumericalFailure        a computation that cannot go on (every rank of a group alike)
///   │  └─ ScalapackError       a LAPACK/ScaLAPACK/ELPA routine returned info != 0
///   ├─ OutOfMemory             an allocation failed, with what was being computed
///   ├─ MpiError                an MPI call failed
///   └─ Hdf5Error               an HDF5 call failed (with HDF5's error stack)
#include <stdexcept>
#include <string>

namespace rmtsweep {

/// `text` fit to echo on one terminal line: bytes outside printable ASCII (a NUL, an escape, a
/// newline, binary garbage from a wrong file) as \xNN, and at most `limit` bytes of it, marked
/// "..." when cut. Messages quote what the user typed through this, so an error never carries
/// control bytes to the terminal.
std::string printable(const std::string& text, std::size_t limit = 200);

/// The base of every rmtsweep error.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A user-supplied value that is not allowed. The program prints
/// "rmtsweep <command>: invalid --<option> '<value>': <allowed>" and exits with status 2.
class InvalidOption : public Error {
 public:
  InvalidOption(std::string option, std::string value, std::string allowed)
      : Error("invalid --" + option + " '" + printable(value) + "': " + printable(allowed, 4000)),
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
      : Error(printable(message, 4000)), option_(std::move(option)), value_(std::move(value)), allowed_(message) {}
  std::string option_, value_, allowed_;
};

/// A file that is not what a command needs: "<path>: <problem>" (exit status 2).
class InvalidFile : public Error {
 public:
  InvalidFile(std::string path, const std::string& problem)
      : Error(printable(path) + ": " + printable(problem, 4000)), path_(std::move(path)) {}
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

/// A computation that cannot go on. Raised by every rank of a group alike (an info agreed over
/// the grid, a budget every rank counted the same), so a sweep records it as the point's failure
/// and goes on, however many ranks the point has.
class NumericalFailure : public Error {
 public:
  using Error::Error;
};

/// A ScaLAPACK or LAPACK (or ELPA) routine returned info != 0.
class ScalapackError : public NumericalFailure {
 public:
  ScalapackError(std::string routine, int info)
      : NumericalFailure(routine + " failed with info = " + std::to_string(info)),
        routine_(std::move(routine)),
        info_(info) {}
  const std::string& routine() const noexcept { return routine_; }
  int info() const noexcept { return info_; }

 private:
  std::string routine_;
  int info_;
};

/// An allocation failed (std::bad_alloc, whose what() says only "std::bad_alloc"), with a sentence
/// on what was being computed and how much memory it needs.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

/// An MPI call returned an error code: "<call>: <MPI_Error_string of code>".
class MpiError : public Error {
 public:
  MpiError(int code, const std::string& call);
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// An HDF5 call failed; the message holds the call and HDF5's error stack.
class Hdf5Error : public Error {
 public:
  using Error::Error;
};

/// Throws MpiError when an MPI call did not return MPI_SUCCESS.
#define RMTSWEEP_MPI_CHECK(call)                                                    \
  do {                                                                              \
    const int rmtsweep_mpi_rc_ = (call);                                            \
    if (rmtsweep_mpi_rc_ != 0) throw ::rmtsweep::MpiError(rmtsweep_mpi_rc_, #call); \
  } while (false)

}  // namespace rmtsweep
