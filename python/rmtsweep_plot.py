#!/usr/bin/python3
"""PNG figures from an rmtsweep sweep file (after `rmtsweep assemble FILE.h5`).

    rmtsweep plot FILE.h5 --out DIR [--point INDEX] [--dpi N] [--force]
    /usr/bin/python3 python/rmtsweep_plot.py FILE.h5 --out DIR

Reads /phase (written by `rmtsweep assemble`), /points and /spectra, and writes:
  phase_delta_<weighting>.png  mean overlap over (delta, snr) with the theoretical population
                               and sample thresholds and the empirical thresholds (when delta varies)
  phase_gamma_<weighting>.png  the same over (gamma, snr) (when gamma varies)
  overlap_vs_snr.png           overlap against snr, one colour per weighting, theory as lines
  top_eigenvalue_vs_snr.png    top eigenvalue against snr, with lambda_S and the bulk edge
  ridge_accuracy_vs_snr.png    downstream ridge accuracy against snr per weighting
  spectrum.png                 eigenvalue histogram of one point against kappa (MP_delta [x] MP_gamma)
and, when the sweep has several embedding dimensions d (finite-size scaling):
  threshold_vs_d.png           empirical thresholds against d^(-1/3) with their bootstrap errors, the
                               fit thr_inf + a x (+ b x^2) and its extrapolation to d -> infinity
  overlap_vs_snr_by_d.png      overlap against snr, one colour per d, per weighting
and, after `rmtsweep refine` (a /refine group and /phase/refined_threshold_snr):
  refinement.png               per line, the grid's detected fraction, the points the refinement added
                               (detected at 1, not at 0) and the fitted probit curve with its threshold
The figures above that show one d show the largest (their titles say so). /phase has the axes
weighting x d x delta x gamma x snr; a file assembled before d was an axis (no /phase/d) is read
as a sweep with one d.
It refuses (exit 2) to overwrite figures already in DIR unless --force is given.
Needs Debian's python3-h5py, python3-matplotlib and python3-numpy.
"""
import argparse
import os
import re
import sys

import h5py
import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MAX_PANELS = 6
# Below 10 dpi text is unreadable; 1200 is past print resolution and the largest figures
# (14 x 7 inches) already hold ~10^8 pixels there, and Agg refuses 2^16 pixels a side.
DPI_MIN, DPI_MAX = 10, 1200
CURVE_FIGURES = ("overlap_vs_snr.png", "top_eigenvalue_vs_snr.png", "ridge_accuracy_vs_snr.png")
THRESHOLD_VS_D_FIGURE = "threshold_vs_d.png"
OVERLAP_BY_D_FIGURE = "overlap_vs_snr_by_d.png"
SPECTRUM_FIGURE = "spectrum.png"
REFINEMENT_FIGURE = "refinement.png"


class InvalidOption(Exception):
    """A bad option value; main prints it as rmtsweep's InvalidOption does and exits 2."""

    def __init__(self, option, value, allowed):
        super().__init__(f"invalid {option} '{value}': {allowed}")


class FileProblem(Exception):
    """A file that cannot be read or written; main prints it on one line, as rmtsweep's
    FileIoError, and exits 1."""


ERRNO_ADVICE = {
    28: "its file system is full (df -h {dir}): free space there or write elsewhere",
    122: "your disk quota there is used up (quota -s): free space or write elsewhere",
    13: "check the permissions of the file and of its directory (ls -l {path})",
    1: "check the permissions of the file and of its directory (ls -l {path})",
    30: "its file system is mounted read-only: write elsewhere",
    5: "the storage reported a hardware or network error: check the file system (dmesg)",
}


def file_problem(path, operation, error):
    """The one line of a failed open, read or write of `path`: the cause (the OS error, or that the
    file is truncated to N of the M bytes HDF5 expects) and what to do."""
    text = str(error)
    if "truncated file" in text:
        expected = re.search(r"stored_eof = (\d+)", text)
        cause = "the file is truncated"
        if expected and os.path.exists(path):
            cause += f" ({os.path.getsize(path)} bytes of the {expected.group(1)} bytes HDF5 expects)"
        advice = ("an interrupted copy, a quota or a full disk cut it, and HDF5 cannot open any of it: copy it "
                  "again from where it came from, or restore a backup")
    elif getattr(error, "errno", None):
        cause = os.strerror(error.errno)
        advice = ERRNO_ADVICE.get(error.errno, "").format(dir=os.path.dirname(path) or ".", path=path)
    else:
        cause = text
        advice = "the file may be damaged"
    return FileProblem(f"{path}: cannot {operation}: {cause}" + (f"; {advice}" if advice else ""))


