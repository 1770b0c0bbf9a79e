#pragma once
/// Exceptions of rmtsweep: one hierarchy under rmtsweep::Error (as Ginkgo's gko::Error), so that
/// code which must tell failures apart (the sweep's runner, `main`'s exit status) does so by type,
/// never by comparing message strings. Every error carries its context: the option and value, the
/// file and what is wrong with it, the routine and code.
///
///   Error                      what() is one line fit for the user
///   ├─ InvalidArgument         a value the library refuses, named as its interface names it (exit
///   │  │                       status 2; the program says it as the option it came from)
///   │  └─ InvalidOption        a command-line option's value that is not allowed (config/ and app/)
///   ├─ InvalidFile             a file that is not what a command needs (exit status 2)
///   ├─ NumericalFailure        a computation that cannot go on (every rank of a group alike)
///   │  └─ ScalapackError       a LAPACK/ScaLAPACK/ELPA routine returned info != 0
///   ├─ OutOfMemory             an allocation failed, with what was being computed
///   ├─ MpiError                an MPI call failed
///   ├─ Hdf5Error               an HDF5 call failed (the cause in what(), HDF5's error stack apart)
///   ├─ FileIoError             a file could not be read or written: disk full, quota, permission,
///   │                          a truncated file; names the file, the operation, the cause and
///   │                          what to do (exit status 1)
///   └─ AgreedFailure           an error some ranks met, agreed on by every rank (exit status 1
///                              without MPI_Abort's banner)
#include <exception>
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

/// A value the library refuses: `name` is the parameter as the library's interface names it (a
/// SimulationOptions field, MergeOptions::output, "resume"), `value` what it was given, `allowed` what it
/// accepts or what is wrong, in the library's words: "invalid k '0': allowed: an integer >= 1". Where a
/// switch of the caller's would accept the value, `override_switch` names it ("force") and
/// `override_effect` says what it does ("replace it"). The program says the error as the option it came
/// from (an InvalidOption of the same name: app/option_errors.hpp as_option), exit status 2.
class InvalidArgument : public Error {
 public:
  InvalidArgument(const std::string& name, const std::string& value, const std::string& allowed,
                  const std::string& override_switch = {}, const std::string& override_effect = {})
      : InvalidArgument(
            Worded{},
            "invalid " + name + " '" + printable(value) + "': " + printable(allowed, 4000) +
                (override_switch.empty() ? std::string()
                                         : " (" + override_switch + " would " + override_effect + ")"),
            name, value, allowed, override_switch, override_effect) {}
  /// A value refused with a message of its own (e.g. shards that overlap): `message` is allowed() and, with
  /// the override, what(); described() is true.
  static InvalidArgument described(std::string name, std::string value, const std::string& message,
                                   std::string override_switch = {}, std::string override_effect = {}) {
    const std::string whole =
        message + (override_switch.empty() ? std::string()
                                           : " (" + override_switch + " would " + override_effect + ")");
    return InvalidArgument(Worded{}, printable(whole, 4000), std::move(name), std::move(value), message,
                           std::move(override_switch), std::move(override_effect), true);
  }
  const std::string& name() const noexcept { return name_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& allowed() const noexcept { return allowed_; }
  const std::string& override_switch() const noexcept { return override_switch_; }
  const std::string& override_effect() const noexcept { return override_effect_; }
  bool described() const noexcept { return described_; }

 protected:
  struct Worded {};
  /// `message` is the whole what().
  InvalidArgument(Worded, const std::string& message, std::string name, std::string value,
                  std::string allowed, std::string override_switch = {}, std::string override_effect = {},
                  bool described = false)
      : Error(message),
        name_(std::move(name)),
        value_(std::move(value)),
        allowed_(std::move(allowed)),
        override_switch_(std::move(override_switch)),
        override_effect_(std::move(override_effect)),
        described_(described) {}

 private:
  std::string name_, value_, allowed_, override_switch_, override_effect_;
  bool described_ = false;
};

/// A command-line option's value that is not allowed (thrown by config/, the options layer, and app/). The
/// program prints "rmtsweep <command>: invalid --<option> '<value>': <allowed>" and exits with status 2.
class InvalidOption : public InvalidArgument {
 public:
  InvalidOption(const std::string& option, const std::string& value, const std::string& allowed)
      : InvalidArgument(Worded{},
                        "invalid --" + option + " '" + printable(value) + "': " + printable(allowed, 4000),
                        option, value, allowed) {}
  /// An option refused as a whole rather than for its value (an unknown option, one given twice,
  /// one missing its value): `message` is the whole text, e.g. "unknown option '--foo'; allowed: ...";
  /// allowed() is that message too. Exit status 2 as for any InvalidOption.
  static InvalidOption described(std::string option, std::string value, const std::string& message) {
    return InvalidOption(Described{}, std::move(option), std::move(value), message);
  }
  const std::string& option() const noexcept { return name(); }

