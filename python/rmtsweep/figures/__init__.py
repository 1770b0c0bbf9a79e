"""The figures of `rmtsweep plot` as functions (matplotlib).

Each takes `source`, an assembled sweep file or a phase file (`rmtsweep assemble --output`): a path or an
open h5py.File, and returns matplotlib Figures made without pyplot (a notebook shows a returned Figure;
Figure.savefig writes it). A figure with more panels than a page holds (9) comes as several pages: the
functions return a list of Figures, one a page, and none of the panels is left out.

    import rmtsweep.figures as figures
    pages = figures.overlap_vs_snr("out/example.h5")   # [Figure]: one panel per (delta, gamma)
    pages[0].savefig("overlap.pdf")
    figures.draw_all("out/example.h5", "figures", format="svg")   # what `rmtsweep plot` writes

Raises rmtsweep.InvalidFile for a file without /phase (run `rmtsweep assemble` first) and
rmtsweep.InvalidOption for a figure the file cannot have (a phase diagram over an axis of one value, a
spectrum of a point that is not done).
"""
import contextlib
import os

import h5py

from ..errors import InvalidOption
from ..files import open_h5
from .common import (CURVE_FIGURES, FORMATS, OVERLAP_BY_D_FIGURE, SPECTRUM_FIGURE, THRESHOLD_VS_D_FIGURE, Phase,
                     page_name, save)
from .finite_size import finite_size_figures, overlap_vs_snr_by_d_pages, threshold_vs_d_pages
from .phase import cell_panels, curves_vs_snr_pages, phase_axes, phase_diagram_pages, phase_diagrams, phase_figures
from .refinement import refinement_figures, refinement_pages
from .spectrum import spectrum_figure, spectrum_point

__all__ = ["phase_diagram", "overlap_vs_snr", "top_eigenvalue_vs_snr", "ridge_accuracy_vs_snr", "threshold_vs_d",
           "overlap_vs_snr_by_d", "spectrum", "refinement", "draw_all", "figure_names", "FORMATS"]


@contextlib.contextmanager
def opened(source):
    """(h5py.File, Phase) of a path (opened read-only and closed after) or of an open h5py.File."""
    if isinstance(source, h5py.File):
        yield source, Phase(source)
        return
    with open_h5(source) as h5:
        yield h5, Phase(h5)


def figures_only(pages):
    return [fig for _, fig in pages]


def phase_diagram(source, weighting=None, axis="delta"):
    """The mean overlap over (axis, snr) at the largest d for one weighting (the first by default), one panel
    per value of the other axis, with the theoretical and empirical thresholds: a list of Figures (pages)."""
    with opened(source) as (_, phase):
        varying = [name for name, *_ in phase_axes(phase)]
        if axis not in varying:
            raise InvalidOption("axis", axis, "an axis of more than one value: " + (", ".join(varying) or "none"))
        w = 0 if weighting is None else (phase.weighting.index(weighting) if weighting in phase.weighting else None)
        if w is None:
            raise InvalidOption("weighting", weighting, "a weighting of the sweep: " + ", ".join(phase.weighting))
        return figures_only(phase_diagram_pages(phase, axis, w))


def _curves(source, quantity, label, name, **theory):
    with opened(source) as (_, phase):
        return figures_only(curves_vs_snr_pages(phase, quantity, label, name, **theory))


def overlap_vs_snr(source):
    """Overlap |ûᵀu|² against snr at the largest d, one colour per weighting, theory as lines; one panel per
    (delta, gamma): a list of Figures (pages)."""
    return _curves(source, "overlap", "overlap |ûᵀu|²", CURVE_FIGURES[0], theory="overlap")


def top_eigenvalue_vs_snr(source):
    """The top eigenvalue of S against snr, with the predicted λ_S and the bulk edge: a list of Figures."""
    return _curves(source, "top_eigenvalue", "top eigenvalue λ₁ of S", CURVE_FIGURES[1], theory="top_eigenvalue",
                   edge=True)


def ridge_accuracy_vs_snr(source):
    """The ridge classifier's test accuracy against snr per weighting: a list of Figures (pages)."""
    return _curves(source, "ridge_accuracy", "ridge test accuracy", CURVE_FIGURES[2])