def strings(dataset):
    """Fixed- or variable-length HDF5 strings as Python str, trailing NULs/spaces removed."""
    return [v.decode() if isinstance(v, bytes) else str(v) for v in dataset[...]]


def config_values(text):
    """key = value pairs of the INI text stored in the root attribute `config`."""
    values = {}
    for line in text.splitlines():
        match = re.match(r"\s*([A-Za-z_]+)\s*=\s*(.*?)\s*$", line)
        if match:
            values[match.group(1)] = match.group(2)
    return values


def config_text(h5):
    text = h5.attrs.get("config", "")
    return text.decode() if isinstance(text, bytes) else str(text)


def sizes_label(sizes):
    """d for titles: "d=400" for one size, "d=500..2000" for several (a list, as the config writes it)."""
    values = [str(v).strip() for v in sizes if str(v).strip()]
    if not values:
        return "d=?"
    return f"d={values[0]}" if len(values) == 1 else f"d={values[0]}..{values[-1]}"


def fixed_parameters(h5, sizes=None):
    """The sweep-wide parameters for titles: d (one value or a range), T, correlation, table.
    `sizes` (the /phase/d axis) wins over the config's `d = 500,1000,2000` or `d = 400`."""
    conf = config_values(config_text(h5))
    if sizes is None:
        if "d" in conf:
            sizes = re.split(r"[,\s]+", conf["d"])
        else:
            sizes = [str(int(h5["points/d"][0]))] if "points/d" in h5 and h5["points/d"].size else ["?"]
    return f"{sizes_label(sizes)}, T={conf.get('T', '?')}, R={conf.get('correlation', '?')}, " \
           f"table={conf.get('table', 'iid')}"


def single_size(h5, group):
    """The one d of a file assembled before d was an axis: /phase's attribute d, else the config's,
    else the points'."""
    if "d" in group.attrs:
        return int(np.asarray(group.attrs["d"]).ravel()[0])
    sizes = re.findall(r"\d+", config_values(config_text(h5)).get("d", ""))
    if sizes:
        return int(sizes[-1])
    return int(h5["points/d"][0]) if "points/d" in h5 and h5["points/d"].size else 0


def panel_indices(count, limit=MAX_PANELS):
    """At most `limit` indices spread evenly over range(count)."""
    if count <= limit:
        return list(range(count))
    return sorted(set(np.linspace(0, count - 1, limit).round().astype(int).tolist()))


def edges(centres):
    """Cell edges around grid centres (for pcolormesh on a non-uniform grid)."""
    c = np.asarray(centres, dtype=float)
    if c.size == 1:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = (c[:-1] + c[1:]) / 2
    return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])


def subplots(count, width=4.6, height=3.6):
    if count == 1:
        width, height = 6.4, 4.6
    cols = min(count, 3)
    rows = (count + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:count])


def save(fig, out, name, dpi):
    path = os.path.join(out, name)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    print(path)
    return path


