"""The look shared by the figures: sizes for a two-column paper, fonts, each weighting's colour and marker,
the layout of a faceted figure (a short title, the panels, one legend outside them, a caption line) and
saving.

Figures are matplotlib.figure.Figure objects made without pyplot (no global state, nothing shown or kept
open): a notebook displays one returned, the command line saves them (save). Every size is set on the
artists themselves, so a Figure looks the same whatever the caller's rcParams.
"""
import math
import os
import re
import textwrap

import numpy as np

import matplotlib
import matplotlib.patheffects
from matplotlib import ticker
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..errors import InvalidOption
from ..plot_options import DPI_MAX, DPI_MIN, FORMATS  # noqa: F401 (the figures' own, owned apart for the CLI)

# The width of one column of a two-column paper (inches): every figure is drawn for it.
COLUMN_WIDTH = 3.4

# Font sizes (points) at COLUMN_WIDTH: a caption's 8-9 pt text beside 7 pt labels reads as one document.
TITLE_SIZE, LABEL_SIZE, TICK_SIZE, LEGEND_SIZE, CAPTION_SIZE = 8, 7, 6.5, 6.5, 6

# The mean width of a character of DejaVu Sans, in units of the font size (for fitting legends and captions).
CHARACTER_WIDTH = 0.55

# Panels a row at most: below ~0.75 in a panel's tick labels collide.
MAX_COLUMNS = 4

# A white line drawn with a thin dark outline: seen on a dark heatmap and on a legend's white box alike.
OUTLINED = [matplotlib.patheffects.withStroke(linewidth=2.4, foreground="black")]

# Each weighting keeps its colour and marker in every figure and every selection (greyscale prints tell them
# apart by the marker); other weightings (custom:..., causal:...) take the rest in grid order.
KNOWN_STYLES = {"mean": ("tab:blue", "o"), "harmonic": ("tab:orange", "s"), "optimal": ("tab:green", "^"),
                "last": ("tab:red", "D")}
OTHER_STYLES = [("tab:purple", "v"), ("tab:brown", "P"), ("tab:pink", "X"), ("tab:olive", "<"),
                ("tab:cyan", ">"), ("tab:gray", "h")]

SNR_LABEL = "snr = ‖μ‖²"
OVERLAP_LABEL = r"overlap $|\hat u^\top u|^2$"


