"""rmtsweep_plot.py's phase diagrams and curves along snr (one d: the largest)."""
import re

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from rmtsweep_plot_common import edges, panel_indices, save, subplots  # noqa: E402


def phase_diagrams(phase, out, dpi):
    """Heatmaps of the mean overlap over (delta, snr) and (gamma, snr) at the largest d, one file
    per weighting."""
    paths = []
    k = -1
    overlap = phase["overlap_mean"][:, k]
    empirical = phase.empirical_threshold()[:, k]
    # The finite-T threshold of the trials' own token draws, where the sweep computed it (concentrated
    # weightings: docs/finite_t.md); None in files assembled before it existed.
    finite_t = phase.get("theory_finite_t_threshold_snr")
    finite_t = finite_t[:, k] if finite_t is not None else None
    for axis_name, axis, other, other_symbol in (("delta", phase.delta, phase.gamma, "γ"),
                                                  ("gamma", phase.gamma, phase.delta, "δ")):
        if axis.size < 2:
            continue
        symbol = "δ" if axis_name == "delta" else "γ"
        fine = phase.theory(axis_name, 1, k)
        pop_fine = phase.theory(f"pop_threshold_snr_vs_{axis_name}", 3, k)
        sample_fine = phase.theory(f"sample_threshold_snr_vs_{axis_name}", 3, k)
        for w, name in enumerate(phase.weighting):
            others = panel_indices(other.size)
            fig, axes = subplots(len(others))
            for ax, j in zip(axes, others):
                if axis_name == "delta":
                    grid, emp, p_fine, s_fine = overlap[w, :, j, :], empirical[w, :, j], pop_fine[w, j], sample_fine[w, j]
                else:
                    grid, emp, p_fine, s_fine = overlap[w, j, :, :], empirical[w, j, :], pop_fine[w, j], sample_fine[w, j]
                mesh = ax.pcolormesh(edges(axis), edges(phase.snr), grid.T, vmin=0, vmax=1, cmap="viridis",
                                     shading="flat")
                ax.plot(fine, p_fine, color="white", ls="--", lw=1.6, label="population threshold (theory)")
                ax.plot(fine, s_fine, color="orange", ls="-", lw=1.8, label="sample threshold (theory)")
                if finite_t is not None:
                    ft = finite_t[w, :, j] if axis_name == "delta" else finite_t[w, j, :]
                    if np.isfinite(ft).any():
                        ax.plot(axis, ft, "s--", color="cyan", mec="black", ms=5, lw=1.2,
                                label="finite-T threshold (own token draws)")
                ok = np.isfinite(emp)
                ax.plot(axis[ok], emp[ok], "o", color="red", mec="black", ms=6, label=f"empirical threshold ({phase.rule()} rule)")
                ax.set_xlim(edges(axis)[0], edges(axis)[-1])
                ax.set_ylim(edges(phase.snr)[0], edges(phase.snr)[-1])
                ax.set_xlabel(f"{symbol} = d/{'V' if axis_name == 'delta' else 'N'}")
                ax.set_ylabel("snr = ‖μ‖²")
                ax.set_title(f"{other_symbol} = {other[j]:g}", fontsize=10)
                fig.colorbar(mesh, ax=ax, label="mean overlap |ûᵀu|²")
            axes[0].legend(loc="upper left", fontsize=7, framealpha=0.8)
            fig.suptitle(f"Phase diagram, weighting {name}, at {phase.size_title(k)}\n{phase.fixed}", fontsize=10)
            fig.tight_layout()
            paths.append(save(fig, out, phase_figure(axis_name, name), dpi))
    return paths

def phase_figure(axis_name, weighting):
    return f"phase_{axis_name}_{safe(weighting)}.png"

def phase_figures(phase):
    """The file names phase_diagrams writes: one per weighting for each axis that varies."""
    return [phase_figure(axis_name, name) for axis_name, axis in (("delta", phase.delta), ("gamma", phase.gamma))
            if axis.size >= 2 for name in phase.weighting]

def safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)

def cell_panels(phase):
    """The (delta index, gamma index) pairs drawn as panels of the curves against snr."""
    cells = [(i, j) for i in range(phase.delta.size) for j in range(phase.gamma.size)]
    return [cells[k] for k in panel_indices(len(cells))]

