#!/usr/bin/python3
"""PNG figures from an rmtsweep sweep file (after `rmtsweep assemble FILE.h5`).

    rmtsweep plot FILE.h5 --out DIR [--point INDEX] [--dpi N] [--force]
    /usr/bin/python3 python/rmtsweep_plot.py FILE.h5 --out DIR

Reads /phase (written by `rmtsweep assemble`), /points and /spectra, and writes:
  phase_delta_<weighting>.png  mean overlap over (delta, snr) with the theoretical population
                               and sample thresholds and the empirical thresholds (when delta varies)
  phase_gamma_<weighting>.png  the same over (gamma, snr) (when gamma varies)
  overlap_vs_snr.png           overlap against snr, one colour per weighting, theory as lines
  top_eigenvalue_vs_snr.png    top eigenvalue against snr, with lambda_S and the bulk edge
  ridge_accuracy_vs_snr.png    downstream ridge accuracy against snr per weighting
  spectrum.png                 eigenvalue histogram of one point against kappa (MP_delta [x] MP_gamma)
and, when the sweep has several embedding dimensions d (finite-size scaling):
  threshold_vs_d.png           empirical thresholds against d^(-1/3) with their bootstrap errors, the
                               fit thr_inf + a x (+ b x^2) and its extrapolation to d -> infinity
  overlap_vs_snr_by_d.png      overlap against snr, one colour per d, per weighting
and, after `rmtsweep refine` (a /refine group and /phase/refined_threshold_snr):
  refinement.png               per line, the grid's detected fraction, the points the refinement added
                               (detected at 1, not at 0) and the fitted probit curve with its threshold
The figures above that show one d show the largest (their titles say so). /phase has the axes
weighting x d x delta x gamma x snr; a file assembled before d was an axis (no /phase/d) is read
as a sweep with one d.
It refuses (exit 2) to overwrite figures already in DIR unless --force is given.
Needs Debian's python3-h5py, python3-matplotlib and python3-numpy.
"""
import argparse
import os
import sys

import h5py

# The figures, by family, in python/rmtsweep_plot_*.py beside this script. fixed_parameters is
# imported for tests/python/plot, which reach it through this module.
from rmtsweep_plot_common import (CURVE_FIGURES, DPI_MAX, DPI_MIN, OVERLAP_BY_D_FIGURE, SPECTRUM_FIGURE,
                                  THRESHOLD_VS_D_FIGURE, FileProblem, InvalidOption, Phase, file_problem,
                                  fixed_parameters)  # noqa: F401
from rmtsweep_plot_finite_size import finite_size_figures, overlap_vs_snr_by_d, threshold_vs_d
from rmtsweep_plot_phase import curves_vs_snr, phase_diagrams, phase_figures
from rmtsweep_plot_refinement import refinement, refinement_figures
from rmtsweep_plot_spectrum import spectrum, spectrum_point


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
    """--out must be a directory, or a path whose nearest existing ancestor is one (it is created)."""
    allowed = "allowed: a directory, or a path that does not exist yet (it is created)"
    if os.path.exists(out) and not os.path.isdir(out):
        raise InvalidOption("--out", out, allowed + "; this is an existing file")
    ancestor = os.path.dirname(os.path.abspath(out))
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise InvalidOption("--out", out, allowed + f"; {ancestor} is a file, not a directory")

def check_overwrite(out, names, force):
    """Figures from an earlier plot are not replaced unless --force says so."""
    existing = [name for name in names if os.path.lexists(os.path.join(out, name))]
    if existing and not force:
        shown = ", ".join(existing[:3]) + (f" and {len(existing) - 3} more" if len(existing) > 3 else "")
        raise InvalidOption("--out", out, f"a directory without the figures this draws: it already holds {shown}; "
                                          "pass --force to overwrite them, or choose another --out")

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

