"""The finite-size figures of a sweep over several d: the measured thresholds against d^(-1/3) with their fit
and its extrapolation to d → ∞, and the overlap against snr at every d beside the d → ∞ theory."""
import numpy as np

import matplotlib
from matplotlib import ticker
from matplotlib.lines import Line2D

from .common import MAX_COLUMNS, LABEL_SIZE, OVERLAP_LABEL, SNR_LABEL, TICK_SIZE, grid_step, log_axis, log_scale, \
    marker_size, offsets, panel_axes, title_panels, weighting_styles
from .data import FINE, caption, facet_columns, facet_labels, facets, rule_of, selected, unbroken, values

GREY = "0.35"
ABOVE = r"$\uparrow$"  # a threshold above the grid at that d, drawn at the grid's top (not a weighting's marker)


def threshold_lines(ds):
    """Boolean (weighting, delta, gamma) array: the lines with a measured threshold at two sizes or more."""
    finite = np.isfinite(ds.empirical_threshold_snr.transpose("weighting", "d", "delta", "gamma").values)
    return finite.sum(axis=1) >= 2


def has_threshold_vs_d(ds):
    return ds.sizes["d"] >= 2 and bool(threshold_lines(ds).any())


def threshold_vs_d(data, ax=None, **selection):
    """The measured thresholds of the figures' rule against x = d^(-1/3) with their bootstrap errors (open: no
    error; ↑ at the grid's top: above the grid at that d), the trials' own finite-T thresholds at each d (their
    mean, ×, dotted: the target the measured ones close on at each size, docs/finite_t.md), the stored fit
    thr∞ + a x (+ b x²) dashed and its extrapolation to d → ∞ (square at x = 0) beside the theory's sample
    threshold (star); one colour per weighting, one panel per (δ, γ) with thresholds at two sizes or more.
    Returns the Figure."""
    ds = selected(data, selection, one_size=False)
    lines = threshold_lines(ds)
    panels = [p for p in facets(ds, ("delta", "gamma"))[0]
              if lines[:, p.get("delta", 0), p.get("gamma", 0)].any()]
    if not panels:
        from ..errors import InvalidOption
        raise InvalidOption("data", "this selection", "lines with a measured threshold at two sizes d or more")
    weightings = list(ds.weighting.values)
    styles = weighting_styles(weightings)
    layout = panel_axes(ax, len(panels), "delta × gamma", aspect=0.7, sharey=False)
    sizes = np.asarray(ds.d.values, dtype=float)
    x = sizes ** (-1.0 / 3.0)
    fine = np.linspace(0.0, x.max() * 1.04, 120)
    top = float(ds.snr.max())
    fits, drawn = [], {}
    for a, panel in zip(layout.axes, panels):
        for w, name in enumerate(weightings):
            colour, marker = styles[name]
            at = dict(panel, weighting=w)
            y = values(ds.empirical_threshold_snr, keep=("d",), **at)
            e = values(ds.empirical_threshold_snr_err, keep=("d",), **at)
            bracket = values(ds.empirical_threshold_bracket, keep=("d",), **at)
            ok, known = np.isfinite(y), np.isfinite(y) & np.isfinite(e)
            if "theory_finite_t_threshold_snr" in ds:
                target = values(ds.theory_finite_t_threshold_snr, keep=("d",), **at)
                held = np.isfinite(target)
                if held.any():
                    drawn["finite-T"] = a.plot(x[held], target[held], ":", marker="x", ms=3.2, mew=0.8, lw=0.9,
                                               color=colour, zorder=2)[0]
            above = bracket == 1
            if above.any():
                drawn["above"] = a.plot(x[above], np.full(above.sum(), top), marker=ABOVE, color=colour, ms=7,
                                        ls="none", clip_on=False)[0]
            if not ok.any():
                continue
            drawn[name] = a.errorbar(x[known], y[known], yerr=e[known], fmt=marker, ms=3.2, color=colour, mec="black",
                                     mew=0.4, elinewidth=0.8, capsize=1.5, zorder=3)
            if (ok & ~known).any():
                drawn["no error"] = a.plot(x[ok & ~known], y[ok & ~known], marker, mfc="none", ms=3.4, color=colour,
                                           mew=0.8, ls="none")[0]
            fitted = draw_fit(a, ds, at, fine, colour, drawn)
            if fitted:
                fits.append(fitted)
        theory = values(ds.theory_sample_threshold_snr, d=-1, **{k: v for k, v in panel.items()},
                        keep=("weighting",))
        for w, name in enumerate(weightings):
            if np.isfinite(theory[w]):
                # at d -> infinity, a little left of the extrapolations at x = 0 so that neither hides the other
                drawn["theory"] = a.plot([-0.035 * x.max()], [theory[w]], "*", ms=6.5, color=styles[name][0],
                                         mec="black", mew=0.4, clip_on=False, zorder=4)[0]
        a.set_xlim(-0.08 * x.max(), x.max() * 1.06)
        a.grid(alpha=0.25, lw=0.4)
        sizes_on_top(a, x, sizes)
    if len(panels) > 1:
        title_panels(layout, [facet_labels(ds, panel) for panel in panels])
    layout.label(r"$d^{-1/3}$", f"threshold snr ({rule_of(ds)} rule)")
    handles = [(Line2D([], [], color=styles[name][0], marker=styles[name][1], mec="black", mew=0.4, ms=3.2,
                       ls="none"), name) for name in weightings]
    handles += [(Line2D([], [], color=GREY, marker="o", ls="none", ms=3), "measured ± error"),
                (Line2D([], [], color=GREY, marker="o", mfc="none", ls="none", ms=3.4) if "no error" in drawn
                 else None, "measured, no error"),
                (Line2D([], [], color=GREY, ls=":", marker="x", ms=3.2, mew=0.8, lw=0.9) if "finite-T" in drawn
                 else None, "finite-T threshold (trials' mean)"),
                (Line2D([], [], color=GREY, ls="--", lw=0.9) if "fit" in drawn else None,
                 r"fit thr$_\infty$ + a$\,d^{-1/3}$"),
                (Line2D([], [], color=GREY, marker="s", ls="none", ms=3.6) if "limit" in drawn else None,
                 r"extrapolated, $d\to\infty$"),
                (Line2D([], [], color=GREY, marker="*", ls="none", ms=6) if "theory" in drawn else None,
                 "theory (sample threshold)"),
                (Line2D([], [], color=GREY, marker=ABOVE, ls="none", ms=7) if "above" in drawn else None,
                 "above the grid")]
    fitted = ("thr∞ = " + "; ".join(fits)) if fits and len(panels) == 1 else ""
    return layout.finish(handles, "Threshold against size", caption(ds, "delta", "gamma", extra=fitted))


