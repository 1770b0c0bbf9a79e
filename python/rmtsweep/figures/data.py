"""What the figures draw from: the xarray.Dataset of /phase (rmtsweep.open_phase) with, beside it, the theory
along fine axes (/phase/theory, as variables `fine_<name>`), the thresholds of the figures' detection rule
(`assemble --detection`) and the sweep's config for the captions; a selection of it; its panels.

A Dataset from open_phase, or any selection of one, still knows its file (xarray keeps the source path in
`encoding`), which gives the fine theory and the config; a Dataset without a file is drawn from what it holds
(the theory at the grid's snr values).
"""
import itertools
import os

import numpy as np

from ..config import config_text, parse_config
from ..errors import InvalidOption
from ..files import open_h5, open_phase, read_phase

# The axes of /phase, in the order of its arrays.
AXES = ("weighting", "d", "delta", "gamma", "snr")
SYMBOLS = {"d": "d", "delta": "δ", "gamma": "γ", "snr": "snr"}
FINE = "fine_"
# Attributes the figures add to the Dataset: the file it came from, its config text, the rule of its thresholds.
SOURCE, CONFIG, RULE = "rmtsweep_source", "rmtsweep_config", "rmtsweep_threshold_rule"


def source_of(ds):
    """The file a Dataset was read from, or None."""
    path = ds.attrs.get(SOURCE) or ds.encoding.get("source")
    return str(path) if path and os.path.isfile(str(path)) else None


def as_dataset(data):
    """`data` (a path, or a Dataset of /phase or a selection of it) with the fine theory, the figures' rule's
    thresholds and the config beside it, when its file is known."""
    import xarray as xr

    if isinstance(data, (str, os.PathLike)):
        return completed(open_phase(data), os.fspath(data))
    if not isinstance(data, xr.Dataset):
        raise InvalidOption("data", type(data).__name__, "a path of an assembled sweep file or phase file, or the "
                                                         "xarray.Dataset of rmtsweep.open_phase (or a selection)")
    if RULE in data.attrs:
        return data
    source = source_of(data)
    return completed(data, source) if source else data.assign_attrs({RULE: "edge"})


def matched(other, ds):
    """`other` (another group of the same /phase) at the coordinates `ds` (a selection of /phase) holds."""
    index = {dim: ds[dim].values for dim in AXES if dim in other.dims and dim in ds.coords}
    return other.sel(index)


def completed(ds, path):
    """ds with the fine theory of its file, the figures' rule's tables in place of the edge rule's, the config."""
    import xarray as xr

    theory = matched(read_phase(path, "theory"), ds)  # /phase's staleness was said where ds was opened
    theory = theory.drop_vars([name for name in ("snr", "delta", "gamma") if name in theory.data_vars])
    theory = theory.rename({name: FINE + name for name in theory.data_vars})
    rule = str(ds.attrs.get("figure_detection", "edge"))
    # The rule's own group: the top level of /phase is the default rule's (docs/detection.md); files from before
    # the groups have only the top level, the edge rule's.
    with open_h5(path) as h5:
        grouped = f"phase/detection/{rule}" in h5
    if grouped:
        tables = matched(read_phase(path, f"detection/{rule}"), ds)
        ds = ds.assign({name: tables[name] for name in tables.data_vars if name in ds.data_vars})
    with open_h5(path) as h5:
        config = config_text(h5)
    merged = xr.merge([ds, theory], join="left", combine_attrs="override")
    merged.attrs.update({SOURCE: path, CONFIG: config, RULE: rule})
    return merged


def selected(data, selection, one_size=True):
    """as_dataset(data) at `selection` ({axis: value, list of values or slice}), every axis of /phase kept as a
    dimension (of one value where selected so), at one d (the largest unless selected) when `one_size`."""
    ds = as_dataset(data)
    for key, value in selection.items():
        if key not in ds.coords:
            raise InvalidOption(key, value, "a selection along an axis of /phase: "
                                + ", ".join(axis for axis in AXES if axis in ds.coords))
        ds = select_one(ds, key, value)
    ds = ds.expand_dims([axis for axis in AXES if axis in ds.coords and axis not in ds.dims])
    if one_size and ds.sizes.get("d", 1) > 1:
        ds = ds.isel(d=[-1])
    for axis in ("snr", "delta", "gamma"):  # the fine theory over the range of the selection
        fine = f"{axis}_fine"
        if fine in ds.dims and axis in ds.dims:
            ds = ds.sel({fine: slice(float(ds[axis].min()), float(ds[axis].max()))})
    return ds