def check_file(path):
    if not os.path.isfile(path):
        raise InvalidOption("FILE", path, "no such file" if not os.path.exists(path) else "not a regular file")
    try:
        open(path, "rb").close()
    except OSError as e:  # h5py.is_hdf5 would say only "not HDF5"
        raise file_problem(path, "open the sweep file", e) from None
    if os.path.getsize(path) == 0:
        raise InvalidOption("FILE", path, "an empty file (0 bytes): an interrupted copy, or a run stopped before it "
                                          "wrote its file; copy it again, or start the sweep again")
    if not h5py.is_hdf5(path):
        raise InvalidOption("FILE", path, "not an HDF5 file: an rmtsweep sweep file is needed")

def main(argv=None):
    parser = argparse.ArgumentParser(prog="rmtsweep plot", description=__doc__.split("\n")[0])
    parser.add_argument("file", help="an assembled sweep file (rmtsweep assemble FILE.h5)")
    parser.add_argument("--out", default="figures", help="directory for the PNG files (created)")
    parser.add_argument("--point", default=None, help="point index of the spectrum, a done point (default: chosen)")
    parser.add_argument("--dpi", default="110", help=f"resolution of the PNG files, {DPI_MIN} to {DPI_MAX}")
    parser.add_argument("--force", action="store_true", help="overwrite figures of the same names in --out")
    args = parser.parse_args(argv)
    try:
        # Everything is checked before the first file is written.
        check_point_syntax(args.point)
        check_file(args.file)
        dpi = parse_dpi(args.dpi)
        check_out(args.out)
        try:
            h5 = h5py.File(args.file, "r")
        except OSError as e:
            raise file_problem(args.file, "open the sweep file", e) from None
        with h5:
            phase = Phase(h5)
            index = spectrum_point(h5, phase, args.point)
            names = (phase_figures(phase) + list(CURVE_FIGURES) + finite_size_figures(phase)
                     + ([SPECTRUM_FIGURE] if index is not None else []) + refinement_figures(h5, phase))
            check_overwrite(args.out, names, args.force)
            os.makedirs(args.out, exist_ok=True)
            draw(h5, phase, args.out, dpi, index)
    except InvalidOption as e:
        parser.exit(2, f"rmtsweep plot: {e}\n")
    except FileProblem as e:
        parser.exit(1, f"rmtsweep plot: error: {e}\n")
    except OSError as e:  # a figure not written (a full disk), a dataset not read (a damaged file)
        written = e.filename is not None and os.path.abspath(str(e.filename)) != os.path.abspath(args.file)
        problem = file_problem(str(e.filename) if written else args.file,
                               "write the figure" if written else "read the sweep file", e)
        parser.exit(1, f"rmtsweep plot: error: {problem}\n")
    return 0

def draw(h5, phase, out, dpi, index):
    if not phase_diagrams(phase, out, dpi):
        print("rmtsweep plot: delta and gamma each take one value: no phase diagram", file=sys.stderr)
    overlap, top, ridge = CURVE_FIGURES
    curves_vs_snr(phase, out, dpi, "overlap", "overlap |ûᵀu|²", overlap, theory="overlap")
    curves_vs_snr(phase, out, dpi, "top_eigenvalue", "top eigenvalue λ₁ of S", top, theory="top_eigenvalue",
                  edge=True)
    curves_vs_snr(phase, out, dpi, "ridge_accuracy", "ridge test accuracy", ridge)
    figures = finite_size_figures(phase)
    if THRESHOLD_VS_D_FIGURE in figures:
        threshold_vs_d(phase, out, dpi)
    elif phase.d.size >= 2:
        print(f"rmtsweep plot: no line has an empirical threshold at two sizes: no {THRESHOLD_VS_D_FIGURE}",
              file=sys.stderr)
    if OVERLAP_BY_D_FIGURE in figures:
        overlap_vs_snr_by_d(phase, out, dpi)
    if index is not None:
        spectrum(h5, phase, out, dpi, index)
    if refinement_figures(h5, phase):
        refinement(h5, phase, out, dpi)

if __name__ == "__main__":
    sys.exit(main())
