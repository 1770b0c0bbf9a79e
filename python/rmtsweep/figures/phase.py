"""The phase diagrams and the curves along snr (one d: the largest). Each function returns the pages of
its figure as (file name without extension, Figure) pairs."""
import re

import numpy as np

from .common import OUTLINED, colours, edges, page_name, page_note, pages, subplots


def phase_axes(phase):
    """The axes that vary, each with the other: (name, values, symbol, other values, other symbol)."""
    return [(name, axis, symbol, other, other_symbol)
            for name, axis, symbol, other, other_symbol in (("delta", phase.delta, "δ", phase.gamma, "γ"),
                                                            ("gamma", phase.gamma, "γ", phase.delta, "δ"))
            if axis.size >= 2]


def phase_diagram_pages(phase, axis_name, w):
    """Heatmap of the mean overlap over (`axis_name`, snr) at the largest d for weighting index `w`, one
    panel per value of the other axis (every value: 9 a page), with the theoretical population and sample
    thresholds and the empirical thresholds of the figures' rule."""
    k = -1
    overlap = phase["overlap_mean"][:, k]
    empirical = phase.empirical_threshold()[:, k]
    # The finite-T threshold of the trials' own token draws, where the sweep computed it (concentrated
    # weightings: docs/finite_t.md); None in files assembled before it existed.
    finite_t = phase.get("theory_finite_t_threshold_snr")
    finite_t = finite_t[:, k] if finite_t is not None else None
    (_, axis, symbol, other, other_symbol), = [a for a in phase_axes(phase) if a[0] == axis_name]
    fine = phase.theory(axis_name, 1, k)
    pop_fine = phase.theory(f"pop_threshold_snr_vs_{axis_name}", 3, k)
    sample_fine = phase.theory(f"sample_threshold_snr_vs_{axis_name}", 3, k)
    name = phase.weighting[w]
    chunks = pages(range(other.size))
    figures = []
    for page, others in enumerate(chunks):
        fig, axes = subplots(len(others))
        for ax, j in zip(axes, others):
            if axis_name == "delta":
                grid, emp, p_fine, s_fine = overlap[w, :, j, :], empirical[w, :, j], pop_fine[w, j], sample_fine[w, j]
            else:
                grid, emp, p_fine, s_fine = overlap[w, j, :, :], empirical[w, j, :], pop_fine[w, j], sample_fine[w, j]
            mesh = ax.pcolormesh(edges(axis), edges(phase.snr), grid.T, vmin=0, vmax=1, cmap="viridis",
                                 shading="flat")
            ax.plot(fine, p_fine, color="white", ls="--", lw=1.6, path_effects=OUTLINED,
                    label="population threshold (theory)")
            ax.plot(fine, s_fine, color="orange", ls="-", lw=1.8, label="sample threshold (theory)")
            if finite_t is not None:
                ft = finite_t[w, :, j] if axis_name == "delta" else finite_t[w, j, :]
                if np.isfinite(ft).any():
                    ax.plot(axis, ft, "s--", color="cyan", mec="black", ms=5, lw=1.2,
                            label="finite-T threshold (own token draws)")
            ok = np.isfinite(emp)
            ax.plot(axis[ok], emp[ok], "o", color="red", mec="black", ms=6,
                    label=f"empirical threshold ({phase.rule()} rule)")
            ax.set_xlim(edges(axis)[0], edges(axis)[-1])
            ax.set_ylim(edges(phase.snr)[0], edges(phase.snr)[-1])
            ax.set_xlabel(f"{symbol} = d/{'V' if axis_name == 'delta' else 'N'}")
            ax.set_ylabel("snr = ‖μ‖²")
            ax.set_title(f"{other_symbol} = {other[j]:g}", fontsize=10)
            fig.colorbar(mesh, ax=ax, label="mean overlap |ûᵀu|²")
        axes[0].legend(loc="upper left", fontsize=7, framealpha=0.9)
        fig.suptitle(f"Phase diagram, weighting {name}, at {phase.size_title(k)}{page_note(page, len(chunks))}\n"
                     f"{phase.fixed_but_d}", fontsize=10)
        fig.tight_layout()
        figures.append((page_name(phase_figure(axis_name, name), page, len(chunks)), fig))
    return figures


def phase_diagrams(phase):
    """Every page of every phase diagram: per weighting, over each axis (delta, gamma) that varies."""
    return [page for axis_name, *_ in phase_axes(phase) for w in range(len(phase.weighting))
            for page in phase_diagram_pages(phase, axis_name, w)]


