"""Opening rmtsweep's files: the phase tables as an xarray.Dataset, the points as a pandas.DataFrame.

A sweep file (`rmtsweep run`) holds /grid, /points, /spectra and, once assembled, /phase; a phase file
(`rmtsweep assemble FILE --output PHASE.h5`) holds /phase alone with the sweep's config. Both are read the
same way here. Every dataset carries netCDF-4 dimension scales (named dimensions with coordinates), which
is what lets xarray label the axes; files assembled before them are refused by open_phase with what to do.
"""
import os
import warnings
import zlib

import h5py
import numpy as np

from .errors import DamagedFile, InvalidFile, InvalidOption, StalePhaseWarning, file_problem

# The root attribute of a phase file naming its sweep file (src/store/schema.hpp, phase_file_source).
PHASE_FILE_SOURCE = "sweep_file"
# /points/status of a failed point (src/store/schema.hpp, PointStatus).
FAILED = 2


def check_file(path):
    """Raises InvalidOption("FILE", ...) unless `path` is a non-empty regular HDF5 file this process can
    read, and FileProblem when the system refuses to open it."""
    path = os.fspath(path)
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


def open_h5(path):
    """The file at `path` opened read-only with h5py, after check_file; a FileProblem when HDF5 cannot."""
    check_file(path)
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise file_problem(os.fspath(path), "open the sweep file", e) from None


def strings(dataset):
    """Fixed- or variable-length HDF5 strings as a list of str, trailing NULs/spaces removed."""
    return [v.decode().rstrip("\0 ") if isinstance(v, bytes) else str(v) for v in np.asarray(dataset[...]).ravel()]


def sweep_of(h5):
    """The sweep file a phase file was assembled from, or None for a sweep file."""
    source = h5.attrs.get(PHASE_FILE_SOURCE)
    return None if source is None else (source.decode() if isinstance(source, bytes) else str(source))


def require_phase(h5, path):
    if "phase" not in h5:
        raise InvalidFile(path, "the file has no /phase group: run `rmtsweep assemble FILE.h5` first")


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def status_checksum(status):
    """The CRC-32 of /points/status as rmtsweep computes it (src/store/checksums.cpp): each value as its 8
    little-endian bytes, zlib's CRC-32, its low 31 bits."""
    return zlib.crc32(np.asarray(status, dtype="<i8").tobytes()) & 0x7FFFFFFF


def dataset_checksum(dataset):
    """The CRC-32 of a dataset's values as rmtsweep computes its attribute `checksum` (src/store/checksums.cpp,
    content_checksum): a real of 8 bytes or an integer (of any width, as int64) as its 8 little-endian bytes,
    a fixed-length text as its stored bytes (its whole width, NUL padding included), a variable-length one as
    its UTF-8 bytes and a NUL; in storage order, zlib's CRC-32, its low 31 bits."""
    kind, values = dataset.dtype, dataset[...]
    string = h5py.check_string_dtype(kind)
    if string is not None and string.length is None:  # variable-length
        data = b"".join((v.encode() if isinstance(v, str) else bytes(v or b"")) + b"\0"
                        for v in np.asarray(values, dtype=object).ravel())
    elif kind.kind == "S":
        data = np.ascontiguousarray(values).tobytes()
    elif kind.kind == "f":
        data = np.asarray(values, dtype="<f8").tobytes() if kind.itemsize == 8 else b""
    elif kind.kind in "iu":
        data = np.asarray(values).astype("<i8").tobytes()
    else:
        data = b""
    return zlib.crc32(data) & 0x7FFFFFFF


def damaged_phase(path):
    """The /phase datasets of `path` (a sweep file or a phase file) whose attribute `checksum` is not the
    CRC-32 of what they hold now, as "/phase/..." paths; empty where none fails or /phase has no checksums
    (assembled before them)."""
    damaged = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and "checksum" in obj.attrs:
            try:
                if dataset_checksum(obj) != int(obj.attrs["checksum"]):
                    damaged.append(f"/phase/{name}")
            except OSError:  # bytes HDF5 cannot read back: damage too
                damaged.append(f"/phase/{name}")

    with open_h5(path) as h5:
        if "phase" in h5:
            h5["phase"].visititems(visit)
    return damaged


