"""The resolved config a sweep file stores (its root attribute `config`), parsed once, here.

The text is what `rmtsweep run` resolved from its INI file and command line (src/config/config.cpp,
resolved_config_text): one `key = value` a line, the axes as lists (ranges already expanded). A phase
file written by `rmtsweep assemble --output` carries the same text.
"""
import re

import h5py

from .errors import InvalidFile

# The type of each key's value; a key not listed here (a later rmtsweep's) stays a str.
INTEGER_KEYS = ("T", "seed", "trials", "k", "ntest", "ranks_per_point")
REAL_KEYS = ("ridge",)
INTEGER_LIST_KEYS = ("d",)
REAL_LIST_KEYS = ("delta", "gamma", "snr")


def parse_config(text):
    """The `key = value` lines of a resolved config text as a dict with typed values: d a list of int,
    delta, gamma and snr lists of float, weighting a list of str (a plain number continues the
    `custom:w1,...` item before it, as the config's syntax says), T, seed, trials, k, ntest int, ridge
    float, anything else str. Comments (# or ;) and blank lines are skipped."""
    values = {}
    for line in text.splitlines():
        line = re.split(r"[#;]", line, maxsplit=1)[0]
        if "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        values[key] = typed(key, value)
    return values


def typed(key, value):
    if key in INTEGER_KEYS:
        return int(value)
    if key in REAL_KEYS:
        return float(value)
    if key in INTEGER_LIST_KEYS:
        return [int(item) for item in value.split(",") if item.strip()]
    if key in REAL_LIST_KEYS:
        return [float(item) for item in value.split(",") if item.strip()]
    if key == "weighting":
        return weighting_list(value)
    return value


def weighting_list(text):
    """`mean,custom:1,0,0,optimal` -> ['mean', 'custom:1,0,0', 'optimal'] (src/config/config.cpp's rule)."""
    items = []
    for token in (t.strip() for t in text.split(",")):
        if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", token) and items and items[-1].startswith("custom:"):
            items[-1] += "," + token
        elif token:
            items.append(token)
    return items


def config_text(h5):
    """The root attribute `config` of an open h5py.File, as str ("" when absent)."""
    text = h5.attrs.get("config", "")
    return text.decode() if isinstance(text, bytes) else str(text)


def read_config(source):
    """The resolved config of a sweep file or phase file (a path or an open h5py.File) as a dict
    (parse_config). Raises InvalidFile when the file stores none (not an rmtsweep file)."""
    if isinstance(source, h5py.File):
        text = config_text(source)
        path = source.filename
    else:
        from .files import open_h5  # noqa: avoid a cycle at import
        with open_h5(source) as h5:
            text = config_text(h5)
        path = source
    if not text:
        raise InvalidFile(path, "has no root attribute `config`: not a file rmtsweep wrote (an rmtsweep sweep "
                                "file or a phase file of `rmtsweep assemble --output` is needed)")
    return parse_config(text)
