"""The exceptions of the rmtsweep package: every problem it finds is raised, never printed and exited on
(only the command-line entry point, rmtsweep.cli, turns them into messages and exit codes)."""
import os
import re


class RmtsweepError(Exception):
    """Base class of the errors this package raises."""


class InvalidOption(RmtsweepError, ValueError):
    """A bad option or argument value, worded as rmtsweep's InvalidOption: the option, the value as
    given and what is allowed (`rmtsweep plot` exits 2 on it)."""

    def __init__(self, option, value, allowed):
        super().__init__(f"invalid {option} '{value}': {allowed}")
        self.option, self.value, self.allowed = option, value, allowed


class InvalidFile(RmtsweepError):
    """A readable HDF5 file that is not what the call needs (no /phase yet, a phase file where the sweep
    file is needed, ...): the message names the file and what to do."""

    def __init__(self, path, problem):
        super().__init__(f"{path}: {problem}")
        self.path = path


class DamagedFile(RmtsweepError):
    """A file whose checksums fail in what the call reads (src/store/checksums.cpp's CRC-32s): the message
    names the datasets and what rebuilds them (`rmtsweep plot` exits 4 on it, as `status` and `assemble` do)."""

    def __init__(self, path, problem):
        super().__init__(f"{path}: {problem}")
        self.path = path


class StalePhaseWarning(UserWarning):
    """Warned by open_phase when /phase was built from other points than the sweep file holds now (a run or a
    refine added points since `rmtsweep assemble`): the tables show the points of then. The same sentence is in
    the Dataset's attribute `rmtsweep_stale`."""


class FileProblem(RmtsweepError, OSError):
    """A file that cannot be opened, read or written (one line, as rmtsweep's FileIoError: the cause and
    what to do; `rmtsweep plot` exits 1 on it)."""


ERRNO_ADVICE = {
    28: "its file system is full (df -h {dir}): free space there or write elsewhere",
    122: "your disk quota there is used up (quota -s): free space or write elsewhere",
    13: "check the permissions of the file and of its directory (ls -l {path})",
    1: "check the permissions of the file and of its directory (ls -l {path})",
    30: "its file system is mounted read-only: write elsewhere",
    5: "the storage reported a hardware or network error: check the file system (dmesg)",
    11: "another process holds the file open for writing (HDF5 file locking): wait for it, or close it there",
}


def file_problem(path, operation, error):
    """The FileProblem of a failed open, read or write of `path`: the cause (the OS error, or that the
    file is truncated to N of the M bytes HDF5 expects) and what to do."""
    text = str(error)
    if "truncated file" in text:
        expected = re.search(r"stored_eof = (\d+)", text)
        cause = "the file is truncated"
        if expected and os.path.exists(path):
            cause += f" ({os.path.getsize(path)} bytes of the {expected.group(1)} bytes HDF5 expects)"
        advice = ("an interrupted copy, a quota or a full disk cut it, and HDF5 cannot open any of it: copy it "
                  "again from where it came from, or restore a backup")
    elif getattr(error, "errno", None):
        cause = os.strerror(error.errno)
        advice = ERRNO_ADVICE.get(error.errno, "").format(dir=os.path.dirname(path) or ".", path=path)
    else:
        cause = text
        advice = "the file may be damaged"
    return FileProblem(f"{path}: cannot {operation}: {cause}" + (f"; {advice}" if advice else ""))