def weighting_styles(names):
    """{weighting: (colour, marker)} for the weightings `names`, in order."""
    styles, others = {}, iter(OTHER_STYLES * (1 + len(names) // len(OTHER_STYLES)))
    for name in names:
        styles[name] = KNOWN_STYLES.get(name) or next(others)
    return styles


def offsets(count, step, log=False):
    """Sideways shifts of `count` series' error bars so that they do not hide each other: a fraction of the
    grid's `step` (a factor for a log axis), centred on the true positions."""
    centred = np.arange(count) - (count - 1) / 2
    if log:
        return 1.0 + 0.04 * centred
    return 0.12 * step * centred


def marker_size(points, columns):
    """Markers of `points` along a panel of a figure of `columns` panels a row: smaller where they crowd."""
    spacing = (COLUMN_WIDTH - 0.42) / columns * 72 / max(points, 1)
    return float(np.clip(1.2 * spacing, 1.8, 3.2))


def grid_step(values):
    values = np.unique(np.asarray(values, dtype=float))
    return float(np.min(np.diff(values))) if values.size > 1 else 1.0


def log_scale(snr):
    """A log axis suits an snr axis of positive values spanning more than a decade and a half."""
    snr = np.asarray(snr, dtype=float)
    return snr.size > 2 and snr.min() > 0 and snr.max() / snr.min() > 30


def log_axis(axis):
    """A log axis labelled in plain numbers (0.1, 1, not 10⁻¹, 10⁰)."""
    axis.set_major_formatter(ticker.FormatStrFormatter("%g"))
    axis.set_minor_formatter(ticker.NullFormatter())


def style_axes(ax):
    """Tick sizes set on the axes (kept for ticks created later, whatever the rcParams then)."""
    ax.tick_params(labelsize=TICK_SIZE, length=2.5, width=0.6, pad=1.5)
    for spine in ax.spines.values():
        spine.set_linewidth(0.6)


class Panels:
    """The axes of a figure's panels, and whether the figure is the function's own (then it gets the title,
    the legend, the caption and one label per axis) or the caller's (ax=: the caller decorates it)."""

    def __init__(self, fig, axes, owned, columns=1, area=None):
        self.fig, self.axes, self.owned, self.columns = fig, axes, owned, columns
        self.area = area  # (the subfigure of the panels, that of the legend, their GridSpec, panels' height)

    def label(self, xlabel, ylabel):
        """Axis labels: once for the panels of the function's own figure, on each of the caller's axes."""
        if not self.owned:
            for ax in self.axes:
                ax.set_xlabel(xlabel, fontsize=LABEL_SIZE, labelpad=1.5)
                ax.set_ylabel(ylabel, fontsize=LABEL_SIZE, labelpad=1.5)
            return
        panels = self.area[0]
        panels.supxlabel(xlabel, fontsize=LABEL_SIZE)
        panels.supylabel(ylabel, fontsize=LABEL_SIZE)

    def finish(self, handles, title, caption, legend_columns=None):
        """A figure of its own: `title` on top, the legend `handles` (pairs of handle and label) below the
        panels in as many columns as fit the width, `caption` under it. Given axes: the legend in the first of
        them, nothing else."""
        handles = [(h, label) for h, label in handles if h is not None and label]
        if not self.owned:
            if handles:
                legend = self.axes[0].legend(*zip(*handles), fontsize=LEGEND_SIZE, frameon=True, framealpha=0.85)
                legend.get_frame().set_linewidth(0.5)
            return self.fig
        _, area, grid, height = self.area
        self.fig.suptitle(title, fontsize=TITLE_SIZE)
        columns = legend_columns or fitting_columns([label for _, label in handles], self.fig.get_figwidth())
        lines = caption_lines(caption, self.fig.get_figwidth())
        below = legend_height(len(handles), columns) + len(lines) * CAPTION_SIZE * 1.3 / 72 + 0.03
        grid.set_height_ratios([height, below])
        self.fig.set_figheight(height + below)
        if handles:
            area.legend(*zip(*handles), loc="upper center", ncols=columns, frameon=False, fontsize=LEGEND_SIZE,
                        handlelength=1.8, columnspacing=1.2, borderaxespad=0.1, handletextpad=0.5,
                        labelspacing=0.3)
        if lines:
            area.text(0.5, 0.0, "\n".join(lines), ha="center", va="bottom", fontsize=CAPTION_SIZE, color="0.25",
                      linespacing=1.15)
        return self.fig


def text_length(label):
    """Characters a label shows (a mathtext command such as \\lambda counts as one)."""
    return len(re.sub(r"\\[A-Za-z]+", "x", label).replace("$", "").replace("_", "").replace("^", ""))


def fitting_columns(labels, width):
    """The most legend columns (3 at most) whose longest label fits the figure's `width` (inches)."""
    longest = max((text_length(label) for label in labels), default=0)
    for columns in (3, 2):
        if (longest * CHARACTER_WIDTH * LEGEND_SIZE + 24) * columns <= width * 72 and len(labels) > columns:
            return columns
    return 1


def caption_lines(caption, width):
    """The caption wrapped to the figure's `width` (inches)."""
    return textwrap.wrap(caption, int(width * 72 / (CHARACTER_WIDTH * CAPTION_SIZE))) if caption else []


def legend_height(entries, columns):
    """Inches a legend of `entries` in `columns` takes at LEGEND_SIZE."""
    rows = math.ceil(entries / max(columns, 1)) if entries else 0
    return 0.05 + rows * LEGEND_SIZE * 1.5 / 72


def panel_axes(ax, count, what, aspect=0.72, sharex=True, sharey=True, columns=None, width=COLUMN_WIDTH,
               right=0.0):
    """The axes of `count` panels: a new Figure `width` inches wide (panels in at most MAX_COLUMNS columns,
    sharing their axes, each `aspect` as high as wide, `right` inches on the right for a colorbar, room below
    for the legend and caption that Panels.finish sizes), or the caller's `ax`: one Axes for one panel, or a
    sequence of `count` Axes. `what` names the panels for the message when `ax` does not fit."""
    if ax is not None:
        given = [ax] if isinstance(ax, Axes) else list(np.ravel(np.asarray(ax, dtype=object)))
        if len(given) != count or not all(isinstance(a, Axes) for a in given):
            raise InvalidOption("ax", type(ax).__name__ if not isinstance(ax, Axes) else "one Axes",
                                f"one Axes a panel: this selection has {count} panel(s) ({what}); select one "
                                f"panel or pass {count} Axes")
        for a in given:
            style_axes(a)
        return Panels(root_figure(given[0]), given, owned=False)
    columns = columns or math.ceil(count / math.ceil(count / MAX_COLUMNS))  # rows as full as they can be
    rows = math.ceil(count / columns)
    aspect = aspect * 0.85 if count == 1 else aspect
    panel_width = (width - 0.42 - right - 0.06 * (columns - 1)) / columns
    height = 0.22 + rows * (panel_width * aspect + (0.16 if count > 1 else 0.04)) + 0.28
    fig = Figure(figsize=(width, height + 0.4), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02, hspace=0.02, wspace=0.02)
    top, bottom = fig.subfigures(2, 1, height_ratios=[height, 0.4])
    grid = top.subplots(rows, columns, sharex=sharex, sharey=sharey, squeeze=False)
    axes = list(grid.flat[:count])
    for a in grid.flat[count:]:
        a.remove()
    for n, a in enumerate(axes):
        style_axes(a)
        if sharex:  # the panels above an empty place of the last row show their own x tick labels
            a.tick_params(labelbottom=n + columns >= count)
        if sharey and n % columns:
            a.tick_params(labelleft=False)
    return Panels(fig, axes, owned=True, columns=columns,
                  area=(top, bottom, top._subplotspec.get_gridspec(), height))


def root_figure(ax):
    """The Figure an Axes is drawn in (not a SubFigure of it)."""
    fig = ax.figure
    while not isinstance(fig, Figure):
        fig = fig.figure
    return fig


def panel_title(ax, text):
    if text:
        ax.set_title(text, fontsize=LABEL_SIZE, pad=2)


def title_panels(layout, labels, grid=False):
    """Each panel's title from `labels` (per panel: the labels of its values along the varying axes). A grid
    (two axes vary, one column per value of the first) of the function's own figure is titled at its edges: the
    first axis' values above the top row, the second's right of the last column."""
    if not (grid and layout.owned):
        for ax, label in zip(layout.axes, labels):
            panel_title(ax, ", ".join(label))
        return
    for n, (ax, (column, row)) in enumerate(zip(layout.axes, labels)):
        if n < layout.columns:
            panel_title(ax, column)
        if (n + 1) % layout.columns == 0:
            ax.annotate(row, xy=(1.0, 0.5), xycoords="axes fraction", xytext=(3, 0), textcoords="offset points",
                        rotation=270, ha="left", va="center", fontsize=LABEL_SIZE)


# Metadata that would make two drawings of the same figure differ (creation dates): left out.
NO_DATES = {"png": None, "pdf": {"CreationDate": None}, "svg": {"Date": None}}


def save(fig, out, name, dpi, fmt="png"):
    """Writes `fig` as out/name.fmt; the path. The same figure gives the same bytes (no dates; SVG ids from a
    fixed salt instead of random ones)."""
    path = os.path.join(out, f"{name}.{fmt}")
    with matplotlib.rc_context({"svg.hashsalt": "rmtsweep"}):
        fig.savefig(path, dpi=dpi, format=fmt, metadata=NO_DATES[fmt])
    return path