def draw_fit(ax, ds, at, fine, colour, drawn):
    """The stored fit of one line (dashed) and its value at d → ∞ (square ± error); "mean 0.62 ± 0.18 (χ²/dof
    4.7)" for the caption, or None without a fit."""
    if "extrapolated_threshold_snr" not in ds:
        return None
    line = {k: v for k, v in at.items() if k != "d"}
    fit = {name: float(values(ds[name], **line)) for name in
           ("extrapolated_threshold_snr", "extrapolated_threshold_snr_err", "extrapolation_a", "extrapolation_b",
            "extrapolation_chi2_per_dof", "extrapolation_terms") if name in ds}
    limit, a = fit["extrapolated_threshold_snr"], fit.get("extrapolation_a", np.nan)
    if not (np.isfinite(limit) and np.isfinite(a)) or fit.get("extrapolation_terms", 0) < 1:
        return None
    b = fit.get("extrapolation_b", np.nan)
    b = b if fit.get("extrapolation_terms") == 2 and np.isfinite(b) else 0.0
    drawn["fit"] = ax.plot(fine, limit + a * fine + b * fine ** 2, "--", color=colour, lw=0.9)[0]
    error = fit.get("extrapolated_threshold_snr_err", np.nan)
    drawn["limit"] = ax.errorbar([0.0], [limit], yerr=[error if np.isfinite(error) else 0.0], fmt="s", ms=3.6,
                                 color=colour, mec="black", mew=0.5, capsize=2, elinewidth=0.8, clip_on=False,
                                 zorder=4)
    name = str(ds.weighting.values[at["weighting"]])
    error_text = f" ± {error:.2f}" if np.isfinite(error) else ""
    chi2 = fit.get("extrapolation_chi2_per_dof", np.nan)
    chi2_text = f" (χ²/dof {chi2:.2g})" if np.isfinite(chi2) else ""
    return unbroken(f"{name} {limit:.2f}{error_text}{chi2_text}")


