"""Opening rmtsweep's files: the phase tables as an xarray.Dataset, the points as a pandas.DataFrame.

A sweep file (`rmtsweep run`) holds /grid, /points, /spectra and, once assembled, /phase; a phase file
(`rmtsweep assemble FILE --output PHASE.h5`) holds /phase alone with the sweep's config. Both are read the
same way here. Every dataset carries netCDF-4 dimension scales (named dimensions with coordinates), which
is what lets xarray label the axes; files assembled before them are refused by open_phase with what to do.
"""
import os

import h5py
import numpy as np

from .errors import InvalidFile, InvalidOption, file_problem

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
    dimension scales (assemble it again).
    """
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
            with xr.open_dataset(path, group="phase", engine="h5netcdf") as phase:
                axes = {dim: phase[dim].load() for dim in ds.dims if dim not in ds.indexes and dim in phase.indexes}
            # theory's snr, delta and gamma hold the fine axes' values (snr_fine, ...) under their names from
            # before scales: the grid's axes take those names, as in /phase.
            ds = ds.drop_vars([name for name in axes if name in ds.variables]).assign_coords(axes)
    except OSError as e:
        raise file_problem(path, "read /phase", e) from None
    return ds


def read_points(path, top_k="split"):
    """/points of a sweep file as a pandas.DataFrame: one row per point, indexed by the point index
    (the row in /points), one column per /points dataset; texts (weighting, solver, error) as str. error holds
    the message of each failed point (status 2), "" for the others; a failed point's message reaches the file
    when its run closes it (a run killed before has it in its journal: `rmtsweep status` shows it).

    top_k "split" gives the k values of top_eigenvalues and overlaps as columns top_eigenvalues_0 ...
    top_eigenvalues_{k-1} (0: the largest), "list" as one column of lists.

        points = rmtsweep.read_points("out/example.h5")
        done = points[points.status == 1]
        done.groupby(["weighting", "snr"]).overlap.mean()
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
        columns, rows = {}, None
        try:
            for name, dataset in points.items():
                if dataset.attrs.get("CLASS") == b"DIMENSION_SCALE":  # the dimensions point and k
                    continue
                values = dataset[...]
                rows = values.shape[0]
                if dataset.dtype.kind in "SO":
                    columns[name] = strings(dataset)
                elif values.ndim == 2 and top_k == "split":
                    for j in range(values.shape[1]):
                        columns[f"{name}_{j}"] = values[:, j]
                elif values.ndim == 2:
                    columns[name] = list(values)
                else:
                    columns[name] = values
        except OSError as e:
            raise file_problem(path, "read /points", e) from None
    # error: a failed point's message. A run killed before its close may leave on a point it computed the message
    # of an earlier failure, which the next close empties (docs/reliability.md): failed points' messages only.
    if "error" in columns and "status" in columns:
        columns["error"] = [e if s == FAILED else "" for e, s in zip(columns["error"], columns["status"])]
    frame = pd.DataFrame(columns, index=pd.RangeIndex(rows or 0, name="point"))
    return frame
