"""The finite-size figures: thresholds against d^(-1/3) with their fit, overlaps by d. Each returns the
pages of its figure as (file name without extension, Figure) pairs."""

import numpy as np

import matplotlib

from .common import OVERLAP_BY_D_FIGURE, THRESHOLD_VS_D_FIGURE, colours, page_name, page_note, pages, subplots
from .phase import log_scale


def fitted_thresholds(phase):
    """The thresholds fitted against d^(-1/3) (weighting x d x delta x gamma), their errors (NaN
    where the file has none) and the name of their rule."""
    prefix, rule = phase.extrapolation_source()
    threshold = phase[f"{prefix}empirical_threshold_snr"]
    error = phase.get(f"{prefix}empirical_threshold_snr_err")
    return threshold, (np.full(threshold.shape, np.nan) if error is None else error), rule, prefix

def finite_size_lines(phase):
    """The (weighting, delta index, gamma index) lines with an empirical threshold at two sizes or more."""
    if phase.d.size < 2:
        return []
    counts = np.isfinite(fitted_thresholds(phase)[0]).sum(axis=1)
    return [(w, i, j) for w in range(len(phase.weighting)) for i in range(phase.delta.size)
            for j in range(phase.gamma.size) if counts[w, i, j] >= 2]

def threshold_cells(phase):
    """The (delta index, gamma index) panels of threshold_vs_d, in pages."""
    return pages(sorted({(i, j) for _, i, j in finite_size_lines(phase)}))

def finite_size_figures(phase):
    """The file names (without extension) of the finite-size figures this file gets (none with a single d)."""
    names = []
    if finite_size_lines(phase):
        count = len(threshold_cells(phase))
        names += [page_name(THRESHOLD_VS_D_FIGURE, page, count) for page in range(count)]
    if phase.d.size >= 2:
        count = len(pages(range(len(phase.weighting))))
        names += [page_name(OVERLAP_BY_D_FIGURE, page, count) for page in range(count)]
    return names

def extrapolation(phase, prefix, w, i, j):
    """The stored fit of one line as a dict (terms 0 when the file has none)."""
    group = phase.group
    if f"{prefix}extrapolated_threshold_snr" not in group:
        return {"terms": 0, "sizes": 0}
    value = {key: float(group[f"{prefix}{name}"][w, i, j]) if f"{prefix}{name}" in group else np.nan
             for key, name in (("thr_inf", "extrapolated_threshold_snr"), ("err", "extrapolated_threshold_snr_err"),
                               ("a", "extrapolation_a"), ("b", "extrapolation_b"),
                               ("chi2_per_dof", "extrapolation_chi2_per_dof"))}
    for key, name in (("terms", "extrapolation_terms"), ("sizes", "extrapolation_sizes")):
        value[key] = int(group[f"{prefix}{name}"][w, i, j]) if f"{prefix}{name}" in group else 0
    if not (np.isfinite(value["thr_inf"]) and np.isfinite(value["a"])):
        value["terms"] = 0
    return value

def finite(values):
    """NaN (no error) as 0 for error bars."""
    return np.where(np.isfinite(values), values, 0.0)

def threshold_vs_d_pages(phase):
    """Empirical thresholds against x = d^(-1/3) with bootstrap errors, the stored fit
    thr_inf + a x (+ b x^2) and its extrapolation at x = 0 against the theory's sample threshold;
    one panel per (delta, gamma) with thresholds at two sizes (every one: 9 a page), one colour per weighting."""
    chunks = threshold_cells(phase)
    return [(page_name(THRESHOLD_VS_D_FIGURE, page, len(chunks)), threshold_vs_d_page(phase, cells, page, len(chunks)))
            for page, cells in enumerate(chunks)]

