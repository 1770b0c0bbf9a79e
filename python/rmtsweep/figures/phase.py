"""The phase diagram: the mean overlap over (δ or γ, snr), one panel per weighting (and per value of the other
axis), on one colour scale, with the theory's thresholds and the measured ones."""
import numpy as np

from matplotlib.lines import Line2D

from ..errors import InvalidOption
from .common import MAX_COLUMNS, OUTLINED, SNR_LABEL, OVERLAP_LABEL, LABEL_SIZE, TICK_SIZE, panel_axes, \
    title_panels
from .data import FINE, SYMBOLS, caption, facet_labels, rule_of, selected, unbroken, values

AXIS_LABELS = {"delta": r"$\delta = d/V$", "gamma": r"$\gamma = d/N$"}
THRESHOLD_COLOUR = "red"


def phase_axes(ds):
    """The axes of a phase diagram: delta and gamma where they take two values or more."""
    return [axis for axis in ("delta", "gamma") if ds.sizes[axis] > 1]


def phase_diagram(data, ax=None, *, axis=None, **selection):
    """The mean overlap over (`axis`, snr) at one d (the largest unless selected): one panel per weighting and
    value of the other axis, one colour scale and colorbar for all; the theory's population (dashed) and
    sample (solid) thresholds along a fine axis, the measured thresholds of the figures' rule with their
    bootstrap errors, and a mark (▲) at the top for each line whose threshold lies above the grid (▼ at the
    bottom: below it). `axis` is "delta" or "gamma" (by default the first that varies); `selection`, e.g.
    weighting="optimal" or gamma=0.25, picks values of the axes. Returns the Figure."""
    ds = selected(data, selection)
    varying = phase_axes(ds)
    axis = axis or (varying[0] if varying else "delta")
    if axis not in varying:
        raise InvalidOption("axis", axis, "an axis of two values or more in the selection: "
                                          + (", ".join(varying) or "none (delta and gamma take one value each)"))
    other = "gamma" if axis == "delta" else "delta"
    weightings = list(ds.weighting.values)
    panels = [(w, j) for j in range(ds.sizes[other]) for w in range(len(weightings))]
    finite_t = "theory_finite_t_threshold_snr" in ds and bool(np.isfinite(ds.theory_finite_t_threshold_snr).any())
    columns = len(weightings) if 1 < len(weightings) <= MAX_COLUMNS else None
    count = min(columns or len(panels), MAX_COLUMNS)
    layout = panel_axes(ax, len(panels), f"weighting × {other}", aspect={1: 0.75, 2: 0.95}.get(count, 1.15),
                        columns=columns, right=0.55)
    mesh = None
    marks = {}
    for a, (w, j) in zip(layout.axes, panels):
        mesh = draw_panel(a, ds, axis, other, w, j, marks)
    grid = ds.sizes[other] > 1
    title_panels(layout, [[str(weightings[w])] + (facet_labels(ds, {other: j}) if grid else []) for w, j in panels],
                 grid=grid and columns is not None)
    layout.label(AXIS_LABELS[axis], SNR_LABEL)
    bar = layout.axes[0].figure.colorbar(mesh, ax=layout.axes, shrink=0.9, aspect=25, pad=0.02)
    bar.set_label("mean " + OVERLAP_LABEL, fontsize=LABEL_SIZE, labelpad=2)
    bar.ax.tick_params(labelsize=TICK_SIZE, length=2)
    bar.outline.set_linewidth(0.5)
    handles = [(Line2D([], [], color="white", ls="--", lw=1.2, path_effects=OUTLINED), "population threshold"),
               (Line2D([], [], color="orange", lw=1.4), "sample threshold"),
               (marks.get("measured"), f"measured ({rule_of(ds)} rule)"),
               (marks.get("above"), "above the grid"), (marks.get("below"), "below the grid")]
    if finite_t:
        handles.append((marks.get("finite_t"), "finite-T (own draws)"))
    return layout.finish(handles, f"Phase diagram over ({SYMBOLS[axis]}, snr)",
                         caption(ds, "d", other, extra=f"lines: theory {unbroken('(d → ∞)')}; points: threshold ± its error"))


def edges(centres):
    """Cell edges around grid centres (for pcolormesh on a non-uniform grid)."""
    c = np.asarray(centres, dtype=float)
    if c.size == 1:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = (c[:-1] + c[1:]) / 2
    return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])


def draw_panel(ax, ds, axis, other, w, j, marks):
    """One weighting's heatmap at the other axis' value j, its theory and measured thresholds; the artists the
    legend shows are kept in `marks`."""
    at = {"weighting": w, "d": 0, other: j}
    x, snr = np.asarray(ds[axis].values, dtype=float), np.asarray(ds.snr.values, dtype=float)
    overlap = values(ds.overlap_mean.transpose("weighting", "d", axis, other, "snr"), keep=(axis, "snr"), **at)
    rows = edges(snr)
    if snr[0] >= 0:  # no cell below snr = 0
        rows[0] = max(rows[0], 0.0)
    mesh = ax.pcolormesh(edges(x), rows, overlap.T, vmin=0, vmax=1, cmap="viridis", shading="flat", rasterized=True)
    bottom, top = rows[0], rows[-1]
    fine = f"{axis}_fine"
    for name, style in (("pop", dict(color="white", ls="--", lw=1.2, path_effects=OUTLINED)),
                        ("sample", dict(color="orange", lw=1.4))):
        curve = f"{FINE}{name}_threshold_snr_vs_{axis}"
        if curve in ds:
            ax.plot(ds[fine].values, values(ds[curve], weighting=w, **{other: j}), **style)
        else:  # a Dataset without its file: the theory at the grid's values
            ax.plot(x, values(ds[f"theory_{name}_threshold_snr"], keep=(axis,), **at),
                    **style)
    line = {"weighting": w, "d": 0, other: j}
    threshold = values(ds.empirical_threshold_snr, keep=(axis,), **line)
    error = values(ds.empirical_threshold_snr_err, keep=(axis,), **line)
    bracket = values(ds.empirical_threshold_bracket, keep=(axis,), **line)
    inside = np.isfinite(threshold) & (threshold >= bottom) & (threshold <= top)
    if inside.any():
        marks["measured"] = ax.errorbar(x[inside], threshold[inside], yerr=error[inside], fmt="o",
                                        color=THRESHOLD_COLOUR, mec="black", mew=0.5, ms=3.2, elinewidth=0.9,
                                        ecolor="black", capsize=1.5, zorder=4)
    above = (bracket == 1) | (np.isfinite(threshold) & (threshold > top))
    below = (bracket == -1) | (np.isfinite(threshold) & (threshold < bottom))
    for mask, marker, y, key in ((above, "^", top, "above"), (below, "v", bottom, "below")):
        if mask.any():
            (marks[key],) = ax.plot(x[mask], np.full(mask.sum(), y), marker, ls="none", color=THRESHOLD_COLOUR,
                                    mec="black", mew=0.5, ms=4, clip_on=False, zorder=5)
    if "theory_finite_t_threshold_snr" in ds:
        finite_t = values(ds.theory_finite_t_threshold_snr, keep=(axis,), **line)
        if np.isfinite(finite_t).any():
            (marks["finite_t"],) = ax.plot(x, finite_t, "s--", color="cyan", mec="black", mew=0.4, ms=2.5, lw=0.9)
    ax.set_xlim(edges(x)[0], edges(x)[-1])
    ax.set_ylim(bottom, top)
    return mesh

