"""Shared parts of rmtsweep_plot.py: the options' limits and figure names, errors as rmtsweep reports them,
reading /phase (Phase) and the config, panels and saving."""
import os
import re
import sys

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
