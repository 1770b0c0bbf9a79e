"""`rmtsweep plot`: the command-line entry point of the figures (python/rmtsweep_plot.py runs main).

The one place of the package that prints messages and exits: the library raises InvalidOption (exit 2),
InvalidFile and FileProblem (exit 1), DamagedFile (exit 4), and this turns them into rmtsweep's one-line
messages.
"""
import argparse
import os
import sys
import warnings

from .errors import DamagedFile, FileProblem, InvalidFile, InvalidOption, StalePhaseWarning, file_problem
from .files import check_file, check_phase_checksums
from .plot_options import DPI_MAX, DPI_MIN, FORMATS

DESCRIPTION = """Figures from an assembled rmtsweep sweep file or phase file (PNG, PDF or SVG).

    rmtsweep plot FILE.h5 --output DIR [--format png|pdf|svg] [--dpi N] [--point INDEX] [--force]
    /usr/bin/python3 python/rmtsweep_plot.py FILE.h5 --output DIR

Reads /phase (written by `rmtsweep assemble`), /points and /spectra, and writes one file a figure, each
drawn 3.4 in wide (one column of a two-column paper), all its panels in it (.png by default):
  phase_delta                  mean overlap over (delta, snr), one panel per weighting on one colour
                               scale: the theory's population and sample thresholds, the measured
                               thresholds with their errors, marks for those above (or below) the grid
  phase_gamma                  the same over (gamma, snr) (when gamma varies)
  overlap_vs_snr               overlap against snr, the weightings side by side, theory as lines;
                               one panel per (delta, gamma)
  top_eigenvalue_vs_snr        top eigenvalue over the bulk edge against snr, with lambda_S / edge
  ridge_accuracy_vs_snr        downstream ridge accuracy against snr per weighting, chance at 0.5
  spectrum                     eigenvalue histogram of one point against kappa (MP_delta [x] MP_gamma)
and, when the sweep has several embedding dimensions d (finite-size scaling):
  threshold_vs_d               measured thresholds against d^(-1/3) with their bootstrap errors, the
                               fit thr_inf + a x (+ b x^2) and its extrapolation to d -> infinity
  overlap_vs_snr_by_d          overlap against snr, one colour per d, the d -> infinity theory once;
                               one panel per weighting (at the middle delta and gamma)
and, after `rmtsweep refine` (a /refine group and /phase/refined_threshold_snr):
  refinement                   per refined line, the grid's detected fraction, the points the
                               refinement added (detected at 1, not at 0) and the fitted probit curve
The figures of one d show the largest (their captions say which). A phase file (`rmtsweep assemble FILE
--output PHASE.h5`) has no points: no spectrum. It refuses (exit 2) to overwrite figures already in DIR
unless --force is given, and draws nothing (exit 4) where a /phase dataset's checksum fails: `rmtsweep
assemble FILE.h5` rebuilds /phase. A /phase built from other points than the sweep file holds now is said
(STALE) before the figures. Needs Debian's python3-h5py, python3-xarray, python3-h5netcdf and
python3-matplotlib. The same figures as functions of a Dataset: python/rmtsweep/figures
(rmtsweep.figures.overlap_vs_snr(rmtsweep.open_phase(path), delta=0.5), ...).
"""


def parse_dpi(text):
    allowed = f"allowed: an integer from {DPI_MIN} to {DPI_MAX} (dots per inch)"
    try:
        dpi = int(text)
    except ValueError:
        raise InvalidOption("--dpi", text, allowed) from None
    if not DPI_MIN <= dpi <= DPI_MAX:
        raise InvalidOption("--dpi", text, allowed)
    return dpi


def check_out(out):
    """--output must be a directory, or a path whose nearest existing ancestor is one (it is created)."""
    allowed = "allowed: a directory, or a path that does not exist yet (it is created)"
    if os.path.exists(out) and not os.path.isdir(out):
        raise InvalidOption("--output", out, allowed + "; this is an existing file")
    ancestor = os.path.dirname(os.path.abspath(out))
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise InvalidOption("--output", out, allowed + f"; {ancestor} is a file, not a directory")


def check_overwrite(out, names, force):
    """Figures from an earlier plot are not replaced unless --force says so."""
    existing = [name for name in names if os.path.lexists(os.path.join(out, name))]
    if existing and not force:
        shown = ", ".join(existing[:3]) + (f" and {len(existing) - 3} more" if len(existing) > 3 else "")
        raise InvalidOption("--output", out, f"a directory without the figures this draws: it already holds {shown}; "
                                             "pass --force to overwrite them, or choose another --output")


