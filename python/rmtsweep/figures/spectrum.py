"""The spectrum figure: one point's eigenvalue histogram against κ·(MP_δ ⊠ MP_γ), its bulk edge and outlier."""
import numpy as np

from matplotlib.lines import Line2D

from ..errors import InvalidOption
from ..files import open_h5, strings, sweep_of
from .common import panel_axes
from .data import FINE, selected, setting, source_of, unbroken

SPECTRUM_FIGURE = "spectrum"


def choose_point(h5, ds):
    """A done point with a spectrum among the selection `ds`: the largest size that stores spectra, the last
    weighting at the middle delta and gamma, at the middle snr where theory predicts an outlier (else the
    largest snr), the first trial."""
    p = h5["points"]
    sizes = sizes_with_spectra(h5)
    status = np.where(p["d"][...] == sizes.max(), p["status"][...], 0) if sizes.size else p["status"][...] * 0
    weighting = np.array(strings(p["weighting"]))
    delta, gamma, snr, trial = p["delta"][...], p["gamma"][...], p["snr"][...], p["trial"][...]
    detectable = p["theory_detectable"][...] if "theory_detectable" in p else p["theory_overlap"][...] > 0
    middle = {axis: ds[axis].values[(ds.sizes[axis] - 1) // 2] for axis in ("delta", "gamma")}
    chosen = ((status == 1) & (weighting == ds.weighting.values[-1]) & np.isclose(delta, middle["delta"])
              & np.isclose(gamma, middle["gamma"]) & np.isin(snr, ds.snr.values))
    candidates = np.flatnonzero(chosen & (trial == trial[chosen].min(initial=0)))
    if candidates.size == 0:
        candidates = np.flatnonzero(status == 1)
    if candidates.size == 0:
        return None
    above = candidates[detectable[candidates] > 0]
    if above.size:
        values = np.sort(np.unique(snr[above]))
        target = values[values.size // 2]
        return int(above[np.flatnonzero(np.isclose(snr[above], target))[0]])
    return int(candidates[np.argmax(snr[candidates])])


def spectrum_row(h5, index):
    """(dataset, row) holding point `index`'s eigenvalues, or None when its size stores none.
    schema_version 2 and later: /spectra/d<d>/eigenvalues, row found in /spectra/d<d>/point;
    schema_version 1: /spectra/eigenvalues, row = index."""
    if "spectra/eigenvalues" in h5:
        return h5["spectra/eigenvalues"], index
    group = f"spectra/d{int(h5['points/d'][index])}"
    if group not in h5:
        return None
    rows = np.flatnonzero(h5[group + "/point"][...] == index)
    return (h5[group + "/eigenvalues"], int(rows[0])) if rows.size else None


def sizes_with_spectra(h5):
    """The sizes d whose spectra the file stores (every point's, for schema_version 1)."""
    if "spectra" not in h5:
        return np.array([], dtype=np.int64)
    if "spectra/eigenvalues" in h5:
        return np.unique(h5["points/d"][...])
    return np.array(sorted(int(name[1:]) for name in h5["spectra"] if name.startswith("d")), dtype=np.int64)


def spectrum_point(h5, ds, point, notes=None):
    """The point whose spectrum is drawn: `point` checked (a done point of a size with spectra), else one
    chosen; None, with a note appended to `notes`, when there is nothing to draw."""
    notes = [] if notes is None else notes
    if "points" not in h5:  # a phase file (assemble --output): the points are in its sweep file
        if point is not None:
            raise InvalidOption("--point", point, f"a point of a sweep file; {h5.filename} is a phase file "
                                                  f"(the points are in {sweep_of(h5)})")
        notes.append(f"a phase file holds no points: no {SPECTRUM_FIGURE} (plot the sweep file {sweep_of(h5)} for it)")
        return None
    status = h5["points/status"][...]
    if point is None:
        if not sizes_with_spectra(h5).size:
            notes.append(f"no /spectra in the file (store_spectra off): no {SPECTRUM_FIGURE}")
            return None
        index = choose_point(h5, ds)
        if index is None:
            notes.append(f"no point is done: no {SPECTRUM_FIGURE}")
        return index
    allowed = f"allowed: the index of a done point, 0..{status.size - 1}"
    try:
        index = int(point)
    except ValueError:
        raise InvalidOption("--point", point, allowed) from None
    if not 0 <= index < status.size:
        raise InvalidOption("--point", point, allowed + f" (the file has {status.size} points)")
    if status[index] != 1:
        state = {0: "pending", 2: "failed"}.get(int(status[index]), f"status {int(status[index])}")
        raise InvalidOption("--point", point, allowed + f"; point {index} is {state} (see rmtsweep status)")
    if not sizes_with_spectra(h5).size:
        raise InvalidOption("--point", point, "the file has no /spectra (store_spectra off): no spectrum to draw")
    if spectrum_row(h5, index) is None:
        raise InvalidOption("--point", point, f"a point of a size whose spectra are stored; point {index} has "
                                              f"d = {int(h5['points/d'][index])}, whose spectra are not "
                                              "(store_spectra)")
    return index


def sweep_file(ds, what):
    path = source_of(ds)
    if path is None:
        raise InvalidOption("data", "a Dataset without its file", f"a path or rmtsweep.open_phase(path): {what} "
                                                                   "reads the sweep file")
    return path


def spectrum(data, ax=None, point=None, **selection):
    """The histogram of all d eigenvalues of one done point (`point`, its index in /points; by default one is
    chosen above the threshold among the selection) against the theory's bulk density κ·(MP_δ ⊠ MP_γ), its
    right edge, the predicted outlier λ_S and the top eigenvalue measured. Needs the sweep file (`data` a path
    or an open_phase Dataset of it: a phase file has no points) and stored spectra. Returns the Figure."""
    ds = selected(data, selection, one_size=False)
    with open_h5(sweep_file(ds, "the spectrum")) as h5:
        notes = []
        index = spectrum_point(h5, ds, None if point is None else str(point), notes)
        if index is None:
            raise InvalidOption("point", point, "; ".join(notes))
        return spectrum_figure(h5, ds, index, ax)


def spectrum_figure(h5, ds, index, ax=None):
    p = h5["points"]
    dataset, row = spectrum_row(h5, index)
    eigenvalues = np.asarray(dataset[row], dtype=float)
    eigenvalues = eigenvalues[np.isfinite(eigenvalues)]
    name = strings(p["weighting"])[index]
    delta, gamma, snr = (float(p[key][index]) for key in ("delta", "gamma", "snr"))
    size = int(p["d"][index])
    edge = float(p["theory_bulk_edge_right"][index])
    outlier = float(p["theory_top_eigenvalue"][index])
    detectable = bool(p["theory_detectable"][index]) if "theory_detectable" in p else outlier > edge
    top = float(eigenvalues.max())
    layout = panel_axes(ax, 1, "one point", aspect=0.62)
    a = layout.axes[0]
    upper = max(top, outlier, edge) * 1.08
    bins = np.linspace(0, upper, 80)
    a.hist(eigenvalues, bins=bins, weights=np.full(eigenvalues.size, 1.0 / eigenvalues.size), color="tab:blue",
           alpha=0.55)
    handles = [(Line2D([], [], color="tab:blue", alpha=0.55, lw=5), f"eigenvalues of S ({eigenvalues.size})")]
    density = bulk_density(ds, name, delta, gamma)
    atom = 1.0 - min(1.0, 1.0 / delta, 1.0 / gamma)  # model.md 5.1: mass of the bulk at 0
    if density is not None:
        x, f = density
        handles.append((a.plot(x, f * (bins[1] - bins[0]), color="black", lw=1.1)[0],
                        r"$\kappa\,(\mathrm{MP}_\delta \boxtimes \mathrm{MP}_\gamma)$ (theory)"
                        + (f" + mass {atom:.2g} at 0" if atom > 0 else "")))
    handles.append((a.axvline(edge, color="0.4", ls="--", lw=0.9), rf"bulk edge $\lambda_+$ = {edge:.3g}"))
    if detectable:
        handles.append((a.axvline(outlier, color="red", lw=1.0), rf"outlier $\lambda_S$ = {outlier:.3g} (theory)"))
    handles.append((a.plot([top], [0], marker="v", color="red", mec="black", mew=0.4, ms=5, ls="none",
                           clip_on=False)[0], rf"top eigenvalue $\lambda_1$ = {top:.3g}"))
    a.set_xlim(0, upper)
    a.set_xlabel(r"eigenvalue $\lambda$ of S", fontsize=7)
    a.set_ylabel("fraction per bin", fontsize=7)
    fixed = [f"d = {size}", name, f"δ = {delta:g}", f"γ = {gamma:g}", f"snr = {snr:g}",
             f"trial {int(p['trial'][index])}"] + setting(ds)
    return layout.finish(handles, f"Spectrum of S at point {index}", ", ".join(unbroken(part) for part in fixed))


def bulk_density(ds, name, delta, gamma):
    """(x, f(x)) of the theory's bulk density of the point's line, None without the fine theory."""
    if FINE + "density" not in ds or name not in list(ds.weighting.values):
        return None
    w = list(ds.weighting.values).index(name)
    i = int(np.argmin(np.abs(ds.delta.values - delta)))
    j = int(np.argmin(np.abs(ds.gamma.values - gamma)))
    at = {"weighting": w, "delta": i, "gamma": j}
    take = {k: v for k, v in at.items() if k in ds[FINE + "density"].dims}
    x = np.asarray(ds[FINE + "density_x"].isel(take).squeeze().values, dtype=float)
    f = np.asarray(ds[FINE + "density"].isel(take).squeeze().values, dtype=float)
    return x, f