def check_phase_checksums(path):
    """Raises DamagedFile naming the /phase datasets of `path` whose checksums fail, and what rebuilds them
    (`rmtsweep assemble`, of the sweep file a phase file names)."""
    path = os.fspath(path)
    damaged = damaged_phase(path)
    if not damaged:
        return
    with open_h5(path) as h5:
        sweep = sweep_of(h5)
    rebuild = f"rmtsweep assemble {path}" if sweep is None else f"rmtsweep assemble {sweep} --output {path} --force"
    raise DamagedFile(path, f"checksums fail in {' '.join(damaged)}: its values are not those assemble wrote, "
                            f"nothing drawn; `{rebuild}` rebuilds /phase")


def phase_staleness(path):
    """None when the /phase of `path` was built from the points its sweep file holds now, or when that cannot
    be told (a /phase of an assemble before it recorded its points, a phase file whose sweep file is gone);
    else a sentence saying that /phase is stale: built from other points than the sweep file holds (its
    attribute built_from_status, the CRC-32 of /points/status then, against the status now). A phase file
    (`assemble --output`) is compared with the sweep file its attribute sweep_file names."""
    path = os.fspath(path)
    with open_h5(path) as h5:
        if "phase" not in h5 or "built_from_status" not in h5["phase"].attrs:
            return None
        built = int(h5["phase"].attrs["built_from_status"])
        built_from = _text(h5["phase"].attrs.get("built_from", "points not recorded"))
        sweep = sweep_of(h5)
        status = h5["points/status"][...] if sweep is None and "points/status" in h5 else None
    if sweep is not None:
        try:
            with h5py.File(sweep, "r") as f:
                status = f["points/status"][...]
        except (OSError, KeyError):
            return None  # the sweep file moved or is no sweep file: nothing to compare with
    if status is None or status_checksum(status) == built:
        return None
    counts = [int(np.count_nonzero(status == code)) for code in (1, FAILED, 0)]
    source = sweep if sweep is not None else path
    return (f"/phase is STALE: it was built from {built_from}, and {source} now holds {counts[0]} done, "
            f"{counts[1]} failed, {counts[2]} pending of {len(status)} points: the figures show the points of "
            f"then; `rmtsweep assemble {source}{'' if sweep is None else ' --output ' + path + ' --force'}` "
            "builds it again")


# The attributes of a dimension scale that netCDF-4 readers keep to themselves (h5netcdf hides them, xarray moves
# _Encoding into .encoding): what grid_axes leaves out, so that its axes equal xarray's.
SCALE_ATTRIBUTES = {"CLASS", "NAME", "REFERENCE_LIST", "DIMENSION_LIST", "_Netcdf4Dimid", "_Netcdf4Coordinates",
                    "_Encoding"}
# The NAME netCDF-4 gives a dimension scale that holds no coordinates (a dimension alone).
NOT_A_VARIABLE = "This is a netCDF dimension but not a netCDF variable"


def grid_axes(path, dims):
    """The coordinates of /phase along those of `dims` that are its dimension scales, as xarray.Variables equal
    to what xr.open_dataset(path, group="phase") gives (values, dtype, attributes), read with h5py: xarray's
    h5netcdf engine would open every table of /phase to give them (0.3 s against 5 ms)."""
    import xarray as xr

    axes = {}
    with open_h5(path) as h5:
        for dim in dims:
            scale = h5["phase"].get(dim)
            if not isinstance(scale, h5py.Dataset) or scale.ndim != 1 or scale.attrs.get("CLASS") != b"DIMENSION_SCALE":
                continue
            if _text(scale.attrs.get("NAME", b"")).startswith(NOT_A_VARIABLE):  # a dimension without coordinates
                continue
            values = scale[()]
            if values.dtype.kind in "OS":
                values = np.array([_text(v) for v in values], dtype=object)
            attrs = {name: _text(value) if isinstance(value, bytes) else value
                     for name, value in scale.attrs.items() if name not in SCALE_ATTRIBUTES}
            axes[dim] = xr.Variable((dim,), values, attrs)
    return axes


def open_phase(path, group=None):
    """The phase tables of an assembled sweep file or of a phase file, as an xarray.Dataset loaded into
    memory (the file is closed again, so `rmtsweep assemble` can rewrite it meanwhile).

    group None gives /phase: the cell tables (overlap_mean, detected_fraction, ...) with dimensions
    weighting x d x delta x gamma x snr, the line tables (thresholds) without snr, the extrapolations to
    d -> infinity without d; coordinates weighting (str), d, delta, gamma, snr. `group` "theory" gives the
    fine theory curves (dimensions snr_fine, delta_fine, gamma_fine, density_index beside weighting,
    delta, gamma, whose coordinates are taken from /phase), "detection/<rule>" one detection rule's tables
    (rule edge, eigengap, null or finite_t_edge).

        ds = rmtsweep.open_phase("out/example.h5")
        ds.overlap_mean.sel(weighting="mean", delta=0.6).squeeze().to_pandas()   # gamma x snr

    Raises InvalidFile when the file has no /phase, or a /phase assembled by an rmtsweep from before
    dimension scales (assemble it again). Warns (StalePhaseWarning) when /phase was built from other points than
    the sweep file holds now, and says so in the attribute `rmtsweep_stale` (phase_staleness).
    """
    ds = read_phase(path, group)
    stale = phase_staleness(path)
    if stale:
        warnings.warn(f"{os.fspath(path)}: {stale}", StalePhaseWarning, stacklevel=2)
        ds = ds.assign_attrs(rmtsweep_stale=stale)
    return ds