def sizes_on_top(ax, x, sizes):
    """The sizes d themselves along the top of the panel."""
    top = ax.twiny()
    top.set_xlim(ax.get_xlim())
    top.set_xticks(x)
    top.set_xticklabels([f"{v:g}" for v in sizes])
    top.tick_params(labelsize=TICK_SIZE - 0.5, length=2, pad=1)
    top.set_xlabel("d", fontsize=LABEL_SIZE - 0.5, labelpad=1)


def overlap_vs_snr_by_d(data, ax=None, **selection):
    """The overlap against snr at every d of the sweep (trial mean ± 1 sd, one colour per d, shifted sideways
    a little) beside the theory, which is the d → ∞ limit and drawn once along a fine snr axis, and the trial
    means extrapolated to d → ∞ where assemble fitted them; one panel per weighting (and per δ, γ of the
    selection). Returns the Figure."""
    ds = selected(data, selection, one_size=False)
    panels, varying = facets(ds, ("weighting", "delta", "gamma"))
    columns = facet_columns(ds, varying, MAX_COLUMNS)
    layout = panel_axes(ax, len(panels), " × ".join(varying) or "one", columns=columns)
    snr = np.asarray(ds.snr.values, dtype=float)
    log = log_scale(snr)
    colours = matplotlib.colormaps["viridis"](np.linspace(0.0, 0.85, ds.sizes["d"]))
    shift = offsets(ds.sizes["d"], grid_step(snr), log)
    marker = marker_size(snr.size, layout.columns)
    drawn = {}
    for a, panel in zip(layout.axes, panels):
        for k in range(ds.sizes["d"]):
            at = dict(panel, d=k)
            mean = values(ds.overlap_mean, keep=("snr",), **at)
            std = values(ds.overlap_std, keep=("snr",), **at)
            drawn[k] = a.errorbar(snr * shift[k] if log else snr + shift[k], mean, yerr=np.nan_to_num(std), fmt="o",
                                  ms=marker, color=colours[k], mec="black", mew=0.3, elinewidth=0.6, capsize=1.0)
        if FINE + "overlap" in ds:
            drawn["theory"] = a.plot(ds.snr_fine.values, values(ds[FINE + "overlap"], keep=("snr_fine",), **panel),
                                     "-", color="black", lw=1.0, zorder=4)[0]
        threshold = values(ds.theory_sample_threshold_snr, d=-1, **panel)
        if np.isfinite(threshold):
            drawn["threshold"] = a.axvline(float(threshold), color="black", ls=":", lw=0.8)
        if "extrapolated_overlap" in ds:
            limit = values(ds.extrapolated_overlap, keep=("snr",), **panel)
            error = values(ds.extrapolated_overlap_err, keep=("snr",), **panel)
            if np.isfinite(limit).any():
                drawn["limit"] = a.errorbar(snr, limit, yerr=np.nan_to_num(error), fmt="s", ms=2.0, color="0.45",
                                            mfc="white", mew=0.5, elinewidth=0.4, capsize=0.6, zorder=2)
        if log:
            a.set_xscale("log")
            log_axis(a.xaxis)
        a.yaxis.set_major_locator(ticker.MultipleLocator(0.5 if float(ds.overlap_mean.max()) > 0.6 else 0.25))
        a.grid(alpha=0.25, lw=0.4)
    title_panels(layout, [facet_labels(ds, panel) for panel in panels], grid=columns is not None)
    layout.label(SNR_LABEL, OVERLAP_LABEL)
    handles = [(drawn[k], f"d = {size:g}") for k, size in enumerate(ds.d.values)]
    handles += [(drawn.get("theory"), "theory (d → ∞)"), (drawn.get("threshold"), "sample threshold (theory)"),
                (drawn.get("limit"), r"extrapolated to $d\to\infty$")]
    return layout.finish([(h, label) for h, label in handles if h is not None], "Overlap against snr by size",
                         caption(ds, "weighting", "delta", "gamma"))
