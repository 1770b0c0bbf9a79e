"""The figures of `rmtsweep plot` as functions (matplotlib), drawn for one column of a two-column paper (3.4 in).

Each is `f(data, ax=None, **selection)`: `data` is the xarray.Dataset of rmtsweep.open_phase (or any
selection of it) or the path of an assembled sweep file or phase file; `selection` picks values along the axes
of /phase (weighting="optimal", delta=[0.5, 1.0], d=400, snr=slice(0, 2), ...); `ax` is an Axes to draw one
panel into (or a sequence of Axes, one a panel); without it the function makes a Figure of all the panels
(faceted, sharing their axes) with a title, one legend below the panels and a caption line of the fixed
parameters. Each returns the Figure (made without pyplot: a notebook shows it, Figure.savefig writes it).

    import rmtsweep, rmtsweep.figures as figures
    phase = rmtsweep.open_phase("out/example.h5")
    figures.phase_diagram(phase.sel(delta=slice(0.2, 1.5)))            # one panel per weighting
    figures.overlap_vs_snr(phase, delta=[0.5, 1.0]).savefig("overlap.pdf")
    figures.draw_all("out/example.h5", "figures", format="svg")       # what `rmtsweep plot` writes

The figures' theory along fine axes, the thresholds of `assemble --detection`'s rule and the config of the
captions come from the file the Dataset was read from (xarray keeps its path). Raises rmtsweep.InvalidFile for
a file without /phase (run `rmtsweep assemble` first) and rmtsweep.InvalidOption for what the data cannot
draw (a phase diagram over an axis of one value, a selection of values the file does not have, an `ax` that
does not fit the panels, a spectrum of a point that is not done).
"""
import os

from ..errors import InvalidOption
from ..files import open_h5
from .common import FORMATS, save
from .curves import overlap_vs_snr, ridge_accuracy_vs_snr, top_eigenvalue_vs_snr
from .data import as_dataset, selected, source_of
from .finite_size import has_threshold_vs_d, overlap_vs_snr_by_d, threshold_vs_d
from .phase import phase_axes, phase_diagram
from .refinement import REFINEMENT_FIGURE, has_refinement, refinement
from .spectrum import SPECTRUM_FIGURE, spectrum, spectrum_point

__all__ = ["phase_diagram", "overlap_vs_snr", "top_eigenvalue_vs_snr", "ridge_accuracy_vs_snr", "threshold_vs_d",
           "overlap_vs_snr_by_d", "spectrum", "refinement", "draw_all", "figure_names", "FORMATS"]


def middle(ds, *axes):
    """The middle value of each axis of several values: the selection of the figures that show one."""
    return {axis: ds[axis].values[(ds.sizes[axis] - 1) // 2] for axis in axes if ds.sizes[axis] > 1}


def plan(data, point=None, notes=None):
    """The figures draw_all draws for `data`: (name, function, keyword arguments) in order, and the spectrum's
    point (None: no spectrum). Notes on figures not drawn are appended to `notes`."""
    notes = [] if notes is None else notes
    ds = as_dataset(data)
    whole = selected(ds, {}, one_size=False)
    figures = [(f"phase_{axis}", phase_diagram, {"axis": axis}) for axis in phase_axes(whole)]
    if not figures:
        notes.append("delta and gamma each take one value: no phase diagram")
    figures += [("overlap_vs_snr", overlap_vs_snr, {}), ("top_eigenvalue_vs_snr", top_eigenvalue_vs_snr, {}),
                ("ridge_accuracy_vs_snr", ridge_accuracy_vs_snr, {})]
    if whole.sizes["d"] >= 2:
        if has_threshold_vs_d(whole):
            figures.append(("threshold_vs_d", threshold_vs_d, {}))
        else:
            notes.append("no line has a measured threshold at two sizes: no threshold_vs_d")
        figures.append(("overlap_vs_snr_by_d", overlap_vs_snr_by_d, middle(whole, "delta", "gamma")))
    index = None
    source = source_of(ds)
    if source is None:
        notes.append(f"a Dataset without its file: no {SPECTRUM_FIGURE}")
    else:
        with open_h5(source) as h5:
            index = spectrum_point(h5, whole, None if point is None else str(point), notes)
    if index is not None:
        figures.append((SPECTRUM_FIGURE, spectrum, {"point": index}))
    if has_refinement(whole):
        figures.append((REFINEMENT_FIGURE, refinement, {}))
    return ds, figures, index


def figure_names(data, point=None):
    """The files (without extension) draw_all writes for `data`, the spectrum's point (None: none is drawn) and
    notes on what is not drawn. Raises InvalidOption for a `point` the file cannot draw."""
    notes = []
    _, figures, index = plan(data, point, notes)
    return [name for name, _, _ in figures], index, notes


def draw_all(data, out, dpi=200, format="png", point=None, notes=None):
    """Every figure of `data` (a path, or an open_phase Dataset) into the directory `out` (created) as `format`
    (png, pdf or svg), one file <name>.<format> a figure; the paths written, in order. Overwrites figures of the
    same names (the command line refuses that without --force). Notes on figures not drawn go to `notes`."""
    if format not in FORMATS:
        raise InvalidOption("format", format, "allowed: " + ", ".join(FORMATS))
    ds, figures, _ = plan(data, point, notes)
    os.makedirs(out, exist_ok=True)
    return [save(function(ds, **arguments), out, name, dpi, format) for name, function, arguments in figures]
