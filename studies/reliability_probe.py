#!/usr/bin/python3
"""The reliability probe of issue 16: bad inputs and injected faults, each with what must happen.

    /usr/bin/python3 studies/reliability_probe.py [--binary build/rmtsweep] [--only NAME ...] [--list]

Each case runs the real program (under mpirun where the command needs it) and passes when the
outcome is the promised one: a bad value refused up front (exit 2, one line naming the option and
the value as given), no std::bad_alloc, no MPI_ABORT banner, no hang (a time limit per case), a
fault reported and survived. Prints one line per case (PASS/FAIL/SKIP and why) and the counts;
exits 1 when a case failed. Cases that need a tmpfs (`mount`, as root) are skipped elsewhere.
docs/reliability.md ("Bad input, refused up front") gives the counts before and after the fixes.
"""
import argparse
import resource
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COMPARE = os.path.join(ROOT, "tests", "python", "compare_sweep_files.py")

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OPENBLAS_NUM_THREADS="1",
           OPENBLAS_CORETYPE=os.environ.get("OPENBLAS_CORETYPE", "SkylakeX"))
BANNER = "MPI_ABORT was invoked"

# A sweep of a few dozen points at d = 40: seconds on one core.
TINY = "d = 40\nT = 4\ncorrelation = prefix:2\nseed = 3\ntrials = 2\ndelta = 0.5,1\ngamma = 0.5\n" \
       "snr = 0:3:4\nweighting = mean,optimal\nstore_spectra = true\n"


# A sweep of about a thousand points at d = 200: seconds on two ranks, long enough to be acted on.
LONG = TINY.replace("d = 40", "d = 200").replace("trials = 2", "trials = 60")


class Result:
    def __init__(self, code, out, err, seconds, timed_out):
        self.code, self.out, self.err, self.seconds, self.timed_out = code, out, err, seconds, timed_out

    @property
    def text(self):
        return self.out + self.err

    def __repr__(self):
        last = [line for line in self.text.splitlines() if line.strip()][-3:]
        return f"exit {self.code}{' (timed out)' if self.timed_out else ''} after {self.seconds:.2f} s: " + \
            " | ".join(last)[:400]


