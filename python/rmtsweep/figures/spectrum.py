"""The spectrum figure: one point's eigenvalue histogram against kappa (MP_delta [x] MP_gamma)."""
import numpy as np

from ..errors import InvalidOption
from ..files import strings
from ..files import sweep_of
from .common import SPECTRUM_FIGURE, single


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
    schema_version 2 and later: /spectra/d<d>/eigenvalues, row found in /spectra/d<d>/point;
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

def spectrum_point(h5, phase, point_text, notes=None):
    """The point whose spectrum is drawn: --point checked (a done point of a size with spectra),
    else one chosen; None, with a note appended to `notes`, when there is nothing to draw."""
    notes = [] if notes is None else notes
    if "points" not in h5:  # a phase file (assemble --output): the points are in its sweep file
        if point_text is not None:
            raise InvalidOption("--point", point_text, f"a point of a sweep file; {h5.filename} is a phase file "
                                                       f"(the points are in {sweep_of(h5)})")
        notes.append(f"a phase file holds no points: no {SPECTRUM_FIGURE} (plot the sweep file {sweep_of(h5)} for it)")
        return None
    has_spectra = has_any_spectra(h5)
    status = h5["points/status"][...]
    if point_text is None:
        if not has_spectra:
            notes.append(f"no /spectra in the file (store_spectra off): no {SPECTRUM_FIGURE}")
            return None
        index = choose_point(h5, phase)
        if index is None:
            notes.append(f"no point is done: no {SPECTRUM_FIGURE}")
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

def spectrum_figure(h5, phase, index):
    """Histogram of all eigenvalues of point `index` against the theoretical bulk density: a Figure."""
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
    fig, ax = single(7.5, 4.6)
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
                 f"snr={snr:g}, trial {int(p['trial'][index])}\n{phase.fixed_but_d}", fontsize=10)
    fig.tight_layout()
    return fig
