"""The refinement figure: per refined line, the grid's detected fraction, the points `rmtsweep refine` added and
the probit fit with its threshold."""
from math import erf, sqrt

import numpy as np

from matplotlib.lines import Line2D

from .common import LEGEND_SIZE, SNR_LABEL, panel_axes, title_panels
from .data import caption, selected, value_label, values
from .spectrum import sweep_file
from ..files import open_h5

REFINEMENT_FIGURE = "refinement"


def refined_points(h5, ds):
    """The done refined points as (line labels (weighting, d, delta, gamma), snr, top eigenvalue) arrays; None
    without a /refine group or before its first block."""
    if "refine" not in h5:
        return None
    columns = {name: [] for name in ("status", "weighting_index", "d_index", "delta_index", "gamma_index", "snr",
                                     "top_eigenvalue")}
    b = 0
    while f"block_{b}" in h5["refine"] and "rows" in h5["refine"][f"block_{b}"].attrs:
        for name in columns:
            columns[name].append(h5["refine"][f"block_{b}"][name][...])
        b += 1
    if b == 0:
        return None
    c = {name: np.concatenate(v) for name, v in columns.items()}
    done = c["status"] == 1
    grid = h5["grid"]
    weightings = [v.decode() if isinstance(v, bytes) else str(v) for v in grid["weighting"][...]]
    labels = [np.asarray(weightings, dtype=object)[c["weighting_index"][done]]]
    labels += [grid[axis][...][c[f"{axis}_index"][done]] for axis in ("d", "delta", "gamma")]
    return labels, c["snr"][done], c["top_eigenvalue"][done]


def refined_lines(ds):
    """The (weighting, d, delta, gamma) positions of the lines with refined points in `ds`."""
    if "refined_points" not in ds or "refined_threshold_snr" not in ds:
        return []
    count = ds.refined_points.transpose("weighting", "d", "delta", "gamma").values
    return [tuple(int(i) for i in line) for line in np.argwhere(count > 0)]


def has_refinement(ds):
    return bool(refined_lines(ds))


def normal_cdf(x):
    return 0.5 * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def refinement(data, ax=None, **selection):
    """After `rmtsweep refine`: per line with refined points (of the selection), the grid's detected fraction,
    the refined points (detected at 1, not at 0, jittered), the probit fit P(detected) = Φ((snr − μ)/σ) and
    the refined threshold (median of the per-trial thresholds) ± its error as a band. Needs the sweep file.
    Returns the Figure."""
    ds = selected(data, selection, one_size=False)
    lines = refined_lines(ds)
    if not lines:
        from ..errors import InvalidOption
        raise InvalidOption("data", "this selection", "lines with points added by `rmtsweep refine`")
    with open_h5(sweep_file(ds, "the refinement")) as h5:
        labels, snr, top = refined_points(h5, ds)
    layout = panel_axes(ax, len(lines), "refined lines", aspect=0.7)
    rng = np.random.default_rng(0)
    threshold_level = ds["detection_threshold"].transpose("weighting", "d", "delta", "gamma", "snr")
    fitted = "refined_fit_threshold_snr" in ds
    for a, (w, n, i, j) in zip(layout.axes, lines):
        at = {"weighting": w, "d": n, "delta": i, "gamma": j}
        mine = np.ones(snr.size, dtype=bool)
        for label, axis in zip(labels, ("weighting", "d", "delta", "gamma")):
            value = ds[axis].values[at[axis]]
            mine &= (label == value) if axis == "weighting" else np.isclose(label.astype(float), float(value))
        level = float(values(threshold_level, **at)[0])
        detected = top[mine] > level
        a.plot(snr[mine], detected + rng.uniform(-0.04, 0.04, mine.sum()), "|", color="tab:orange", alpha=0.4,
               ms=4)
        a.plot(ds.snr.values, values(ds.detected_fraction, keep=("snr",), **at), "o", color="tab:blue", ms=2.6)
        mu = float(values(ds.refined_fit_threshold_snr if fitted else ds.refined_threshold_snr, **at))
        sigma = float(values(ds.refined_width_snr, **at)) if "refined_width_snr" in ds else np.nan
        if np.isfinite(mu) and np.isfinite(sigma) and sigma > 0:
            lo = min(float(ds.snr.min()), snr[mine].min(initial=np.inf))
            hi = max(float(ds.snr.max()), snr[mine].max(initial=-np.inf))
            x = np.linspace(lo, hi, 300)
            a.plot(x, normal_cdf((x - mu) / sigma), "-", color="black", lw=1.0)
        median = float(values(ds.refined_threshold_snr, **at))
        error = float(values(ds.refined_threshold_snr_err, **at))
        if np.isfinite(median):
            a.axvspan(median - error, median + error, color="tab:red", alpha=0.25, lw=0)
            a.text(0.97, 0.3, f"{median:.3f} ± {error:.3f}", transform=a.transAxes, fontsize=LEGEND_SIZE,
                   ha="right", va="center")
        a.set_ylim(-0.1, 1.1)
        a.grid(alpha=0.25, lw=0.4)
    axes = ("weighting", "d", "delta", "gamma")
    varying = [k for k, axis in enumerate(axes) if len({line[k] for line in lines}) > 1]
    title_panels(layout, [[value_label(axes[k], ds[axes[k]].values[line[k]]) for k in varying] for line in lines])
    constant = ds.isel({axes[k]: [lines[0][k]] for k in range(4) if k not in varying})
    layout.label(SNR_LABEL, "detected")
    handles = [(Line2D([], [], color="tab:orange", marker="|", ls="none", ms=5), "refined points"),
               (Line2D([], [], color="tab:blue", marker="o", ls="none", ms=2.6), "grid: detected fraction"),
               (Line2D([], [], color="black", lw=1.0), "probit fit"),
               (Line2D([], [], color="tab:red", alpha=0.25, lw=5), "refined threshold ± error")]
    return layout.finish(handles, "Adaptive refinement of the thresholds",
                         caption(constant, *axes, extra="edge rule; band: median of the trials' thresholds ± error"))