def threshold_vs_d(source):
    """Empirical thresholds against d^(-1/3) with their errors and the fit's extrapolation to d -> infinity
    (a sweep over several d): a list of Figures, empty when no line has thresholds at two sizes."""
    with opened(source) as (_, phase):
        return figures_only(threshold_vs_d_pages(phase)) if THRESHOLD_VS_D_FIGURE in finite_size_figures(phase) else []


def overlap_vs_snr_by_d(source):
    """Overlap against snr, one colour per d, per weighting (a sweep over several d): a list of Figures."""
    with opened(source) as (_, phase):
        return figures_only(overlap_vs_snr_by_d_pages(phase)) if phase.d.size >= 2 else []


def spectrum(source, point=None):
    """The eigenvalue histogram of one done point (its index in /points; by default one chosen above the
    threshold) against the bulk law: a Figure. Needs the sweep file (a phase file has no points)."""
    with opened(source) as (h5, phase):
        notes = []
        index = spectrum_point(h5, phase, None if point is None else str(point), notes)
        if index is None:
            raise InvalidOption("point", point, "; ".join(notes))
        return spectrum_figure(h5, phase, index)


def refinement(source):
    """After `rmtsweep refine`: per line, the grid's detected fraction, the refined points and the probit fit
    with its threshold: a list of Figures, empty without refined points."""
    with opened(source) as (h5, phase):
        return figures_only(refinement_pages(h5, phase)) if refinement_figures(h5, phase) else []


def figure_names(source, point=None):
    """The files (without extension) draw_all writes for `source`, the spectrum's point (None: none is
    drawn) and notes on what is not drawn. Raises InvalidOption for a `point` the file cannot draw."""
    with opened(source) as (h5, phase):
        notes = []
        index = spectrum_point(h5, phase, None if point is None else str(point), notes)
        names = (phase_figures(phase) + [name for base in CURVE_FIGURES for name in curve_names(phase, base)]
                 + finite_size_figures(phase) + ([SPECTRUM_FIGURE] if index is not None else [])
                 + refinement_figures(h5, phase))
        return names, index, notes


def curve_names(phase, base):
    count = len(cell_panels(phase))
    return [page_name(base, page, count) for page in range(count)]


def draw_all(source, out, dpi=110, format="png", point=None, notes=None):
    """Every figure of `source` into the directory `out` (created) as `format` (png, pdf or svg), each page a
    file <name>[_p<page>].<format>; the paths written, in order. Overwrites figures of the same names (the
    command line refuses that without --force). Notes on figures not drawn are appended to `notes`."""
    if format not in FORMATS:
        raise InvalidOption("format", format, "allowed: " + ", ".join(FORMATS))
    notes = [] if notes is None else notes
    os.makedirs(out, exist_ok=True)
    with opened(source) as (h5, phase):
        index = spectrum_point(h5, phase, None if point is None else str(point), notes)
        pages = phase_diagrams(phase)
        if not pages:
            notes.append("delta and gamma each take one value: no phase diagram")
        overlap, top, ridge = CURVE_FIGURES
        pages += curves_vs_snr_pages(phase, "overlap", "overlap |ûᵀu|²", overlap, theory="overlap")
        pages += curves_vs_snr_pages(phase, "top_eigenvalue", "top eigenvalue λ₁ of S", top, theory="top_eigenvalue",
                                     edge=True)
        pages += curves_vs_snr_pages(phase, "ridge_accuracy", "ridge test accuracy", ridge)
        sizes = finite_size_figures(phase)
        if THRESHOLD_VS_D_FIGURE in sizes:
            pages += threshold_vs_d_pages(phase)
        elif phase.d.size >= 2:
            notes.append(f"no line has an empirical threshold at two sizes: no {THRESHOLD_VS_D_FIGURE}")
        if OVERLAP_BY_D_FIGURE in sizes:
            pages += overlap_vs_snr_by_d_pages(phase)
        if index is not None:
            pages.append((SPECTRUM_FIGURE, spectrum_figure(h5, phase, index)))
        if refinement_figures(h5, phase):
            pages += refinement_pages(h5, phase)
        return [save(fig, out, name, dpi, format) for name, fig in pages]