class Phase:
    """The /phase group of an assembled sweep file, as numpy arrays with the axes
    weighting x d x delta x gamma x snr (cells) or weighting x d x delta x gamma (lines)."""

    def __init__(self, h5):
        if "phase" not in h5:
            sys.exit("rmtsweep plot: the file has no /phase group: run `rmtsweep assemble FILE.h5` first")
        p = h5["phase"]
        self.group = p
        self.weighting = strings(p["weighting"])
        # Before finite-size scaling /phase had no d axis: read such a file as one with a single d.
        self.legacy = "d" not in p
        self.d = np.array([single_size(h5, p)] if self.legacy else p["d"][...], dtype=np.int64)
        self.delta = p["delta"][...]
        self.gamma = p["gamma"][...]
        self.snr = p["snr"][...]
        self.fixed = fixed_parameters(h5, [str(v) for v in self.d])

    def __getitem__(self, name):
        """A cell or line array of /phase, with a length-1 d axis inserted at axis 1 in a legacy file
        (whose arrays starting weighting x delta x gamma are exactly its cell and line arrays)."""
        values = self.group[name][...]
        if self.legacy and values.ndim >= 3 and values.shape[:3] == (len(self.weighting), self.delta.size,
                                                                     self.gamma.size):
            values = np.expand_dims(values, 1)
        return values

    def get(self, name):
        """An array that newer files have (e.g. empirical_threshold_snr_err), or None."""
        return self[name] if name in self.group else None

    def theory(self, name, ndim, k=-1):
        """A /phase/theory curve at size index k (largest d by default). Curves that depend on d
        carry it as axis 1 after weighting (axis 0 for 1-D axes): one more dimension than `ndim`."""
        values = self.group[f"theory/{name}"][...]
        if values.ndim == ndim + 1:
            values = values[k] if ndim == 1 else values[:, k]
        return values

    def size_title(self, k=-1):
        """Which d a figure shows, for its title."""
        if self.d.size == 1:
            return f"d = {self.d[k]}"
        return f"d = {self.d[k]}" + (" (the largest)" if k in (-1, self.d.size - 1) else "")

    def rule(self):
        """The detection rule the figures draw (`rmtsweep assemble --detection RULE`; edge before it existed)."""
        rule = self.group.attrs.get("figure_detection", b"edge")
        return rule.decode() if isinstance(rule, bytes) else str(rule)

    def empirical_threshold(self):
        """Per (weighting, d, delta, gamma) line, the empirical threshold of the figures' rule."""
        rule = self.rule()
        if rule != "edge" and f"detection/{rule}" in self.group:
            return self[f"detection/{rule}/empirical_threshold_snr"]
        return self["empirical_threshold_snr"]

    def extrapolation_source(self):
        """Where the thresholds fitted against d^(-1/3) live: the figures' rule's group when it holds
        an extrapolation, else /phase itself (the edge rule)."""
        rule = self.rule()
        if rule != "edge" and f"detection/{rule}/extrapolated_threshold_snr" in self.group:
            return f"detection/{rule}/", rule
        return "", "edge"


def phase_diagrams(phase, out, dpi):
    """Heatmaps of the mean overlap over (delta, snr) and (gamma, snr) at the largest d, one file
    per weighting."""
    paths = []
    k = -1
    overlap = phase["overlap_mean"][:, k]
    empirical = phase.empirical_threshold()[:, k]
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


def curves_vs_snr(phase, out, dpi, quantity, label, filename, theory=None, edge=False):
    """`quantity`_mean ± std against snr at the largest d, one colour per weighting, theory as lines."""
    k = -1
    mean, std = phase[f"{quantity}_mean"][:, k], phase[f"{quantity}_std"][:, k]
    fine = phase.theory("snr", 1, k)
    theory_fine = phase.theory(theory, 4, k) if theory else None
    sample = phase["theory_sample_threshold_snr"][:, k]
    edge_right = phase["theory_bulk_edge_right"][:, k] if edge else None
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
    if log_scale(phase.snr):
        for ax in axes:
            ax.set_xscale("log")
    fig.suptitle(f"{label} against snr at {phase.size_title(k)}\n{phase.fixed}\n({note})", fontsize=10)
    fig.tight_layout()
    return save(fig, out, filename, dpi)


def log_scale(snr):
    """A log axis suits an snr axis of positive values spanning more than a decade and a half."""
    return snr.size > 2 and snr.min() > 0 and snr.max() / snr.min() > 30


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


def finite_size_figures(phase):
    """The file names of the finite-size figures this file gets (none with a single d)."""
    names = [THRESHOLD_VS_D_FIGURE] if finite_size_lines(phase) else []
    return names + ([OVERLAP_BY_D_FIGURE] if phase.d.size >= 2 else [])


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