def threshold_vs_d_page(phase, cells, page, count):
    threshold, error, rule, prefix = fitted_thresholds(phase)
    theory = phase["theory_sample_threshold_snr"][:, -1]
    lines = finite_size_lines(phase)
    x = phase.d.astype(float) ** (-1.0 / 3.0)
    fine = np.linspace(0.0, x.max() * 1.04, 120)
    palette = colours()
    fig, axes = subplots(len(cells))
    for ax, (i, j) in zip(axes, cells):
        for w, name in enumerate(phase.weighting):
            if (w, i, j) not in lines:
                continue
            colour = palette[w % len(palette)]
            y, e = threshold[w, :, i, j], error[w, :, i, j]
            ok = np.isfinite(y)
            with_error = ok & np.isfinite(e)
            fit = extrapolation(phase, prefix, w, i, j)
            if fit["terms"] >= 1:
                error_text = f"{fit['err']:.2g}" if np.isfinite(fit["err"]) else "?"
                chi2_text = f"{fit['chi2_per_dof']:.2g}" if np.isfinite(fit["chi2_per_dof"]) else "–"
                label = (f"{name}: thr∞ = {fit['thr_inf']:.4g} ± {error_text} ({fit['terms']}-term fit, "
                         f"{fit['sizes']} sizes, χ²/dof = {chi2_text})")
            else:
                label = f"{name}: no fit ({int(ok.sum())} sizes with a threshold)"
            ax.errorbar(x[with_error], y[with_error], yerr=e[with_error], fmt="o", ms=5, capsize=3, color=colour,
                        label=label)
            if (ok & ~with_error).any():
                ax.plot(x[ok & ~with_error], y[ok & ~with_error], "o", mfc="none", ms=6, color=colour)
            if fit["terms"] >= 1:
                quadratic = fit["b"] if fit["terms"] == 2 and np.isfinite(fit["b"]) else 0.0
                ax.plot(fine, fit["thr_inf"] + fit["a"] * fine + quadratic * fine ** 2, "--", color=colour, lw=1.2)
                ax.errorbar([0.0], [fit["thr_inf"]], yerr=[finite(np.array([fit["err"]]))[0]], fmt="s", ms=7,
                            capsize=4, color=colour, mec="black")
            if np.isfinite(theory[w, i, j]):
                ax.plot([0.0], [theory[w, i, j]], "*", ms=13, color=colour, mec="black", clip_on=False)
        ax.set_xlim(-0.06 * x.max(), x.max() * 1.06)
        ax.set_xlabel("x = d^(-1/3)")
        ax.set_ylabel(f"empirical threshold snr ({rule} rule)")
        ax.set_title(phase.cell_title(i, j), fontsize=10)
        ax.grid(alpha=0.3)
        top = ax.twiny()  # the sizes themselves along the top
        top.set_xlim(ax.get_xlim())
        top.set_xticks(x)
        top.set_xticklabels([f"d={v}" for v in phase.d], fontsize=7)
        ax.legend(fontsize=6, loc="best")
    note = ("points: threshold ± bootstrap error (open: no error); dashed: fit;\n"
            "square at x = 0: extrapolation; star: theory's sample threshold (at the largest d)")
    fig.suptitle(f"Finite-size scaling of the empirical threshold{phase.constant_axes()}{page_note(page, count)}\n"
                 f"{phase.fixed}\n({note})", fontsize=9)
    fig.tight_layout()
    return fig

def overlap_vs_snr_by_d_pages(phase):
    """Mean overlap ± std against snr, one colour per d, with the theory on the grid as lines; one
    panel per weighting (every one: 9 a page) at the middle delta and gamma."""
    chunks = pages(range(len(phase.weighting)))
    return [(page_name(OVERLAP_BY_D_FIGURE, page, len(chunks)), overlap_vs_snr_by_d_page(phase, weightings, page,
                                                                                         len(chunks)))
            for page, weightings in enumerate(chunks)]

def overlap_vs_snr_by_d_page(phase, weightings, page, count):
    i, j = (phase.delta.size - 1) // 2, (phase.gamma.size - 1) // 2
    mean, std, theory = phase["overlap_mean"], phase["overlap_std"], phase["theory_overlap"]
    colours = matplotlib.colormaps["viridis"](np.linspace(0.0, 0.85, phase.d.size))
    fig, axes = subplots(len(weightings))
    for ax, w in zip(axes, weightings):
        for k, size in enumerate(phase.d):
            ax.errorbar(phase.snr, mean[w, k, i, j], yerr=finite(std[w, k, i, j]), fmt="o", ms=4, capsize=2,
                        color=colours[k], label=f"d = {size} (measured)")
            ax.plot(phase.snr, theory[w, k, i, j], "-", color=colours[k], lw=1.2)
        if "extrapolated_overlap" in phase.group:  # d -> infinity at each snr (assemble, three or more sizes)
            limit = phase.group["extrapolated_overlap"][w, i, j]
            error = phase.group["extrapolated_overlap_err"][w, i, j]
            if np.isfinite(limit).any():
                ax.errorbar(phase.snr, limit, yerr=finite(error), fmt="s", ms=4, capsize=2, color="black",
                            mfc="none", label="d → ∞ (extrapolated)")
        ax.set_xlabel("snr = ‖μ‖²")
        ax.set_ylabel("overlap |ûᵀu|²")
        ax.set_title(f"weighting {phase.weighting[w]}", fontsize=10)
        ax.grid(alpha=0.3)
        if log_scale(phase.snr):
            ax.set_xscale("log")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"Overlap against snr by d at δ = {phase.delta[i]:g}, γ = {phase.gamma[j]:g}"
                 f"{page_note(page, count)}\n{phase.fixed}\n"
                 "(points: trial mean ± 1 std; open squares: extrapolated to d → ∞; lines: theory)", fontsize=10)
    fig.tight_layout()
    return fig