def select_one(ds, key, value):
    values = value if isinstance(value, slice) else np.atleast_1d(value)
    allowed = "allowed: " + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in ds[key].values)
    try:
        chosen = ds.sel({key: values})
    except (KeyError, ValueError):
        if ds[key].dtype.kind != "f" or isinstance(value, slice):
            raise InvalidOption(key, value, allowed) from None
        try:  # the axes hold values as written: 0.30000000000000004 finds 0.3
            scale = max(1.0, float(np.max(np.abs(ds[key].values))))
            chosen = ds.sel({key: values}, method="nearest", tolerance=1e-9 * scale)
        except KeyError:
            raise InvalidOption(key, value, allowed) from None
    if chosen.sizes.get(key, 1) == 0:
        raise InvalidOption(key, value, allowed + " (the selection is empty)")
    return chosen


def facets(ds, dims):
    """The panels along `dims` (those of more than one value): a list of {dim: index}, the first varying dim
    fastest (a grid's columns), and the dims that vary."""
    varying = [dim for dim in dims if ds.sizes[dim] > 1]
    order = list(reversed(varying))
    panels = [dict(zip(order, index)) for index in itertools.product(*(range(ds.sizes[d]) for d in order))]
    return [{dim: panel[dim] for dim in varying} for panel in panels], varying


def facet_columns(ds, varying, most):
    """Columns of the panels: one per value of the first varying axis when two vary and it has at most `most`
    values (a grid, rows the second axis), else None (rows filled in order)."""
    return ds.sizes[varying[0]] if len(varying) == 2 and ds.sizes[varying[0]] <= most else None


def facet_labels(ds, panel):
    """["δ = 0.5", "γ = 0.25"] for a panel {dim: index}."""
    return [value_label(dim, ds[dim].values[i]) for dim, i in panel.items()]


def value_label(dim, value):
    if dim == "weighting":
        return str(value)
    return f"{SYMBOLS.get(dim, dim)} = {value:g}"


def config_of(ds):
    return parse_config(ds.attrs.get(CONFIG, ""))


def setting(ds):
    """The model's fixed parameters of the sweep, for captions: ["T = 10", "R = prefix:3", "iid table"]."""
    config = config_of(ds)
    parts = [f"{name} = {config[key]}" for key, name in (("T", "T"), ("correlation", "R")) if key in config]
    return parts + ([f"{config['table']} table"] if "table" in config else [])


def caption(ds, *constant, extra=""):
    """The fixed parameters of a figure, one line: the axes in `constant` (of one value in ds), the setting, the
    trials, and `extra`."""
    parts = [value_label(dim, ds[dim].values[0]) for dim in constant if ds.sizes.get(dim, 0) == 1] + setting(ds)
    if "trials_done" in ds:
        trials = int(ds["trials_done"].max())
        parts.append(f"{trials} trial{'s' if trials != 1 else ''}")
    return ", ".join(unbroken(part) for part in parts) + (f"; {extra}" if extra else "")


def unbroken(text):
    """`text` with no-break spaces: a caption wraps between its items, never inside "R = prefix:3"."""
    return text.replace(" ", "\u00a0")


def rule_of(ds):
    return str(ds.attrs.get(RULE, "edge"))


def values(array, keep=(), **index):
    """A DataArray's values at integer positions `index` ({dim: i}; dims it lacks ignored) as a float array, its
    axes of /phase of one value but those in `keep` taken at it (a Dataset's axis selected as a scalar before it
    came here becomes a dimension of every variable)."""
    for dim in array.dims:
        if dim in AXES and dim not in index and dim not in keep and array.sizes[dim] == 1:
            index[dim] = 0
    return np.asarray(array.isel(index, missing_dims="ignore").values, dtype=float)
