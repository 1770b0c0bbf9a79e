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
SPECTRUM_FIGURE = "spectrum.png"


class InvalidOption(Exception):
    """A bad option value; main prints it as rmtsweep's InvalidOption does and exits 2."""

    def __init__(self, option, value, allowed):
        super().__init__(f"invalid {option} '{value}': {allowed}")


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


def fixed_parameters(h5):
    """The sweep-wide parameters for titles: d, T, correlation, table."""
    text = h5.attrs.get("config", "")
    if isinstance(text, bytes):
        text = text.decode()
    conf = config_values(text)
    d = conf.get("d", str(int(h5["points/d"][0])) if "points/d" in h5 else "?")
    return f"d={d}, T={conf.get('T', '?')}, R={conf.get('correlation', '?')}, table={conf.get('table', 'iid')}"


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
    """The /phase group of an assembled sweep file, as numpy arrays."""

    def __init__(self, h5):
        if "phase" not in h5:
            sys.exit("rmtsweep plot: the file has no /phase group: run `rmtsweep assemble FILE.h5` first")
        p = h5["phase"]
        self.group = p
        self.weighting = strings(p["weighting"])
        self.delta = p["delta"][...]
        self.gamma = p["gamma"][...]
        self.snr = p["snr"][...]
        self.fixed = fixed_parameters(h5)

    def __getitem__(self, name):
        return self.group[name][...]

    def rule(self):
        """The detection rule the figures draw (`rmtsweep assemble --detection RULE`; edge before it existed)."""
        rule = self.group.attrs.get("figure_detection", b"edge")
        return rule.decode() if isinstance(rule, bytes) else str(rule)

    def empirical_threshold(self):
        """Per (weighting, delta, gamma) line, the empirical threshold of the figures' rule."""
        rule = self.rule()
        if rule != "edge" and f"detection/{rule}" in self.group:
            return self.group[f"detection/{rule}/empirical_threshold_snr"][...]
        return self["empirical_threshold_snr"]


def phase_diagrams(phase, out, dpi):
    """Heatmaps of the mean overlap over (delta, snr) and (gamma, snr), one file per weighting."""
    paths = []
    overlap = phase["overlap_mean"]
    pop, sample = phase["theory_pop_threshold_snr"], phase["theory_sample_threshold_snr"]
    empirical = phase.empirical_threshold()
    th = phase.group["theory"]
    for axis_name, axis, other, other_symbol in (("delta", phase.delta, phase.gamma, "γ"),
                                                  ("gamma", phase.gamma, phase.delta, "δ")):
        if axis.size < 2:
            continue
        symbol = "δ" if axis_name == "delta" else "γ"
        fine = th[axis_name][...]
        pop_fine = th[f"pop_threshold_snr_vs_{axis_name}"][...]
        sample_fine = th[f"sample_threshold_snr_vs_{axis_name}"][...]
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
            fig.suptitle(f"Phase diagram, weighting {name}\n{phase.fixed}", fontsize=10)
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
    """`quantity`_mean ± std against snr, one colour per weighting, theory as lines."""
    mean, std = phase[f"{quantity}_mean"], phase[f"{quantity}_std"]
    fine = phase.group["theory/snr"][...]
    theory_fine = phase.group[f"theory/{theory}"][...] if theory else None
    sample = phase["theory_sample_threshold_snr"]
    edge_right = phase["theory_bulk_edge_right"] if edge else None
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
    fig.suptitle(f"{label} against snr\n{phase.fixed}\n({note})", fontsize=10)
    fig.tight_layout()
    return save(fig, out, filename, dpi)


def log_scale(snr):
    """A log axis suits an snr axis of positive values spanning more than a decade and a half."""
    return snr.size > 2 and snr.min() > 0 and snr.max() / snr.min() > 30


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
    values = dataset[row]
    name = strings(p["weighting"])[index]
    delta, gamma, snr = (float(p[k][index]) for k in ("delta", "gamma", "snr"))
    w = phase.weighting.index(name)
    i = int(np.argmin(abs(phase.delta - delta)))
    j = int(np.argmin(abs(phase.gamma - gamma)))
    x = phase.group["theory/density_x"][w, i, j]
    f = phase.group["theory/density"][w, i, j]
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
    ax.set_title(f"Spectrum of point {index}: weighting {name}, δ={delta:g}, γ={gamma:g}, snr={snr:g}, "
                 f"trial {int(p['trial'][index])}\n{phase.fixed}", fontsize=10)
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
    if not h5py.is_hdf5(path):
        raise InvalidOption("FILE", path, "not an HDF5 file: an rmtsweep sweep file is needed")


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
        with h5py.File(args.file, "r") as h5:
            phase = Phase(h5)
            index = spectrum_point(h5, phase, args.point)
            names = phase_figures(phase) + list(CURVE_FIGURES) + ([SPECTRUM_FIGURE] if index is not None else [])
            check_overwrite(args.out, names, args.force)
            os.makedirs(args.out, exist_ok=True)
            draw(h5, phase, args.out, dpi, index)
    except InvalidOption as e:
        parser.exit(2, f"rmtsweep plot: {e}\n")
    return 0


def draw(h5, phase, out, dpi, index):
    if not phase_diagrams(phase, out, dpi):
        print("rmtsweep plot: delta and gamma each take one value: no phase diagram", file=sys.stderr)
    overlap, top, ridge = CURVE_FIGURES
    curves_vs_snr(phase, out, dpi, "overlap", "overlap |ûᵀu|²", overlap, theory="overlap")
    curves_vs_snr(phase, out, dpi, "top_eigenvalue", "top eigenvalue λ₁ of S", top, theory="top_eigenvalue",
                  edge=True)
    curves_vs_snr(phase, out, dpi, "ridge_accuracy", "ridge test accuracy", ridge)
    if index is not None:
        spectrum(h5, phase, out, dpi, index)


if __name__ == "__main__":
    sys.exit(main())
