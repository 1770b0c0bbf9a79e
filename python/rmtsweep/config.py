"""What a sweep file stores of how it was made: its resolved config and its runs, read once, here.

The config is what `rmtsweep run` resolved from its INI file and command line (src/config/config.cpp): the root
attribute `config_json`, typed JSON (resolved_config_json), beside `config`, the same as `key = value` text
for humans (resolved_config_text: the axes as lists, ranges already expanded). Files written before
config_json have the text only, which parse_config types. A phase file written by `rmtsweep assemble --output`
carries both. The runs are the root attribute `run_table` (JSON, one object per run), or in files written
before it the attributes run_<i>_started, run_<i>_command_line, ...
"""
import json
import re

import h5py

from .errors import InvalidFile

# The root attributes of a file's config (typed and as text) and of its runs (src/store/schema.hpp,
# config_json_attribute; src/store/provenance.hpp, run_table_attribute).
CONFIG_JSON = "config_json"
CONFIG_TEXT = "config"
RUN_TABLE = "run_table"
# The fields of a run, as the run table names them (run_<i>_<field> in files written before it).
RUN_FIELDS = ("started", "command_line", "mpi_ranks", "ranks_per_point", "eigensolver", "shard")

# The type of each key's value; a key not listed here (a later rmtsweep's) stays a str.
INTEGER_KEYS = ("T", "seed", "trials", "k", "ntest", "ranks_per_point")
REAL_KEYS = ("ridge",)
INTEGER_LIST_KEYS = ("d",)
REAL_LIST_KEYS = ("delta", "gamma", "snr")


def parse_config(text):
    """The `key = value` lines of a resolved config text as a dict with typed values: d a list of int,
    delta, gamma and snr lists of float, weighting a list of str (a plain number continues the
    `custom:w1,...` item before it, as the config's syntax says), T, seed, trials, k, ntest, ranks_per_point
    int, ridge float, store_spectra True, False or "auto", anything else str. Comments (# or ;) and blank
    lines are skipped."""
    values = {}
    for line in text.splitlines():
        line = re.split(r"[#;]", line, maxsplit=1)[0]
        if "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        values[key] = typed(key, value)
    return values


def typed(key, value):
    if key == "store_spectra":  # true, false or auto, as config_json holds it
        return {"true": True, "false": False}.get(value, value)
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


def text_attribute(h5, name, default=""):
    """A root attribute of an open h5py.File as str (fixed-length ones, of files written before, are bytes)."""
    value = h5.attrs.get(name, default)
    return value.decode() if isinstance(value, bytes) else str(value)


def config_text(h5):
    """The root attribute `config` of an open h5py.File, as str ("" when absent)."""
    return text_attribute(h5, CONFIG_TEXT)


def opened(source, read):
    """read(h5, path) of a path or an open h5py.File."""
    if isinstance(source, h5py.File):
        return read(source, source.filename)
    from .files import open_h5  # noqa: avoid a cycle at import
    with open_h5(source) as h5:
        return read(h5, source)


def read_config(source):
    """The resolved config of a sweep file or phase file (a path or an open h5py.File) as a dict of Python
    values: the root attribute config_json, in its order: d (list of int), T, correlation, table, seed, trials,
    delta, gamma, snr (lists of float), weighting (list of str), k, ridge, ntest, store_spectra (True, False or
    "auto"), ranks_per_point and eigensolver (the run that created the file). A file written before config_json
    gives its text parsed (parse_config: the same values, without those two settings). Raises
    InvalidFile when the file stores neither (not an rmtsweep file)."""
    def read(h5, path):
        if CONFIG_JSON in h5.attrs:
            return json.loads(text_attribute(h5, CONFIG_JSON))
        text = config_text(h5)
        if not text:
            raise InvalidFile(path, "has no root attribute `config`: not a file rmtsweep wrote (an rmtsweep sweep "
                                    "file or a phase file of `rmtsweep assemble --output` is needed)")
        return parse_config(text)
    return opened(source, read)


def read_runs(source):
    """Every run of a sweep file (a path or an open h5py.File): `rmtsweep run` that created it, each
    `--resume` and each `rmtsweep refine` (a merged file: the shards' runs), as a pandas.DataFrame indexed by
    `run` (0, 1, ...; /points/run names them) with columns started (a UTC pandas Timestamp), command_line,
    mpi_ranks, ranks_per_point, eigensolver and shard ("2/3" for a run of one shard, else ""). From the root
    attribute run_table, or the run_<i>_* attributes of a file written before it. A phase file has no runs:
    InvalidFile (its sweep file has them)."""
    import pandas as pd

    def read(h5, path):
        if RUN_TABLE in h5.attrs:
            rows = json.loads(text_attribute(h5, RUN_TABLE))
        elif "runs" in h5.attrs:
            rows = []
            for r in range(int(h5.attrs["runs"])):
                row = {"run": r}
                for field in RUN_FIELDS:
                    value = h5.attrs.get(f"run_{r}_{field}")
                    row[field] = value.decode() if isinstance(value, bytes) else value
                rows.append(row)
        else:
            raise InvalidFile(path, "records no runs: a phase file (its sweep file has them) or not an rmtsweep "
                                    "sweep file")
        frame = pd.DataFrame(rows, columns=("run",) + RUN_FIELDS).set_index("run")
        frame["started"] = pd.to_datetime(frame["started"], utc=True, errors="coerce")
        frame["shard"] = frame["shard"].fillna("")
        for field in ("mpi_ranks", "ranks_per_point"):
            frame[field] = frame[field].fillna(1 if field == "ranks_per_point" else 0).astype("int64")
        return frame
    return opened(source, read)