def visibly_different(a, b, scale):
    """Whether two curves on the same grid differ by more than 1 % of the axis range somewhere."""
    ok = np.isfinite(a) & np.isfinite(b)
    return bool(ok.any() and np.max(np.abs(a[ok] - b[ok])) > 0.01 * scale)

def curves_vs_snr(phase, out, dpi, quantity, label, filename, theory=None, edge=False):
    """`quantity`_mean ± std against snr at the largest d, one colour per weighting, theory as lines; the
    finite-T theory of the trials' own token draws (dashed, /phase/theory_finite_t_*) where the file carries
    it and it differs visibly from the paper's."""
    k = -1
    mean, std = phase[f"{quantity}_mean"][:, k], phase[f"{quantity}_std"][:, k]
    fine = phase.theory("snr", 1, k)
    theory_fine = phase.theory(theory, 4, k) if theory else None
    sample = phase["theory_sample_threshold_snr"][:, k]
    edge_right = phase["theory_bulk_edge_right"][:, k] if edge else None
    finite_t = phase.get(f"theory_finite_t_{theory}") if theory else None
    finite_t = finite_t[:, k] if finite_t is not None else None
    paper_cells = phase[f"theory_{theory}"][:, k] if finite_t is not None else None
    finite_t_threshold = phase.get("theory_finite_t_threshold_snr")
    finite_t_threshold = finite_t_threshold[:, k] if finite_t_threshold is not None else None
    finite_t_edge = phase.get("theory_finite_t_bulk_edge_right") if edge else None
    finite_t_edge = finite_t_edge[:, k] if finite_t_edge is not None else None
    drew_finite_t = False
    cells = cell_panels(phase)
    fig, axes = subplots(len(cells))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (i, j) in zip(axes, cells):
        for w, name in enumerate(phase.weighting):
            colour = colours[w % len(colours)]
            ax.errorbar(phase.snr, mean[w, i, j], yerr=std[w, i, j], fmt="o", ms=4, capsize=2, color=colour,
                        label=f"{name} (measured)")
            if theory_fine is not None:
                ax.plot(fine, theory_fine[w, i, j], "-", color=colour, lw=1.4, label=f"{name} (theory)")
                ax.axvline(sample[w, i, j], color=colour, ls=":", lw=1)
            if edge_right is not None:
                ax.axhline(edge_right[w, i, j], color=colour, ls="--", lw=0.8)
            span = np.nanmax(mean[w, i, j]) - np.nanmin(mean[w, i, j]) if np.isfinite(mean[w, i, j]).any() else 1.0
            if finite_t is not None and visibly_different(finite_t[w, i, j], paper_cells[w, i, j], max(span, 1e-12)):
                ok = np.isfinite(finite_t[w, i, j])
                ax.plot(phase.snr[ok], finite_t[w, i, j][ok], "x--", color=colour, lw=1.2, ms=5,
                        label=f"{name} (finite-T, own draws)")
                if finite_t_threshold is not None and np.isfinite(finite_t_threshold[w, i, j]):
                    ax.axvline(finite_t_threshold[w, i, j], color=colour, ls="-.", lw=1)
                if finite_t_edge is not None and np.isfinite(finite_t_edge[w, i, j]):
                    ax.axhline(finite_t_edge[w, i, j], color=colour, ls="-.", lw=0.8)
                drew_finite_t = True
        ax.set_xlabel("snr = ‖μ‖²")
        ax.set_ylabel(label)
        ax.set_title(f"δ = {phase.delta[i]:g}, γ = {phase.gamma[j]:g}", fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, ncol=1 if len(phase.weighting) < 4 else 2)
    note = "points: trial mean ± 1 std"
    if theory_fine is not None:
        note += "; lines: theory; dotted: sample threshold"
    if edge_right is not None:
        note += "; dashed: bulk edge"
    if drew_finite_t:
        note += "; x--: finite-T (trial mean), dash-dot: its threshold" + (" and edge" if edge else "")
    if log_scale(phase.snr):
        for ax in axes:
            ax.set_xscale("log")
    fig.suptitle(f"{label} against snr at {phase.size_title(k)}\n{phase.fixed}\n({note})", fontsize=10)
    fig.tight_layout()
    return save(fig, out, filename, dpi)

def log_scale(snr):
    """A log axis suits an snr axis of positive values spanning more than a decade and a half."""
    return snr.size > 2 and snr.min() > 0 and snr.max() / snr.min() > 30