def read_phase(path, group=None):
    """open_phase without its staleness check: for the groups read beside a /phase whose staleness open_phase
    has already said (the figures' theory and rule tables), which would otherwise say it again."""
    import xarray as xr

    path = os.fspath(path)
    with open_h5(path) as h5:
        require_phase(h5, path)
        name = "phase" if group is None else f"phase/{str(group).strip('/')}"
        if name not in h5:
            subgroups = []
            h5["phase"].visit(lambda n: subgroups.append(n) if isinstance(h5["phase"][n], h5py.Group) else None)
            raise InvalidOption("group", group, "a group of /phase: " + ", ".join(sorted(subgroups)))
        if "CLASS" not in h5["phase/snr"].attrs:
            raise InvalidFile(path, "its /phase was assembled by an rmtsweep from before dimension scales, "
                                    "which xarray needs: run `rmtsweep assemble " + path + "` again (or "
                                    "`rmtsweep assemble " + path + " --output PHASE.h5` to leave it untouched)")
    try:
        with xr.open_dataset(path, group=name, engine="h5netcdf") as opened:
            ds = opened.load()
        if group is not None:
            axes = grid_axes(path, [dim for dim in ds.dims if dim not in ds.indexes])
            # theory's snr, delta and gamma hold the fine axes' values (snr_fine, ...) under their names from
            # before scales: the grid's axes take those names, as in /phase.
            ds = ds.drop_vars([name for name in axes if name in ds.variables]).assign_coords(axes)
    except OSError as e:
        raise file_problem(path, "read /phase", e) from None
    return text_coordinates_as_str(ds)


def text_coordinates_as_str(ds):
    """`ds` with its text variables (weighting, count_of) as numpy str arrays, attributes kept. h5netcdf gives
    them as Python objects, which xarray's .plot() refuses as an axis; and their stored encoding (fixed-length
    bytes with _Encoding utf-8) would make to_netcdf write bytes, which reopen as bytes."""
    texts = {name: variable for name, variable in ds.variables.items() if variable.dtype.kind in "OSU"}
    if not texts:
        return ds
    converted = {}
    for name, variable in texts.items():
        values = np.array([v.decode() if isinstance(v, bytes) else str(v) for v in np.ravel(variable.values)],
                          dtype=str).reshape(variable.shape)
        converted[name] = (variable.dims, values, dict(variable.attrs))
    return ds.assign_coords({name: spec for name, spec in converted.items() if name in ds.coords}).assign(
        {name: spec for name, spec in converted.items() if name not in ds.coords})


# read_points' columns: the point's coordinates (the grid's axes, in grid order), its state and its main
# measurements first; every other /points column after them, in the file's (alphabetical) order.
LEADING_COLUMNS = ("d", "delta", "gamma", "snr", "weighting", "trial", "status", "top_eigenvalue", "overlap",
                   "ridge_accuracy")
# The k-valued columns whose first value is a column of its own: top_eigenvalues[:, 0] is top_eigenvalue and
# overlaps[:, 0] is overlap (the largest eigenvalue and its eigenvector's overlap).
TOP_K_FIRST = {"top_eigenvalues": "top_eigenvalue", "overlaps": "overlap"}
# /points/status where the file has no flag attributes (written before them): PointStatus's names.
STATUS_NAMES = {-1: "unused", 0: "pending", 1: "done", 2: "failed"}


def flag_names(dataset, default):
    """{code: name} of a flag variable, from its CF flag_values and flag_meanings, or `default`."""
    if "flag_values" not in dataset.attrs or "flag_meanings" not in dataset.attrs:
        return default
    meanings = dataset.attrs["flag_meanings"]
    meanings = meanings.decode() if isinstance(meanings, bytes) else str(meanings)
    return dict(zip((int(v) for v in np.ravel(dataset.attrs["flag_values"])), meanings.split()))


