"""The refinement figure: the grid's and the refined points' detections with the probit fit, in pages of
(file name without extension, Figure) pairs."""

import numpy as np

from .common import REFINEMENT_FIGURE, page_name, page_note, pages, subplots


def refined_points(h5, phase):
    """The done refined points as (line tuple (w, n, i, j), snr, top eigenvalue) arrays, axes positions as
    /phase orders them (numeric axes ascending); None without a /refine group."""
    if "refine" not in h5:
        return None
    grid = h5["grid"]
    position = {}
    for axis in ("d", "delta", "gamma"):
        values = grid[axis][...]
        position[axis] = np.argsort(np.argsort(values, kind="stable"), kind="stable")
    columns = {name: [] for name in ("status", "weighting_index", "d_index", "delta_index", "gamma_index", "snr",
                                     "top_eigenvalue")}
    b = 0
    while f"block_{b}" in h5["refine"] and "rows" in h5["refine"][f"block_{b}"].attrs:
        block = h5["refine"][f"block_{b}"]
        for name in columns:
            columns[name].append(block[name][...])
        b += 1
    if b == 0:
        return None
    c = {name: np.concatenate(v) for name, v in columns.items()}
    done = c["status"] == 1
    lines = np.stack([c["weighting_index"][done], position["d"][c["d_index"][done]],
                      position["delta"][c["delta_index"][done]], position["gamma"][c["gamma_index"][done]]], axis=1)
    return lines, c["snr"][done], c["top_eigenvalue"][done]

def refinement_lines(phase):
    """The (w, n, i, j) lines of the refinement figure, in pages: every line of the grid."""
    return pages(tuple(k) for k in np.ndindex(*phase["refined_threshold_snr"].shape))

def refinement_figures(h5, phase):
    """The file names (without extension) of the refinement figure when the file has refined points and
    assembled refined thresholds, else []."""
    if refined_points(h5, phase) is None or phase.get("refined_threshold_snr") is None:
        return []
    count = len(refinement_lines(phase))
    return [page_name(REFINEMENT_FIGURE, page, count) for page in range(count)]

def normal_cdf(x):
    from math import erf, sqrt
    return 0.5 * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))

def refinement_pages(h5, phase):
    """Per line (every one: 9 a page): the grid's detected fraction (edge rule), the refined points (detected at
    1, not at 0, jittered), the fitted detection curve with its half crossing, and the refined threshold (median
    of the per-trial thresholds) +- its error as a band."""
    chunks = refinement_lines(phase)
    rng = np.random.default_rng(0)  # one stream over the pages: page 1 jitters as a single page did
    return [(page_name(REFINEMENT_FIGURE, page, len(chunks)), refinement_page(h5, phase, chosen, rng, page,
                                                                              len(chunks)))
            for page, chosen in enumerate(chunks)]

def refinement_page(h5, phase, chosen, rng, page, count):
    lines, snr, top = refined_points(h5, phase)
    # The edge rule's (what refine refines by default): its group, or the top level in files from before the
    # groups (the top level is the default rule's since issue 18).
    edge = "detection/edge/" if "detection/edge/refined_threshold_snr" in phase.group else ""
    median, median_err = phase[f"{edge}refined_threshold_snr"], phase[f"{edge}refined_threshold_snr_err"]
    fitted = phase.get(f"{edge}refined_fit_threshold_snr")
    mu, mu_err = (median, median_err) if fitted is None else (fitted, phase[f"{edge}refined_fit_threshold_snr_err"])
    sigma = phase[f"{edge}refined_width_snr"]
    threshold = phase.group["detection/edge/threshold"][...]
    fraction = phase[f"{edge}detected_fraction"]
    fig, axes = subplots(len(chosen))
    for ax, (w, n, i, j) in zip(axes, chosen):
        mine = np.all(lines == np.array([w, n, i, j]), axis=1)
        detected = top[mine] > threshold[w, n, i, j]
        jitter = rng.uniform(-0.04, 0.04, mine.sum())
        ax.plot(snr[mine], detected + jitter, "|", color="tab:orange", alpha=0.35, ms=6,
                label=f"refined points ({mine.sum()})")
        ax.plot(phase.snr, fraction[w, n, i, j], "o", color="tab:blue", ms=5, label="grid: detected fraction")
        if np.isfinite(mu[w, n, i, j]) and np.isfinite(sigma[w, n, i, j]):
            lo, hi = min(phase.snr.min(), snr[mine].min(initial=np.inf)), max(phase.snr.max(), snr[mine].max(initial=-np.inf))
            x = np.linspace(lo, hi, 400)
            ax.plot(x, normal_cdf((x - mu[w, n, i, j]) / sigma[w, n, i, j]), "-", color="k", lw=1.3,
                    label=f"probit fit: {mu[w, n, i, j]:.3f} ± {mu_err[w, n, i, j]:.3f}")
        if np.isfinite(median[w, n, i, j]):
            ax.axvspan(median[w, n, i, j] - median_err[w, n, i, j], median[w, n, i, j] + median_err[w, n, i, j],
                       color="tab:red", alpha=0.25,
                       label=f"threshold (per-trial median): {median[w, n, i, j]:.3f} ± {median_err[w, n, i, j]:.3f}")
        ax.set_ylim(-0.1, 1.1)
        ax.set_xlabel("snr = ‖μ‖²")
        ax.set_ylabel("detected")
        ax.set_title(f"{phase.weighting[w]}, d = {phase.d[n]}, δ = {phase.delta[i]:g}, γ = {phase.gamma[j]:g}",
                     fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="center right")
    fig.suptitle(f"adaptive refinement (edge rule){page_note(page, count)}\n{phase.fixed}", fontsize=10)
    fig.tight_layout()
    return fig