def threshold_vs_d(phase, out, dpi):
    """Empirical thresholds against x = d^(-1/3) with bootstrap errors, the stored fit
    thr_inf + a x (+ b x^2) and its extrapolation at x = 0 against the theory's sample threshold;
    one panel per (delta, gamma), one colour per weighting."""
    threshold, error, rule, prefix = fitted_thresholds(phase)
    theory = phase["theory_sample_threshold_snr"][:, -1]
    lines = finite_size_lines(phase)
    cells = sorted({(i, j) for _, i, j in lines})
    cells = [cells[k] for k in panel_indices(len(cells))]
    x = phase.d.astype(float) ** (-1.0 / 3.0)
    fine = np.linspace(0.0, x.max() * 1.04, 120)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, axes = subplots(len(cells))
    for ax, (i, j) in zip(axes, cells):
        for w, name in enumerate(phase.weighting):
            if (w, i, j) not in lines:
                continue
            colour = colours[w % len(colours)]
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
        ax.set_title(f"δ = {phase.delta[i]:g}, γ = {phase.gamma[j]:g}", fontsize=10)
        ax.grid(alpha=0.3)
        top = ax.twiny()  # the sizes themselves along the top
        top.set_xlim(ax.get_xlim())
        top.set_xticks(x)
        top.set_xticklabels([f"d={v}" for v in phase.d], fontsize=7)
        ax.legend(fontsize=6, loc="best")
    note = ("points: threshold ± bootstrap error (open: no error); dashed: fit;\n"
            "square at x = 0: extrapolation; star: theory's sample threshold (at the largest d)")
    fig.suptitle(f"Finite-size scaling of the empirical threshold\n{phase.fixed}\n({note})", fontsize=9)
    fig.tight_layout()
    return save(fig, out, THRESHOLD_VS_D_FIGURE, dpi)


def overlap_vs_snr_by_d(phase, out, dpi):
    """Mean overlap ± std against snr, one colour per d, with the theory on the grid as lines; one
    panel per weighting at the middle delta and gamma."""
    i, j = (phase.delta.size - 1) // 2, (phase.gamma.size - 1) // 2
    mean, std, theory = phase["overlap_mean"], phase["overlap_std"], phase["theory_overlap"]
    weightings = panel_indices(len(phase.weighting))
    colours = plt.cm.viridis(np.linspace(0.0, 0.85, phase.d.size))
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
    fig.suptitle(f"Overlap against snr by d at δ = {phase.delta[i]:g}, γ = {phase.gamma[j]:g}\n{phase.fixed}\n"
                 "(points: trial mean ± 1 std; open squares: extrapolated to d → ∞; lines: theory)", fontsize=10)
    fig.tight_layout()
    return save(fig, out, OVERLAP_BY_D_FIGURE, dpi)