def categorical(codes, names):
    """pandas.Categorical of integer codes named by {code: name} (categories in code order); a code without a
    name becomes its own text."""
    import pandas as pd

    names = dict(names)
    for code in np.unique(codes):
        names.setdefault(int(code), str(int(code)))
    order = sorted(names)
    lookup = {code: i for i, code in enumerate(order)}
    return pd.Categorical.from_codes([lookup[int(c)] for c in codes], [names[c] for c in order])


def point_columns(points, top_k):
    """The output columns of read_points, in order, each as (name, dataset name, position in k or None)."""
    names = [name for name, dataset in points.items() if dataset.attrs.get("CLASS") != b"DIMENSION_SCALE"]
    ordered = [name for name in LEADING_COLUMNS if name in names] + \
              [name for name in names if name not in LEADING_COLUMNS]
    out = []
    for name in ordered:
        dataset = points[name]
        if dataset.ndim == 2 and top_k == "split":
            first = 1 if TOP_K_FIRST.get(name) in names else 0
            out.extend((f"{name}_{j}", name, j) for j in range(first, dataset.shape[1]))
        else:
            out.append((name, name, None))
    return out


def read_points(path, top_k="split", columns=None):
    """/points of a sweep file as a pandas.DataFrame: one row per point, indexed by the point index (`point`,
    the row in /points). Columns: first the point's coordinates d, delta, gamma, snr, weighting, trial, then
    status, top_eigenvalue, overlap and ridge_accuracy, then every other /points column in alphabetical order
    (docs/schema.md says what each holds). weighting is a pandas Categorical (categories: the sweep's
    weightings in grid order), status a Categorical of names (pending, done, failed; unused for refine's rows,
    from the column's flag_meanings); solver and error are str, error the message of each failed point and ""
    for the others (a failed point's message reaches the file when its run closes it; a run killed before has
    it in its journal: `rmtsweep status` shows it).

    top_k "split" gives the k values of top_eigenvalues and overlaps as columns top_eigenvalues_1 ...
    top_eigenvalues_{k-1} (descending; the largest, j = 0, is the column top_eigenvalue, and overlaps_0 is
    overlap); "list" one column of arrays each, all k values. `columns` reads those columns only (names as
    above, in the order given), with the index.

        points = rmtsweep.read_points("out/example.h5")
        done = points[points.status == "done"]
        done.groupby(["weighting", "snr"], observed=True).overlap.mean()
    """
    import pandas as pd

    if top_k not in ("split", "list"):
        raise InvalidOption("top_k", top_k, "allowed: split (one column per value) or list (one column of lists)")
    path = os.fspath(path)
    with open_h5(path) as h5:
        if "points" not in h5:
            source = sweep_of(h5)
            raise InvalidFile(path, f"a phase file of {source}, which holds the points: read that one" if source
                              else "the file has no /points: not an rmtsweep sweep file")
        points = h5["points"]
        available = point_columns(points, top_k)
        if columns is None:
            chosen = available
        else:
            by_name = {entry[0]: entry for entry in available}
            wanted = [columns] if isinstance(columns, str) else list(columns)
            for name in wanted:
                if name not in by_name:
                    raise InvalidOption("columns", name, "a column of read_points: " + ", ".join(by_name))
            chosen = [by_name[name] for name in wanted]
        data, rows = {}, int(points["status"].shape[0])
        try:
            read = {}
            for name, source, j in chosen:
                if source not in read:
                    read[source] = points[source][...]
                values = read[source]
                if source == "weighting":
                    grid = strings(h5["grid/weighting"]) if "grid/weighting" in h5 else []
                    texts = strings(points[source])
                    data[name] = pd.Categorical(texts, categories=grid + sorted(set(texts) - set(grid)))
                elif source == "status":
                    data[name] = categorical(values, flag_names(points[source], STATUS_NAMES))
                elif points[source].dtype.kind in "SO":
                    data[name] = strings(points[source])
                elif j is not None:
                    data[name] = values[:, j]
                elif values.ndim == 2:
                    data[name] = list(values)
                else:
                    data[name] = values
            if "error" in data:
                # A run killed before its close may leave on a point it computed the message of an earlier failure,
                # which the next close empties (docs/reliability.md): failed points' messages only.
                status = points["status"][...]
                data["error"] = [e if s == FAILED else "" for e, s in zip(data["error"], status)]
        except OSError as e:
            raise file_problem(path, "read /points", e) from None
    return pd.DataFrame(data, index=pd.RangeIndex(rows, name="point"))
