"""Shared parts of the figures: the options' limits and figure names, reading /phase (Phase) and the
config for titles, panels, pages and saving.

Figures are matplotlib.figure.Figure objects made without pyplot (no global state, nothing shown or kept
open): a notebook displays one returned, the command line saves them (save).
"""
import os

import numpy as np

import matplotlib
import matplotlib.patheffects
from matplotlib.figure import Figure

from ..config import config_text, parse_config
from ..files import require_phase, strings

# Panels per page of a figure (3 x 3); a figure with more panels continues on pages <name>_p2, _p3, ...
PANELS_PER_PAGE = 9

# Below 10 dpi text is unreadable; 1200 is past print resolution and the largest figures
# (14 x 11 inches) already hold ~2 10^8 pixels there, and Agg refuses 2^16 pixels a side.
DPI_MIN, DPI_MAX = 10, 1200

# The file formats of `rmtsweep plot --format`.
FORMATS = ("png", "pdf", "svg")

CURVE_FIGURES = ("overlap_vs_snr", "top_eigenvalue_vs_snr", "ridge_accuracy_vs_snr")

THRESHOLD_VS_D_FIGURE = "threshold_vs_d"

OVERLAP_BY_D_FIGURE = "overlap_vs_snr_by_d"

SPECTRUM_FIGURE = "spectrum"

REFINEMENT_FIGURE = "refinement"

# A white line drawn with a thin dark outline: seen on a dark heatmap and on a legend's white box alike.
OUTLINED = [matplotlib.patheffects.withStroke(linewidth=3.2, foreground="black")]

def stored_config(h5):
    """The file's config (rmtsweep.config.parse_config), {} when it has none."""
    return parse_config(config_text(h5))


def sizes_label(sizes):
    """d for titles: "d=400" for one size, "d=500..2000" for several (a list, as the config writes it)."""
    values = [str(v).strip() for v in sizes if str(v).strip()]
    if not values:
        return "d=?"
    return f"d={values[0]}" if len(values) == 1 else f"d={values[0]}..{values[-1]}"

def fixed_parameters(h5, sizes=None):
    """The sweep-wide parameters for titles: d (one value or a range), T, correlation, table.
    `sizes` (the /phase/d axis) wins over the config's `d = 500,1000,2000` or `d = 400`."""
    conf = stored_config(h5)
    if sizes is None:
        if "d" in conf:
            sizes = [str(v) for v in conf["d"]]
        else:
            sizes = [str(int(h5["points/d"][0]))] if "points/d" in h5 and h5["points/d"].size else ["?"]
    return f"{sizes_label(sizes)}, T={conf.get('T', '?')}, R={conf.get('correlation', '?')}, " \
           f"table={conf.get('table', 'iid')}"

def single_size(h5, group):
    """The one d of a file assembled before d was an axis: /phase's attribute d, else the config's,
    else the points'."""
    if "d" in group.attrs:
        return int(np.asarray(group.attrs["d"]).ravel()[0])
    sizes = stored_config(h5).get("d", [])
    if sizes:
        return int(sizes[-1])
    return int(h5["points/d"][0]) if "points/d" in h5 and h5["points/d"].size else 0

def pages(items, per_page=PANELS_PER_PAGE):
    """`items` (the panels of a figure) cut into pages of at most `per_page`, in order; none are dropped."""
    items = list(items)
    return [items[k:k + per_page] for k in range(0, len(items), per_page)] or [[]]

def page_name(name, page, count):
    """The file name (without extension) of page `page` (0-based) of `count`: name, name_p2, name_p3, ..."""
    return name if page == 0 else f"{name}_p{page + 1}"

def page_note(page, count):
    """A title's page mark: "" for a figure of one page, else " (page 2 of 3)"."""
    return "" if count == 1 else f" (page {page + 1} of {count})"

def edges(centres):
    """Cell edges around grid centres (for pcolormesh on a non-uniform grid)."""
    c = np.asarray(centres, dtype=float)
    if c.size == 1:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = (c[:-1] + c[1:]) / 2
    return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])

def subplots(count, width=4.6, height=3.6):
    """A Figure with `count` panels, three a row."""
    if count == 1:
        width, height = 6.4, 4.6
    cols = min(count, 3)
    rows = (count + cols - 1) // cols
    fig = Figure(figsize=(width * cols, height * rows))
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:count])

def single(width, height):
    """A Figure with one panel of the given size (inches)."""
    fig = Figure(figsize=(width, height))
    return fig, fig.subplots()

# Metadata that would make two drawings of the same figure differ (creation dates): left out.
NO_DATES = {"png": None, "pdf": {"CreationDate": None}, "svg": {"Date": None}}

def save(fig, out, name, dpi, fmt="png"):
    """Writes `fig` as out/name.fmt; the path. The same figure gives the same bytes (no dates; SVG ids from a
    fixed salt instead of random ones)."""
    path = os.path.join(out, f"{name}.{fmt}")
    with matplotlib.rc_context({"svg.hashsalt": "rmtsweep"}):
        fig.savefig(path, dpi=dpi, format=fmt, metadata=NO_DATES[fmt])
    return path

def colours():
    """The default colour cycle."""
    return matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]

class Phase:
    """The /phase group of an assembled sweep file, as numpy arrays with the axes
    weighting x d x delta x gamma x snr (cells) or weighting x d x delta x gamma (lines)."""

    def __init__(self, h5):
        require_phase(h5, h5.filename)
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
        # The same without d, for titles that name the d they show.
        self.fixed_but_d = self.fixed.split(", ", 1)[1]

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

    def cell_title(self, i, j):
        """A panel's title for delta index i and gamma index j: the axes that vary (constant_axes has
        the others, once, for the figure's title)."""
        return ", ".join(f"{symbol} = {axis[n]:g}" for symbol, axis, n in (("δ", self.delta, i), ("γ", self.gamma, j))
                         if axis.size > 1)

    def constant_axes(self):
        """", δ = 0.5, γ = 0.25" for the axes of one value (what cell_title leaves out), else ""."""
        return "".join(f", {symbol} = {axis[0]:g}" for symbol, axis in (("δ", self.delta), ("γ", self.gamma))
                       if axis.size == 1)

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
        """Per (weighting, d, delta, gamma) line, the empirical threshold of the figures' rule: its own group's
        (the top level of /phase is the default rule's since issue 18, the edge rule's before; files from
        before the groups have only the top level, the edge rule's)."""
        rule = self.rule()
        if f"detection/{rule}" in self.group:
            return self[f"detection/{rule}/empirical_threshold_snr"]
        return self["empirical_threshold_snr"]

    def extrapolation_source(self):
        """Where the thresholds fitted against d^(-1/3) live: the figures' rule's group when it holds
        an extrapolation, else /phase itself (the edge rule, in files from before the groups)."""
        rule = self.rule()
        if f"detection/{rule}/extrapolated_threshold_snr" in self.group:
            return f"detection/{rule}/", rule
        return "", "edge"
