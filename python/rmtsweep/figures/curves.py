"""The curves along snr at one d: overlap, top eigenvalue (over the bulk edge) and ridge accuracy, one panel per
(δ, γ), the weightings side by side in each, the theory along a fine snr axis."""
import numpy as np

from matplotlib import ticker
from matplotlib.lines import Line2D

from .common import MAX_COLUMNS, OVERLAP_LABEL, SNR_LABEL, grid_step, log_axis, log_scale, marker_size, offsets, \
    panel_axes, title_panels, weighting_styles
from .data import FINE, caption, facet_columns, facet_labels, facets, selected, values

GREY = "0.35"


def overlap_vs_snr(data, ax=None, **selection):
    """The overlap |ûᵀu|² against snr at one d (the largest unless selected): trial mean ± 1 sd per weighting
    (shifted sideways a little so that the bars do not hide each other), the theory as lines along a fine snr
    axis and its sample thresholds (dotted); one panel per (δ, γ) of the selection. Returns the Figure."""
    return curves(data, ax, selection, "overlap", OVERLAP_LABEL, "Overlap of the top eigenvector with the signal",
                  theory="overlap")


def top_eigenvalue_vs_snr(data, ax=None, **selection):
    """The top eigenvalue λ₁ of S over its line's right bulk edge λ₊ against snr, so that every weighting's
    transition shows on one axis (the bulk edge at 1): trial mean ± 1 sd, the theory's λ_S / λ₊ along a fine
    snr axis and its sample thresholds (dotted). Returns the Figure."""
    return curves(data, ax, selection, "top_eigenvalue", r"$\lambda_1 / \lambda_+$",
                  "Top eigenvalue over the bulk edge", theory="top_eigenvalue", over_edge=True)


def ridge_accuracy_vs_snr(data, ax=None, **selection):
    """The ridge classifier's test accuracy against snr per weighting (trial mean ± 1 sd), with chance (0.5)
    as reference. Returns the Figure."""
    return curves(data, ax, selection, "ridge_accuracy", "ridge test accuracy", "Downstream ridge accuracy",
                  reference=(0.5, "chance"))


def curves(data, ax, selection, quantity, ylabel, title, theory=None, over_edge=False, reference=None):
    ds = selected(data, selection)
    panels, varying = facets(ds, ("delta", "gamma"))
    weightings = list(ds.weighting.values)
    styles = weighting_styles(weightings)
    drawn = {}
    columns = facet_columns(ds, varying, MAX_COLUMNS)
    layout = panel_axes(ax, len(panels), " × ".join(varying) or "one", columns=columns)
    snr = np.asarray(ds.snr.values, dtype=float)
    log = log_scale(snr)
    shift = offsets(len(weightings), grid_step(snr), log)
    size = marker_size(snr.size, layout.columns)
    for a, panel in zip(layout.axes, panels):
        for w, name in enumerate(weightings):
            at = dict(panel, weighting=w, d=0)
            edge = values(ds.theory_bulk_edge_right, **at) if over_edge else 1.0
            colour, marker = styles[name]
            mean = values(ds[f"{quantity}_mean"], keep=("snr",), **at) / edge
            std = values(ds[f"{quantity}_std"], keep=("snr",), **at) / edge
            x = snr * shift[w] if log else snr + shift[w]
            drawn[name] = a.errorbar(x, mean, yerr=std, fmt=marker, ms=size, color=colour, mew=0.3, mec="black",
                                     elinewidth=0.5, capsize=0.8, zorder=3)
            if theory:
                drawn.update(draw_theory(a, ds, theory, at, colour, edge, over_edge))
        if over_edge:
            drawn["edge"] = a.axhline(1.0, color="black", ls="--", lw=0.7, zorder=1)
        if reference:
            drawn["reference"] = a.axhline(reference[0], color="black", ls="--", lw=0.7, zorder=1)
        if log:
            a.set_xscale("log")
            log_axis(a.xaxis)
        if quantity == "overlap":
            a.yaxis.set_major_locator(ticker.MultipleLocator(0.5))
        if over_edge:
            ratio_axis(a, ds, quantity)
        a.grid(alpha=0.25, lw=0.4)
    title_panels(layout, [facet_labels(ds, panel) for panel in panels], grid=columns is not None)
    layout.label(SNR_LABEL, ylabel)
    handles = [(drawn[name], name) for name in weightings]
    handles += [(Line2D([], [], color=GREY, marker="o", ls="none", ms=2.6), "trial mean ± 1 sd")]
    if theory:
        handles += [(Line2D([], [], color=GREY, lw=1.0), "theory (d → ∞)"),
                    (Line2D([], [], color=GREY, ls=":", lw=0.9), "sample threshold (theory)")]
    if "finite_t" in drawn:
        handles += [(Line2D([], [], color=GREY, ls="--", marker="x", ms=3, lw=0.8),
                     "finite-T theory (own draws)"),
                    (Line2D([], [], color=GREY, ls="-.", lw=0.8), "finite-T threshold" + (" and edge" if over_edge
                                                                                         else ""))]
    if over_edge:
        handles.append((drawn["edge"], r"bulk edge $\lambda_+$ (theory)"))
    if reference:
        handles.append((drawn["reference"], reference[1]))
    return layout.finish(handles, title, caption(ds, "d", "delta", "gamma"))