def check_point_syntax(point_text):
    """--point is an index (>= 0) whatever the file holds: refused as typed before the file is read,
    so that a bad value is named even in a file that cannot be plotted yet (no /phase)."""
    if point_text is None:
        return
    try:
        index = int(point_text)
    except ValueError:
        index = -1
    if index < 0:
        raise InvalidOption("--point", point_text, "allowed: the index of a done point, an integer >= 0")


def main(argv=None):
    # The one --help format of every rmtsweep command (src/app/command_line.hpp): its usage line, 100 columns,
    # help beside the names from column 30 at most, "-h, --help  this help", defaults as "(default X)".
    parser = argparse.ArgumentParser(
        prog="rmtsweep plot", description=DESCRIPTION.split("\n")[0], add_help=False,
        usage="rmtsweep plot FILE.h5 --output DIR [--format png|pdf|svg] [--dpi N] [--point I] [--force]",
        formatter_class=lambda prog: argparse.HelpFormatter(prog, width=100, max_help_position=30))
    parser.add_argument("file", metavar="FILE.h5", help="an assembled sweep file (rmtsweep assemble FILE.h5) or a "
                                                       "phase file (rmtsweep assemble FILE.h5 --output PHASE.h5)")
    # The defaults are plot's own; `rmtsweep plot --help` shows them, and the option table of the C++ commands
    # repeats them (src/app/command_options.cpp), which tests/cli/style/test_option_table.cpp compares.
    parser.add_argument("--output", "--out", dest="output", default="figures", metavar="DIR",
                        help="directory for the figures (created); --out is the same (default %(default)s)")
    parser.add_argument("--format", default="png", metavar="png|pdf|svg",
                        help="file format of the figures: " + ", ".join(FORMATS) + " (default %(default)s)")
    parser.add_argument("--point", default=None, metavar="I",
                        help="point index of the spectrum, a done point; without it one is chosen")
    parser.add_argument("--dpi", default="200", metavar="N",
                        help=f"resolution of PNG files (and of PDF/SVG rasters), {DPI_MIN} to {DPI_MAX} "
                             "(default %(default)s)")
    parser.add_argument("--force", action="store_true", help="overwrite figures of the same names in --output")
    parser.add_argument("-h", "--help", action="help", help="this help")
    args = parser.parse_args(argv)
    try:
        # Everything is checked before the first file is written.
        check_point_syntax(args.point)
        if args.format not in FORMATS:
            raise InvalidOption("--format", args.format, "allowed: " + ", ".join(FORMATS))
        check_file(args.file)
        dpi = parse_dpi(args.dpi)
        check_out(args.output)
        check_phase_checksums(args.file)  # /phase as assemble wrote it, or nothing drawn (exit 4)
        # The figures only now: a refusal above answers without importing matplotlib and xarray (0.3 s).
        import matplotlib

        matplotlib.use("Agg")  # files only, no display: before pyplot is imported by the figures
        from .figures import draw_all, figure_names
        from .figures.data import as_dataset

        with warnings.catch_warnings():  # said once, below, as plot's own warning line
            warnings.simplefilter("ignore", StalePhaseWarning)
            data = as_dataset(args.file)  # read once for both
        names, index, _ = figure_names(data, args.point)
        check_overwrite(args.output, [f"{name}.{args.format}" for name in names], args.force)
        notes = []
        stale = data.attrs.get("rmtsweep_stale")  # open_phase's, said before the figures: /phase as it is
        if stale:
            print(f"rmtsweep plot: warning: {stale}", file=sys.stderr)
        for path in draw_all(data, args.output, dpi, args.format, index, notes=notes):
            print(path)
        for note in notes:
            print(f"rmtsweep plot: {note}", file=sys.stderr)
    except InvalidOption as e:
        parser.exit(2, f"rmtsweep plot: {e}\n")
    except (FileProblem, InvalidFile) as e:
        parser.exit(1, f"rmtsweep plot: error: {e}\n")
    except DamagedFile as e:
        parser.exit(4, f"rmtsweep plot: error: {e}\n")
    except OSError as e:  # a figure not written (a full disk), a dataset not read (a damaged file)
        written = e.filename is not None and os.path.abspath(str(e.filename)) != os.path.abspath(args.file)
        problem = file_problem(str(e.filename) if written else args.file,
                               "write the figure" if written else "read the sweep file", e)
        parser.exit(1, f"rmtsweep plot: error: {problem}\n")
    return 0


if __name__ == "__main__":  # python -m rmtsweep.cli FILE.h5 --out DIR
    sys.exit(main())