class Probe:
    def __init__(self, binary, work):
        self.binary, self.work = binary, work

    def path(self, name):
        return os.path.join(self.work, name)

    def run(self, args, ranks=None, timeout=60, stdin=subprocess.DEVNULL, env=None, memory=None):
        """`rmtsweep args` (under mpirun -np ranks when ranks), killed with its group after timeout; with
        `memory` (bytes) its address space is limited to that, so that a case that grows does not take the
        machine's memory from others."""
        command = [self.binary] + args
        if ranks:
            command = ["mpirun", "-np", str(ranks), "--oversubscribe"] + command
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=stdin,
                                   env=env or ENV, start_new_session=True, text=True, errors="replace",
                                   preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_AS, (memory, memory)))
                                   if memory else None)
        try:
            out, err = process.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            timed_out = True
        return Result(process.returncode, out, err, time.monotonic() - start, timed_out)

    def config(self, name, text=TINY):
        path = self.path(name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def resume(self, config, output):
        """`rmtsweep run --resume` of `output` on two ranks."""
        return self.run(["run", "--config", config, "--output", output, "--resume"], ranks=2, timeout=300)

    def resume_problems(self, config, output, what="resume"):
        """[] when `resume` succeeds, else one problem saying `what` and how it ended."""
        resumed = self.resume(config, output)
        return [] if resumed.code == 0 else [f"{what}: {resumed}"]

    def sweep(self, name, ranks=2, extra=(), text=TINY):
        output = self.path(name)
        result = self.run(["run", "--config", self.config(name + ".ini", text), "--output", output, *extra],
                          ranks=ranks, timeout=300)
        return output, result


def clean(r):
    """No crash: neither bad_alloc nor MPI's abort banner nor a hang."""
    problems = []
    if r.timed_out:
        problems.append("hung")
    if "bad_alloc" in r.text:
        problems.append("bad_alloc")
    if BANNER in r.text:
        problems.append("MPI_ABORT banner")
    return problems


def refused(r, option, value, seconds=None):
    """Exit 2 with one line naming --option and the value as given."""
    problems = clean(r)
    if r.code != 2:
        problems.append(f"exit {r.code}, not 2")
    if f"--{option}" not in r.err:
        problems.append(f"--{option} not named")
    if value is not None and value not in r.err:
        problems.append(f"the value '{value}' not shown")
    if seconds is not None and r.seconds > seconds:
        problems.append(f"took {r.seconds:.2f} s (limit {seconds} s)")
    return problems


CASES = []


def case(function):
    CASES.append(function)
    return function


# ---- crashes and hangs ---------------------------------------------------------------------------

@case
def point_of_a_huge_d_is_refused_by_its_memory(p):
    return refused(p.run(["point", "--d", "100000"], ranks=1, timeout=60), "d", "100000")


@case
def point_of_a_giant_d_is_refused_by_its_memory(p):
    return refused(p.run(["point", "--d", "10000000"], ranks=1, timeout=60), "d", "10000000")


@case
def theory_finite_t_of_a_huge_d_is_refused(p):
    return refused(p.run(["theory", "--d", "100000", "--bulk", "finite-T"], timeout=60, memory=4 << 30), "d",
                   "100000", seconds=10)


@case
def theory_finite_t_of_a_giant_d_is_refused_at_once(p):
    return refused(p.run(["theory", "--d", "10000000", "--bulk", "finite-T"], timeout=60, memory=4 << 30), "d",
                   "10000000", seconds=10)


def fifo(p):
    path = p.path("fifo")
    if not os.path.exists(path):
        os.mkfifo(path)
    return path


@case
def run_with_a_fifo_config_is_refused_at_once(p):
    return refused(p.run(["run", "--config", fifo(p), "--output", p.path("f.h5")], ranks=1, timeout=20),
                   "config", fifo(p), seconds=5)


@case
def run_with_dev_zero_config_is_refused(p):
    r = p.run(["run", "--config", "/dev/zero", "--output", p.path("z.h5")], ranks=1, timeout=20)
    return refused(r, "config", "/dev/zero", seconds=5) + (["wrote a file"] if os.path.exists(p.path("z.h5")) else [])


@case
def run_with_a_directory_config_is_refused(p):
    return refused(p.run(["run", "--config", p.work, "--output", p.path("dir.h5")], ranks=1, timeout=20),
                   "config", p.work, seconds=5)


def refused_file(r, seconds=5):
    problems = clean(r)
    if r.code != 2:
        problems.append(f"exit {r.code}, not 2")
    if r.seconds > seconds:
        problems.append(f"took {r.seconds:.2f} s")
    return problems


@case
def status_of_a_fifo_is_refused_at_once(p):
    return refused_file(p.run(["status", fifo(p)], timeout=20))


@case
def assemble_of_a_fifo_is_refused_at_once(p):
    return refused_file(p.run(["assemble", fifo(p)], timeout=20))


@case
def recover_of_a_fifo_is_refused_at_once(p):
    return refused_file(p.run(["recover", fifo(p)], timeout=20))


@case
def refine_of_a_fifo_is_refused_at_once(p):
    return refused_file(p.run(["refine", fifo(p)], ranks=1, timeout=20))


@case
def plot_of_a_fifo_is_refused_at_once(p):
    return refused_file(p.run(["plot", fifo(p), "--out", p.path("figs_fifo")], timeout=20))


@case
def status_of_a_character_device_is_refused(p):
    return refused_file(p.run(["status", "/dev/zero"], timeout=20))


@case
def resume_of_a_fifo_output_is_refused_at_once(p):
    return refused(p.run(["run", "--config", p.config("fifo.ini"), "--output", fifo(p), "--resume"], ranks=1,
                         timeout=20), "output", fifo(p), seconds=5)


def long_list(count):
    return ",".join(["1"] * count)


@case
def a_long_axis_list_is_parsed_in_linear_time(p):
    # 250 000 items of one value: refused as not distinct, within a second or two.
    r = p.run(["run", "--config", p.config("long.ini", TINY.replace("snr = 0:3:4", "snr = " + long_list(250000))),
               "--output", p.path("long.h5")], ranks=1, timeout=120)
    return refused(r, "snr", None, seconds=5)


@case
def a_ten_megabyte_axis_line_is_refused_in_seconds(p):
    r = p.run(["run", "--config",
               p.config("longer.ini", TINY.replace("snr = 0:3:4", "snr = " + long_list(5000000))),
               "--output", p.path("longer.h5")], ranks=1, timeout=300)
    return refused(r, "snr", None, seconds=15)


@case
def a_range_count_above_the_cap_states_the_cap(p):
    r = p.run(["run", "--config", p.config("cap.ini"), "--output", p.path("cap.h5"), "--snr", "0:1:2000000"],
              ranks=1, timeout=60)
    return refused(r, "snr", "0:1:2000000") + ([] if "1000000" in r.err else ["the cap is not stated"])


# ---- accepted, then every point fails ------------------------------------------------------------

@case
def run_refuses_a_tiny_gamma_up_front(p):
    r = p.run(["run", "--config", p.config("g.ini"), "--output", p.path("g.h5"), "--gamma", "1e-9"], ranks=1,
              timeout=60)
    return refused(r, "gamma", "1e-9") + (["wrote a file"] if os.path.exists(p.path("g.h5")) else [])


@case
def point_refuses_a_tiny_gamma_with_the_value_as_given(p):
    return refused(p.run(["point", "--gamma", "1e-8"], ranks=1, timeout=60), "gamma", "1e-8")


@case
def run_refuses_krylov_with_stored_spectra_before_the_file(p):
    r = p.run(["run", "--config", p.config("k.ini"), "--output", p.path("k.h5"), "--eigensolver", "krylov",
               "--store_spectra", "true"], ranks=1, timeout=60)
    return refused(r, "eigensolver", "krylov") + (["wrote a file"] if os.path.exists(p.path("k.h5")) else [])


@case
def run_refuses_a_giant_ntest_without_consent(p):
    r = p.run(["run", "--config", p.config("n.ini"), "--output", p.path("n.h5"), "--ntest", "1000000000000"],
              ranks=1, timeout=60)
    return refused(r, "ntest", "1000000000000") + (["wrote a file"] if os.path.exists(p.path("n.h5")) else [])


@case
def point_refuses_a_giant_ntest_without_consent(p):
    return refused(p.run(["point", "--ntest", "1000000000000"], ranks=1, timeout=60), "ntest", "1000000000000")


# ---- messages ------------------------------------------------------------------------------------

def foreign_file(p):
    path = p.path("foreign.h5")
    with h5py.File(path, "w") as f:
        f.create_dataset("points", data=np.arange(10.0))
        f.create_group("grid").attrs["units"] = "m"
    return path


def foreign_said(r, command):
    problems = refused_file(r)
    if "interrupted" in r.err:
        problems.append("called an interrupted creation")
    if "--force" in r.err:
        problems.append("suggests --force (overwriting another program's file)")
    if command == "refine" and "--resume" in r.err:
        problems.append("names a --resume refine does not have")
    return problems


@case
def status_names_another_programs_file_as_such(p):
    return foreign_said(p.run(["status", foreign_file(p)]), "status")


@case
def assemble_names_another_programs_file_as_such(p):
    return foreign_said(p.run(["assemble", foreign_file(p)]), "assemble")


@case
def refine_names_another_programs_file_as_such(p):
    return foreign_said(p.run(["refine", foreign_file(p)], ranks=1), "refine")


@case
def resume_names_another_programs_file_as_such(p):
    return foreign_said(p.run(["run", "--config", p.config("foreign.ini"), "--output", foreign_file(p), "--resume"],
                              ranks=1), "run")


@case
def point_krylov_with_spectrum_names_existing_options(p):
    r = p.run(["point", "--eigensolver", "krylov", "--spectrum", "--d", "40"], ranks=1)
    return refused(r, "eigensolver", "krylov") + (["names --engine, which does not exist"] if "--engine" in r.err else [])


@case
def a_config_line_without_a_key_is_shown(p):
    r = p.run(["run", "--config", p.config("eq.ini", TINY + " = 5\n"), "--output", p.path("eq.h5")], ranks=1)
    return refused(r, "config", None) + ([] if "= 5" in r.err else ["the line is not shown"])


def sweep_with_a_file_for_its_journal(p, name):
    """A finished sweep whose journal directory is replaced by a regular file (RuntimeError when the sweep
    failed: the case fails)."""
    output, r = p.sweep(name, ranks=1)
    if r.code != 0:
        raise RuntimeError(f"the sweep failed: {r}")
    shutil.rmtree(output + ".journal")
    open(output + ".journal", "w").close()
    return output


@case
def a_journal_path_that_is_a_file_is_said_so(p):
    output = sweep_with_a_file_for_its_journal(p, "jfile.h5")
    s = p.run(["status", output])
    problems = clean(s)
    if "missing" in s.out + s.err:
        problems.append("called missing")
    if "is a regular file, not the journal's directory" not in s.text:
        problems.append("not said to be a regular file")
    return problems


@case
def resume_with_a_journal_path_that_is_a_file_is_refused(p):
    output = sweep_with_a_file_for_its_journal(p, "jfile2.h5")
    r = p.run(["run", "--config", p.path("jfile2.h5.ini"), "--output", output, "--resume"], ranks=1)
    return refused(r, "resume", output)


def sigterm_once_written(command, output, delay, env=ENV):
    """Starts `command`, sends it SIGTERM `delay` s after `output` appears; the problems unless it exits 143.
    RuntimeError (the case fails) when it has not exited a minute later (it is killed with its group)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               start_new_session=True, text=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(output) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(delay)
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise RuntimeError("hung after SIGTERM") from None
    return [] if process.returncode == 143 else [f"exit {process.returncode}, not 143"]


def mpirun_sigterm(p, delay):
    output = p.path(f"term{delay}.h5")
    config = p.config(f"term{delay}.ini", LONG)
    problems = sigterm_once_written(["mpirun", "-np", "2", "--oversubscribe", p.binary, "run", "--config", config,
                                     "--output", output], output, delay)
    return problems + p.resume_problems(config, output)


@case
def sigterm_to_mpirun_exits_143(p):
    # Open MPI's mpirun exits 1 whenever it is itself signalled (orterun's abort callback sets
    # ORTE_ERROR_DEFAULT_EXIT_CODE), whatever its ranks return: not fixable inside rmtsweep.
    return mpirun_sigterm(p, 0.5)


@case
def sigterm_to_local_sh_exits_143(p):
    """jobs/local.sh passes SIGTERM to the ranks, which finish their points and exit 143, as the script does."""
    output = p.path("local_term.h5")
    config = p.config("local_term.ini", LONG)
    env = dict(ENV, RMTSWEEP=p.binary)
    problems = sigterm_once_written(["bash", os.path.join(ROOT, "jobs", "local.sh"), config, output, "2"], output, 0.5,
                                    env)
    again = subprocess.run(["bash", os.path.join(ROOT, "jobs", "local.sh"), config, output, "2"], capture_output=True,
                           text=True, env=env, timeout=300)
    if again.returncode != 0:
        problems.append(f"the same command again: exit {again.returncode}")
    return problems


# ---- the creation window -------------------------------------------------------------------------

def kill_at(p, name, delay, ranks=2):
    """Starts a run, kill -9 of every rank `delay` s after the file appears, then --resume."""
    output = p.path(name)
    config = p.config(name + ".ini")
    process = subprocess.Popen(["mpirun", "-np", str(ranks), "--oversubscribe", p.binary, "run", "--config",
                                config, "--output", output], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=ENV, start_new_session=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(output) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.0005)
    time.sleep(delay)
    for rank in children(process.pid):
        os.kill(rank, signal.SIGKILL)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    return output, config


@case
def kill_nine_in_the_creation_window_then_resume(p):
    reference, r = p.sweep("clean.h5")
    if r.code != 0:
        return [f"the clean run failed: {r}"]
    problems = []
    for delay in (0.0, 0.005, 0.010, 0.020, 0.040):
        output, config = kill_at(p, f"window{int(delay * 1000)}.h5", delay)
        resumed = p.resume(config, output)
        if resumed.code != 0:
            problems.append(f"{delay * 1000:.0f} ms: resume {resumed}")
            continue
        problems += [f"{delay * 1000:.0f} ms: {problem}" for problem in same_as(reference, output)]
    return problems


# ---- silent damage -------------------------------------------------------------------------------

def same_as(reference, output):
    """Problems when `output` differs from `reference` in more than the resumed run's own attributes."""
    ignored = []
    for name in ("runs", "run_1_eigensolver", "run_1_mpi_ranks", "run_1_ranks_per_point"):
        ignored += ["--ignore-attr", name]
    same = subprocess.run([sys.executable, COMPARE, reference, output, *ignored, "--ignore-dataset", "points/run"],
                          capture_output=True, text=True)
    return [] if same.returncode == 0 else ["differs from a clean run: " + " | ".join(same.stdout.splitlines()[:4])]


def children(pid):
    """The pids whose parent is `pid` (the ranks mpirun started)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found


def flip(path, dataset, row, column=None):
    """Overwrites one value of `dataset` in place (a flipped byte, as h5py writes it)."""
    with h5py.File(path, "r+") as f:
        data = f[dataset]
        if column is None:
            data[row] = 1.5e91
        else:
            data[row, column] = 1.5e91


@case
def flipped_bytes_in_points_are_reported_and_repaired(p):
    output, r = p.sweep("flip.h5")
    if r.code != 0:
        return [f"the sweep failed: {r}"]
    reference = p.path("flip_reference.h5")
    shutil.copy(output, reference)
    flip(output, "points/overlap", 5)
    flip(output, "points/top_eigenvalues", 7, 1)
    flip(output, "spectra/d40/eigenvalues", 3, 10)
    status = p.run(["status", output])
    problems = clean(status)
    for index in ("5", "7", "3"):
        if f" {index} " not in status.out and f" {index}," not in status.out and f"{index}:" not in status.out:
            problems.append(f"point {index} not named by status")
    problems += p.resume_problems(p.path("flip.h5.ini"), output)
    with h5py.File(output, "r") as f:
        if np.nanmax(np.abs(f["points/overlap"][:])) > 1e90 or np.nanmax(np.abs(f["spectra/d40/eigenvalues"][:])) > 1e90:
            problems.append("--resume kept 1.5e91")
    return problems + same_as(reference, output)


def during_run(p, name, action):
    """A 2-rank sweep long enough to be acted on while it runs; `action(output)` once half of it is done."""
    text = LONG
    output = p.path(name)
    process = subprocess.Popen(["mpirun", "-np", "2", "--oversubscribe", p.binary, "run", "--config",
                                p.config(name + ".ini", text), "--output", output], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=ENV, start_new_session=True, text=True)
    deadline = time.monotonic() + 120
    acted = False
    while process.poll() is None and time.monotonic() < deadline:
        journal = os.path.join(output + ".journal", "run-0-rank-0.jrnl")
        if os.path.exists(journal) and os.path.getsize(journal) > 40000:
            action(output)
            acted = True
            break
        time.sleep(0.01)
    out, err = process.communicate(timeout=300)
    return Result(process.returncode, out, err, 0, False), acted, output


def journal_lost_during_run(p, name, action, said):
    """The run goes on, says the loss (a warning naming the journal file and `said`), and is not hurt."""
    r, acted, output = during_run(p, name, action)
    if not acted:
        return ["the run ended before its journal could be touched"]
    problems = clean(r)
    if ".journal/run-0-rank-0" not in r.err or said not in r.err:
        problems.append(f"not said ('{said}'): " + r.err[-300:])
    return problems


@case
def a_journal_deleted_during_a_run_is_reported(p):
    return journal_lost_during_run(p, "jdel.h5", lambda out: shutil.rmtree(out + ".journal"), "removed")


@case
def a_journal_truncated_during_a_run_is_reported(p):
    def cut(output):
        with open(os.path.join(output + ".journal", "run-0-rank-0.jrnl"), "r+b") as f:
            f.truncate(100)
    return journal_lost_during_run(p, "jcut.h5", cut, "cut short")


@case
def recover_never_loses_a_done_point(p):
    output, r = p.sweep("lose.h5")
    if r.code != 0:
        return [f"the sweep failed: {r}"]
    journal = os.path.join(output + ".journal", "run-0-rank-0.jrnl")
    with open(journal, "r+b") as f:
        f.truncate(os.path.getsize(journal) // 2)
    with h5py.File(output, "r") as f:
        before = int(np.sum(f["points/status"][:] == 1))
    rec = p.run(["recover", output])
    problems = clean(rec)
    with h5py.File(output, "r") as f:
        after = int(np.sum(f["points/status"][:] == 1))
    if after < before:
        problems.append(f"recover left {after} of the {before} done points")
    return problems


# ---- file systems --------------------------------------------------------------------------------

class Tmpfs:
    def __init__(self, p, name, size):
        self.path = p.path(name)
        os.makedirs(self.path, exist_ok=True)
        self.ok = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", self.path],
                                 capture_output=True).returncode == 0

    def __enter__(self):
        return self

    def __exit__(self, *_):
        if self.ok:
            subprocess.run(["umount", "-l", self.path], capture_output=True)


class Skip(Exception):
    pass


@case
def refine_on_a_read_only_file_system_says_one_line(p):
    output, r = p.sweep("ro.h5", ranks=1)
    if r.code != 0:
        return [f"the sweep failed: {r}"]
    with Tmpfs(p, "ro_disk", "16m") as disk:
        if not disk.ok:
            raise Skip("cannot mount a tmpfs here")
        shutil.copy(output, disk.path)
        subprocess.run(["mount", "-o", "remount,ro", disk.path], check=True)
        r = p.run(["refine", os.path.join(disk.path, "ro.h5"), "--max-points", "4"], ranks=2)
        problems = clean(r)
        if r.code == 0:
            problems.append("exit 0 on a read-only file system")
        return problems


@case
def a_full_disk_during_a_run_says_one_line(p):
    text = LONG
    with Tmpfs(p, "full_disk", "8m") as disk:
        if not disk.ok:
            raise Skip("cannot mount a tmpfs here")
        output = os.path.join(disk.path, "full.h5")
        config = p.config("full.ini", text)
        process = subprocess.Popen(["mpirun", "-np", "2", "--oversubscribe", p.binary, "run", "--config", config,
                                    "--output", output], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
                                   start_new_session=True, text=True)
        deadline = time.monotonic() + 60
        while not os.path.exists(output) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)
        free = shutil.disk_usage(disk.path).free
        try:
            with open(os.path.join(disk.path, "filler"), "wb") as f:
                f.write(b"x" * max(free - 4096, 0))
        except OSError:  # the run took some of it meanwhile: the disk is full either way
            pass
        out, err = process.communicate(timeout=300)
        r = Result(process.returncode, out, err, 0, False)
        problems = clean(r)
        if r.code == 0:
            problems.append("exit 0 with a full disk")
        os.remove(os.path.join(disk.path, "filler"))
        return problems + p.resume_problems(config, output, "resume after freeing space")


@case
def assemble_with_room_for_phase_writes_it(p):
    output, r = p.sweep("asm.h5", ranks=2)
    if r.code != 0:
        return [f"the sweep failed: {r}"]
    scratch = p.path("asm_scratch.h5")
    shutil.copy(output, scratch)
    a = p.run(["assemble", scratch, "--quiet"])
    if a.code != 0:
        return [f"assemble: {a}"]
    with h5py.File(scratch, "r") as f:
        phase = sum(f["phase"][name].id.get_storage_size() for name in f["phase"] if isinstance(f["phase"][name], h5py.Dataset))
    size = os.path.getsize(output)
    with Tmpfs(p, "asm_disk", str(size + 3 * max(os.path.getsize(scratch) - size, phase) + 65536)) as disk:
        if not disk.ok:
            raise Skip("cannot mount a tmpfs here")
        shutil.copy(output, disk.path)
        r = p.run(["assemble", os.path.join(disk.path, "asm.h5"), "--quiet"])
        problems = clean(r)
        if r.code != 0:
            problems.append(f"refused with {shutil.disk_usage(disk.path).free} bytes free: {r}")
        return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "rmtsweep"))
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for c in CASES:
            print(c.__name__)
        return 0
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    with tempfile.TemporaryDirectory(prefix="rmtsweep_probe_") as work:
        probe = Probe(os.path.abspath(args.binary), work)
        for c in CASES:
            if args.only and not any(name in c.__name__ for name in args.only):
                continue
            start = time.monotonic()
            try:
                problems = c(probe)
                verdict = "FAIL" if problems else "PASS"
                detail = "; ".join(problems)
            except Skip as skip:
                verdict, detail = "SKIP", str(skip)
            except Exception as e:  # a case that cannot even be set up fails
                verdict, detail = "FAIL", f"{type(e).__name__}: {e}"
            counts[verdict] += 1
            print(f"{verdict} {c.__name__} ({time.monotonic() - start:.1f} s){': ' + detail if detail else ''}",
                  flush=True)
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped of "
          f"{sum(counts.values())} cases")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