def ratio_axis(ax, ds, quantity):
    """λ₁/λ₊ on a log axis labelled in plain numbers where it passes 2.5: the small rises of weak weightings
    above 1 show beside the large ones of strong weightings."""
    ratio = ds[f"{quantity}_mean"] / ds.theory_bulk_edge_right
    if not np.nanmax(ratio.values, initial=0.0) > 2.5:
        return
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1.0, 1.5, 2.0, 3.0, 5.0, 7.0)))
    log_axis(ax.yaxis)


def draw_theory(ax, ds, name, at, colour, edge, over_edge):
    """The theory of `name` along the fine snr axis (else the grid's) and its sample threshold, and the finite-T
    theory of the trials' own draws where the file has it and it differs visibly from the paper's."""
    drawn = {}
    if FINE + name in ds:
        ax.plot(ds.snr_fine.values, values(ds[FINE + name], keep=("snr_fine",), **at) / edge, "-", color=colour,
                lw=1.0, zorder=2)
    else:  # a Dataset without its file
        ax.plot(ds.snr.values, values(ds[f"theory_{name}"], keep=("snr",), **at) / edge, "-", color=colour, lw=1.0)
    threshold = float(values(ds.theory_sample_threshold_snr, **at))
    if np.isfinite(threshold):
        ax.axvline(threshold, color=colour, ls=":", lw=0.9, zorder=1)
    finite_t = f"theory_finite_t_{name}"
    if finite_t in ds:
        model = values(ds[finite_t], keep=("snr",), **at) / edge
        paper = values(ds[f"theory_{name}"], keep=("snr",), **at) / edge
        ok = np.isfinite(model) & np.isfinite(paper)
        span = np.nanmax(paper) - np.nanmin(paper) if ok.any() else 0.0
        if ok.any() and np.max(np.abs(model[ok] - paper[ok])) > 0.01 * max(span, 1e-12):
            ax.plot(ds.snr.values[ok], model[ok], "x--", color=colour, lw=0.8, ms=3, mew=0.7, zorder=2)
            ft_threshold = float(values(ds.theory_finite_t_threshold_snr, **at))
            if np.isfinite(ft_threshold):
                ax.axvline(ft_threshold, color=colour, ls="-.", lw=0.8)
            if over_edge and "theory_finite_t_bulk_edge_right" in ds:
                ft_edge = float(values(ds.theory_finite_t_bulk_edge_right, **at))
                if np.isfinite(ft_edge):
                    ax.axhline(ft_edge / edge, color=colour, ls="-.", lw=0.8)
            drawn["finite_t"] = True
    return drawn