def phase_figure(axis_name, weighting):
    return f"phase_{axis_name}_{safe(weighting)}"


def phase_figures(phase):
    """The file names (without extension) phase_diagrams writes."""
    return [page_name(phase_figure(axis_name, name), page, len(pages(range(other.size))))
            for axis_name, _, _, other, _ in phase_axes(phase) for name in phase.weighting
            for page in range(len(pages(range(other.size))))]


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def cell_panels(phase):
    """The (delta index, gamma index) pairs, one panel each, in pages of the curves against snr."""
    return pages([(i, j) for i in range(phase.delta.size) for j in range(phase.gamma.size)])


def visibly_different(a, b, scale):
    """Whether two curves on the same grid differ by more than 1 % of the axis range somewhere."""
    ok = np.isfinite(a) & np.isfinite(b)
    return bool(ok.any() and np.max(np.abs(a[ok] - b[ok])) > 0.01 * scale)


def curves_vs_snr_pages(phase, quantity, label, name, theory=None, edge=False):
    """`quantity`_mean ± std against snr at the largest d, one colour per weighting, theory as lines; the
    finite-T theory of the trials' own token draws (x--, /phase/theory_finite_t_*) where the file carries it
    and it differs visibly from the paper's; one panel per (delta, gamma), every one of them (9 a page)."""
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
    chunks = cell_panels(phase)
    note = "points: trial mean ± 1 std"
    if theory_fine is not None:
        note += "; lines: theory; dotted: sample threshold"
    if edge_right is not None:
        note += "; dashed: bulk edge"
    drew_finite_t = False
    palette = colours()
    figures = []
    for page, cells in enumerate(chunks):
        fig, axes = subplots(len(cells))
        for ax, (i, j) in zip(axes, cells):
            for w, weighting in enumerate(phase.weighting):
                colour = palette[w % len(palette)]
                ax.errorbar(phase.snr, mean[w, i, j], yerr=std[w, i, j], fmt="o", ms=4, capsize=2, color=colour,
                            label=f"{weighting} (measured)")
                if theory_fine is not None:
                    ax.plot(fine, theory_fine[w, i, j], "-", color=colour, lw=1.4, label=f"{weighting} (theory)")
                    ax.axvline(sample[w, i, j], color=colour, ls=":", lw=1)
                if edge_right is not None:
                    ax.axhline(edge_right[w, i, j], color=colour, ls="--", lw=0.8)
                measured = mean[w, i, j]
                span = np.nanmax(measured) - np.nanmin(measured) if np.isfinite(measured).any() else 1.0
                if finite_t is not None and visibly_different(finite_t[w, i, j], paper_cells[w, i, j],
                                                              max(span, 1e-12)):
                    ok = np.isfinite(finite_t[w, i, j])
                    ax.plot(phase.snr[ok], finite_t[w, i, j][ok], "x--", color=colour, lw=1.2, ms=5,
                            label=f"{weighting} (finite-T, own draws)")
                    if finite_t_threshold is not None and np.isfinite(finite_t_threshold[w, i, j]):
                        ax.axvline(finite_t_threshold[w, i, j], color=colour, ls="-.", lw=1)
                    if finite_t_edge is not None and np.isfinite(finite_t_edge[w, i, j]):
                        ax.axhline(finite_t_edge[w, i, j], color=colour, ls="-.", lw=0.8)
                    drew_finite_t = True
            ax.set_xlabel("snr = ‖μ‖²")
            ax.set_ylabel(label)
            ax.set_title(phase.cell_title(i, j), fontsize=10)
            ax.grid(alpha=0.3)
            if log_scale(phase.snr):
                ax.set_xscale("log")
        axes[0].legend(fontsize=7, ncol=1 if len(phase.weighting) < 4 else 2)
        page_text = note + ("; x--: finite-T (trial mean), dash-dot: its threshold" + (" and edge" if edge else "")
                            if drew_finite_t else "")
        fig.suptitle(f"{label} against snr at {phase.size_title(k)}{phase.constant_axes()}"
                     f"{page_note(page, len(chunks))}\n{phase.fixed_but_d}\n({page_text})", fontsize=10)
        fig.tight_layout()
        figures.append((page_name(name, page, len(chunks)), fig))
    return figures


def log_scale(snr):
    """A log axis suits an snr axis of positive values spanning more than a decade and a half."""
    return snr.size > 2 and snr.min() > 0 and snr.max() / snr.min() > 30