def choose_point(h5, phase):
    """A done point with a spectrum: the largest size that stores spectra, the last weighting at the
    middle delta and gamma, at the middle snr where theory predicts an outlier (else the largest snr),
    trial 0."""
    p = h5["points"]
    sizes = sizes_with_spectra(h5)
    status = np.where(p["d"][...] == sizes.max(), p["status"][...], 0) if sizes.size else p["status"][...] * 0
    weighting = np.array(strings(p["weighting"]))
    delta, gamma, snr, trial = p["delta"][...], p["gamma"][...], p["snr"][...], p["trial"][...]
    detectable = p["theory_detectable"][...] if "theory_detectable" in p else p["theory_overlap"][...] > 0
    d0, g0 = phase.delta[(phase.delta.size - 1) // 2], phase.gamma[(phase.gamma.size - 1) // 2]
    candidates = np.flatnonzero((status == 1) & (weighting == phase.weighting[-1]) & np.isclose(delta, d0)
                                & np.isclose(gamma, g0) & (trial == trial.min()))
    if candidates.size == 0:
        candidates = np.flatnonzero(status == 1)
    if candidates.size == 0:
        return None
    above = candidates[detectable[candidates] > 0]
    if above.size:
        middle = np.sort(np.unique(snr[above]))
        target = middle[middle.size // 2]
        return int(above[np.flatnonzero(np.isclose(snr[above], target))[0]])
    return int(candidates[np.argmax(snr[candidates])])


def spectrum_row(h5, index):
    """(dataset, row) holding point `index`'s eigenvalues, or None when its size stores none.
    schema_version 2: /spectra/d<d>/eigenvalues, row found in /spectra/d<d>/point;
    schema_version 1: /spectra/eigenvalues, row = index."""
    if "spectra/eigenvalues" in h5:
        return h5["spectra/eigenvalues"], index
    d = int(h5["points/d"][index])
    group = f"spectra/d{d}"
    if group not in h5:
        return None
    rows = np.flatnonzero(h5[group + "/point"][...] == index)
    return (h5[group + "/eigenvalues"], int(rows[0])) if rows.size else None


def has_any_spectra(h5):
    """Whether any size of the sweep stores its spectra."""
    return "spectra" in h5 and len(h5["spectra"]) > 0


def sizes_with_spectra(h5):
    """The sizes d whose spectra the file stores (every point's, for schema_version 1)."""
    if "spectra/eigenvalues" in h5:
        return np.unique(h5["points/d"][...])
    return np.array(sorted(int(name[1:]) for name in h5["spectra"] if name.startswith("d")), dtype=np.int64)


def spectrum_point(h5, phase, point_text):
    """The point whose spectrum is drawn: --point checked (a done point of a size with spectra),
    else one chosen; None, with a note on stderr, when there is nothing to draw."""
    has_spectra = has_any_spectra(h5)
    status = h5["points/status"][...]
    if point_text is None:
        if not has_spectra:
            print(f"rmtsweep plot: no /spectra in the file (store_spectra off): no {SPECTRUM_FIGURE}",
                  file=sys.stderr)
            return None
        index = choose_point(h5, phase)
        if index is None:
            print(f"rmtsweep plot: no point is done: no {SPECTRUM_FIGURE}", file=sys.stderr)
        return index
    allowed = f"allowed: the index of a done point, 0..{status.size - 1}"
    try:
        index = int(point_text)
    except ValueError:
        raise InvalidOption("--point", point_text, allowed) from None
    if not 0 <= index < status.size:
        raise InvalidOption("--point", point_text, allowed + f" (the file has {status.size} points)")
    if status[index] != 1:
        state = {0: "pending", 2: "failed"}.get(int(status[index]), f"status {int(status[index])}")
        raise InvalidOption("--point", point_text, allowed + f"; point {index} is {state} (see rmtsweep status)")
    if not has_spectra:
        raise InvalidOption("--point", point_text,
                            "the file has no /spectra (store_spectra off): no spectrum to draw")
    if spectrum_row(h5, index) is None:
        raise InvalidOption("--point", point_text,
                            f"a point of a size whose spectra are stored; point {index} has "
                            f"d = {int(h5['points/d'][index])}, whose spectra are not (store_spectra)")
    return index


def spectrum(h5, phase, out, dpi, index):
    """Histogram of all eigenvalues of point `index` against the theoretical bulk density."""
    p = h5["points"]
    dataset, row = spectrum_row(h5, index)
    values = np.asarray(dataset[row], dtype=float)
    name = strings(p["weighting"])[index]
    delta, gamma, snr = (float(p[key][index]) for key in ("delta", "gamma", "snr"))
    size = int(p["d"][index]) if "d" in p else int(phase.d[-1])
    w = phase.weighting.index(name)
    i = int(np.argmin(abs(phase.delta - delta)))
    j = int(np.argmin(abs(phase.gamma - gamma)))
    k = int(np.argmin(abs(phase.d - size)))
    x = phase.theory("density_x", 4, k)[w, i, j]
    f = phase.theory("density", 4, k)[w, i, j]
    edge = float(p["theory_bulk_edge_right"][index])
    outlier = float(p["theory_top_eigenvalue"][index])
    detectable = bool(p["theory_detectable"][index]) if "theory_detectable" in p else outlier > edge
    top = float(values.max())
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    upper = max(top, outlier, edge) * 1.08
    bins = np.linspace(0, upper, 90)
    ax.hist(values, bins=bins, weights=np.full(values.size, 1.0 / values.size), color="tab:blue", alpha=0.55,
            label=f"eigenvalues of S ({values.size})")
    # the histogram holds fraction per bin; the density integrates to the continuous mass
    atom = 1.0 - min(1.0, 1.0 / delta, 1.0 / gamma)  # model.md 5.1: mass of the bulk at 0
    law = "κ·(MP_δ ⊠ MP_γ) density (theory)"
    if atom > 0:
        law += f"\n+ mass {atom:.3g} at 0 (first bin)"
    ax.plot(x, f * (bins[1] - bins[0]), color="black", lw=1.8, label=law)
    ax.axvline(edge, color="gray", ls="--", lw=1.2, label=f"right bulk edge {edge:.4g}")
    if detectable:
        ax.axvline(outlier, color="red", ls="-", lw=1.5, label=f"outlier λ_S = {outlier:.4g} (theory)")
    ax.plot([top], [0], marker="v", color="red", ms=10, ls="none", clip_on=False, label=f"top eigenvalue {top:.4g}")
    ax.set_xlabel("eigenvalue λ of the sample covariance S")
    ax.set_ylabel("fraction of eigenvalues per bin")
    ax.set_xlim(0, upper)
    ax.legend(fontsize=8)
    ax.set_title(f"Spectrum of point {index}: d={size}, weighting {name}, δ={delta:g}, γ={gamma:g}, "
                 f"snr={snr:g}, trial {int(p['trial'][index])}\n{phase.fixed}", fontsize=10)
    fig.tight_layout()
    return save(fig, out, SPECTRUM_FIGURE, dpi)


def parse_dpi(text):
    allowed = f"allowed: an integer from {DPI_MIN} to {DPI_MAX} (dots per inch)"
    try:
        dpi = int(text)
    except ValueError:
        raise InvalidOption("--dpi", text, allowed) from None
    if not DPI_MIN <= dpi <= DPI_MAX:
        raise InvalidOption("--dpi", text, allowed)
    return dpi


def check_out(out):
    """--out must be a directory, or a path whose nearest existing ancestor is one (it is created)."""
    allowed = "allowed: a directory, or a path that does not exist yet (it is created)"
    if os.path.exists(out) and not os.path.isdir(out):
        raise InvalidOption("--out", out, allowed + "; this is an existing file")
    ancestor = os.path.dirname(os.path.abspath(out))
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise InvalidOption("--out", out, allowed + f"; {ancestor} is a file, not a directory")


def check_overwrite(out, names, force):
    """Figures from an earlier plot are not replaced unless --force says so."""
    existing = [name for name in names if os.path.lexists(os.path.join(out, name))]
    if existing and not force:
        shown = ", ".join(existing[:3]) + (f" and {len(existing) - 3} more" if len(existing) > 3 else "")
        raise InvalidOption("--out", out, f"a directory without the figures this draws: it already holds {shown}; "
                                          "pass --force to overwrite them, or choose another --out")


def check_point_syntax(point_text):
    """--point is an index (>= 0) whatever the file holds: refused as typed before the file is read,
    so that a bad value is named even in a file that cannot be plotted yet (no /phase)."""
    if point_text is None:
        return
    try:
        index = int(point_text)
    except ValueError:
        index = -1
    if index < 0:
        raise InvalidOption("--point", point_text, "allowed: the index of a done point, an integer >= 0")


def check_file(path):
    if not os.path.isfile(path):
        raise InvalidOption("FILE", path, "no such file" if not os.path.exists(path) else "not a regular file")
    try:
        open(path, "rb").close()
    except OSError as e:  # h5py.is_hdf5 would say only "not HDF5"
        raise file_problem(path, "open the sweep file", e) from None
    if os.path.getsize(path) == 0:
        raise InvalidOption("FILE", path, "an empty file (0 bytes): an interrupted copy, or a run stopped before it "
                                          "wrote its file; copy it again, or start the sweep again")
    if not h5py.is_hdf5(path):
        raise InvalidOption("FILE", path, "not an HDF5 file: an rmtsweep sweep file is needed")


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


def refinement_figures(h5, phase):
    """[REFINEMENT_FIGURE] when the file has refined points and assembled refined thresholds."""
    return [REFINEMENT_FIGURE] if refined_points(h5, phase) is not None and phase.get("refined_threshold_snr") is not None else []


def normal_cdf(x):
    from math import erf, sqrt
    return 0.5 * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def refinement(h5, phase, out, dpi):
    """Per line (up to MAX_PANELS): the grid's detected fraction (edge rule), the refined points (detected at 1,
    not at 0, jittered), the fitted detection curve with its half crossing, and the refined threshold (median of
    the per-trial thresholds) +- its error as a band."""
    lines, snr, top = refined_points(h5, phase)
    median, median_err = phase["refined_threshold_snr"], phase["refined_threshold_snr_err"]
    fitted = phase.get("refined_fit_threshold_snr")
    mu, mu_err = (median, median_err) if fitted is None else (fitted, phase["refined_fit_threshold_snr_err"])
    sigma = phase["refined_width_snr"]
    threshold = phase.group["detection/edge/threshold"][...]
    fraction = phase["detected_fraction"]
    shape = mu.shape
    chosen = [tuple(k) for k in np.ndindex(*shape)]
    chosen = [chosen[k] for k in panel_indices(len(chosen))]
    fig, axes = subplots(len(chosen))
    rng = np.random.default_rng(0)
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
    fig.suptitle(f"adaptive refinement (edge rule)\n{phase.fixed}", fontsize=10)
    fig.tight_layout()
    return save(fig, out, REFINEMENT_FIGURE, dpi)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="rmtsweep plot", description=__doc__.split("\n")[0])
    parser.add_argument("file", help="an assembled sweep file (rmtsweep assemble FILE.h5)")
    parser.add_argument("--out", default="figures", help="directory for the PNG files (created)")
    parser.add_argument("--point", default=None, help="point index of the spectrum, a done point (default: chosen)")
    parser.add_argument("--dpi", default="110", help=f"resolution of the PNG files, {DPI_MIN} to {DPI_MAX}")
    parser.add_argument("--force", action="store_true", help="overwrite figures of the same names in --out")
    args = parser.parse_args(argv)
    try:
        # Everything is checked before the first file is written.
        check_point_syntax(args.point)
        check_file(args.file)
        dpi = parse_dpi(args.dpi)
        check_out(args.out)
        try:
            h5 = h5py.File(args.file, "r")
        except OSError as e:
            raise file_problem(args.file, "open the sweep file", e) from None
        with h5:
            phase = Phase(h5)
            index = spectrum_point(h5, phase, args.point)
            names = (phase_figures(phase) + list(CURVE_FIGURES) + finite_size_figures(phase)
                     + ([SPECTRUM_FIGURE] if index is not None else []) + refinement_figures(h5, phase))
            check_overwrite(args.out, names, args.force)
            os.makedirs(args.out, exist_ok=True)
            draw(h5, phase, args.out, dpi, index)
    except InvalidOption as e:
        parser.exit(2, f"rmtsweep plot: {e}\n")
    except FileProblem as e:
        parser.exit(1, f"rmtsweep plot: error: {e}\n")
    except OSError as e:  # a figure not written (a full disk), a dataset not read (a damaged file)
        written = e.filename is not None and os.path.abspath(str(e.filename)) != os.path.abspath(args.file)
        problem = file_problem(str(e.filename) if written else args.file,
                               "write the figure" if written else "read the sweep file", e)
        parser.exit(1, f"rmtsweep plot: error: {problem}\n")
    return 0


def draw(h5, phase, out, dpi, index):
    if not phase_diagrams(phase, out, dpi):
        print("rmtsweep plot: delta and gamma each take one value: no phase diagram", file=sys.stderr)
    overlap, top, ridge = CURVE_FIGURES
    curves_vs_snr(phase, out, dpi, "overlap", "overlap |ûᵀu|²", overlap, theory="overlap")
    curves_vs_snr(phase, out, dpi, "top_eigenvalue", "top eigenvalue λ₁ of S", top, theory="top_eigenvalue",
                  edge=True)
    curves_vs_snr(phase, out, dpi, "ridge_accuracy", "ridge test accuracy", ridge)
    figures = finite_size_figures(phase)
    if THRESHOLD_VS_D_FIGURE in figures:
        threshold_vs_d(phase, out, dpi)
    elif phase.d.size >= 2:
        print(f"rmtsweep plot: no line has an empirical threshold at two sizes: no {THRESHOLD_VS_D_FIGURE}",
              file=sys.stderr)
    if OVERLAP_BY_D_FIGURE in figures:
        overlap_vs_snr_by_d(phase, out, dpi)
    if index is not None:
        spectrum(h5, phase, out, dpi, index)
    if refinement_figures(h5, phase):
        refinement(h5, phase, out, dpi)


if __name__ == "__main__":
    sys.exit(main())