 private:
  struct Described {};
  InvalidOption(Described, std::string option, std::string value, const std::string& message)
      : InvalidArgument(Worded{}, printable(message, 4000), std::move(option), std::move(value), message, {},
                        {}, true) {}
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

/// An HDF5 call failed. what() is one line, "<call> failed: <cause>", the cause being the
/// operating system's error where HDF5's file driver met one ("No space left on device"), else
/// the innermost message of HDF5's error stack; the whole stack is kept apart (stack()), for
/// `--verbose` (RMTSWEEP_VERBOSE=1).
class Hdf5Error : public Error {
 public:
  /// What HDF5's error stack says of a failure's cause.
  struct Cause {
    int os_error = 0;                       ///< the errno a file driver reported (0: none)
    bool truncated = false;                 ///< the file is shorter than its superblock says (H5E_TRUNCATED)
    bool write_failed = false;              ///< a write to the file failed (H5E_WRITEERROR)
    unsigned long long expected_bytes = 0;  ///< with truncated: the size HDF5 expected (0: unknown)
  };
  /// A failure found by rmtsweep's own HDF5 layer (no HDF5 stack): `message` is the whole text.
  explicit Hdf5Error(const std::string& message) : Error(message) {}
  /// `call` failed with `cause_text`; `stack` holds HDF5's frames, one a line, outermost first.
  Hdf5Error(const std::string& call, const std::string& cause_text, std::string stack, Cause cause)
      : Error(call + " failed: " + cause_text), stack_(std::move(stack)), cause_(cause) {}
  const std::string& stack() const noexcept { return stack_; }
  const Cause& cause() const noexcept { return cause_; }

 private:
  std::string stack_;
  Cause cause_;
};

/// A file could not be read or written, as the user needs to hear it, in one line:
/// "<path>: cannot <operation>: <cause>; <what to do>", e.g.
/// "out.h5: cannot create the sweep file: No space left on device; free space ... ".
/// Made from an Hdf5Error by io::file_error (include/rmtsweep/io/file_error.hpp), which keeps
/// its stack as detail() for `--verbose`.
class FileIoError : public Error {
 public:
  FileIoError(std::string path, const std::string& operation, const std::string& cause,
              const std::string& advice, std::string detail = {}, int os_error = 0)
      : Error(printable(path) + ": cannot " + operation + ": " + cause +
              (advice.empty() ? "" : "; " + advice)),
        path_(std::move(path)),
        detail_(std::move(detail)),
        os_error_(os_error) {}
  const std::string& path() const noexcept { return path_; }
  /// HDF5's error stack of the failure (one frame a line), or empty.
  const std::string& detail() const noexcept { return detail_; }
  int os_error() const noexcept { return os_error_; }
  /// The same error with `note` appended to its message.
  FileIoError with_note(const std::string& note) const {
    return FileIoError(Noted{}, std::string(what()) + note, path_, detail_, os_error_);
  }

 private:
  struct Noted {};
  FileIoError(Noted, const std::string& message, std::string path, std::string detail, int os_error)
      : Error(message), path_(std::move(path)), detail_(std::move(detail)), os_error_(os_error) {}
  std::string path_, detail_;
  int os_error_ = 0;
};

/// An error some ranks of MPI_COMM_WORLD met (a full disk under one group leader's write, a file the
/// others never touch) that every rank has learnt of at a point where they all meet, thrown on every rank
/// alike: `main` prints the cause on the ranks that met it and ends every rank with exit status 1,
/// without MPI_Abort (whose banner buries the one line; mpirun adds only its note that a process exited
/// non-zero). cause() is null on the ranks that did not meet it.
class AgreedFailure : public Error {
 public:
  explicit AgreedFailure(std::exception_ptr cause)
      : Error("failed on another rank (its message is above)"), cause_(std::move(cause)) {}
  const std::exception_ptr& cause() const noexcept { return cause_; }

 private:
  std::exception_ptr cause_;
};

/// Throws MpiError when an MPI call did not return MPI_SUCCESS.
#define RMTSWEEP_MPI_CHECK(call)                                                    \
  do {                                                                              \
    const int rmtsweep_mpi_rc_ = (call);                                            \
    if (rmtsweep_mpi_rc_ != 0) throw ::rmtsweep::MpiError(rmtsweep_mpi_rc_, #call); \
  } while (false)

}  // namespace rmtsweep
