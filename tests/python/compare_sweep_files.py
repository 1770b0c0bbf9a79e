#!/usr/bin/python3
"""Whether two sweep files hold the same content, as h5py sees it.

    /usr/bin/python3 tests/python/compare_sweep_files.py A.h5 B.h5 [--ignore-attr NAME ...] [--ignore-dataset PATH ...]

Compares every group and dataset (names, shapes, dtypes, values bit for bit with NaN equal to NaN,
`description` and every other attribute) and the root attributes, except those that record when
and with what a file was written (times, command lines, library versions, the creation's random
sweep_id, a recovery's or a merge's note, the run that last wrote the failures' messages; /points/seconds
is compared by shape only; the run table compared run by run as the attributes run_<i>_<field> of files
written before it). Prints each difference and exits 1 when there is one, 0 when the files hold
the same content. For the refactors that must leave files unchanged (the schema table, typed
collectives): run a sweep with the old and the new binary and compare; for `rmtsweep recover`: a rebuilt file against the run's own. --ignore-dataset
compares a dataset by shape and dtype only (e.g. points/run of a file finished by a resume).
"""
import argparse
import json
import sys

import h5py
import numpy as np

# Datasets that hold wall-clock times (compared by shape and dtype only).
TIME_DATASETS = {"points/seconds"}
# Checksums (schema_version 4) follow from the values they cover, the times and runs included, which are set
# aside here: compared by shape only (`rmtsweep status` checks them against the values).
CHECKSUM_ATTRIBUTE = "checksum"


def is_checksums(name):
    return name == "checksums/points" or name.endswith("/checksum")


# Root attributes that record the run, not the content (history: one line per run, when and how).
RUN_ATTRIBUTES = {"created", "command_line", "rmtsweep_version", "mpi_library_version", "hdf5_version",
                  "blas_version", "scalapack_library", "assembled_by", "sweep_id", "recovered", "merged",
                  "messages_run", "history"}
# The runs' table (JSON): compared run by run and field by field, as the attributes run_<i>_<field> that files
# written before it hold, so that --ignore-attr run_1_mpi_ranks works on either layout.
RUN_TABLE = "run_table"


def root_attributes(h5):
    """The root attributes of `h5`, its run table spread into run_<i>_<field> (an empty shard left out, as a
    file of the attributes has none)."""
    attrs = {name: h5.attrs[name] for name in h5.attrs if name != RUN_TABLE}
    if RUN_TABLE in h5.attrs:
        table = h5.attrs[RUN_TABLE]
        for row in json.loads(table.decode() if isinstance(table, bytes) else table):
            for field, value in row.items():
                if field != "run" and not (field == "shard" and value == ""):
                    attrs[f"run_{row['run']}_{field}"] = value
    return attrs


def is_run_attribute(name, ignored):
    return name in RUN_ATTRIBUTES or name in ignored or (name.startswith("run_") and
                                                          name.endswith(("_started", "_command_line")))


def same_values(a, b):
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a.shape == b.shape and np.array_equal(a, b)


def dereferenced(h5, value):
    """An attribute value with every HDF5 object reference replaced by the path it points to: the
    dimension scales' DIMENSION_LIST and REFERENCE_LIST hold references, which are file addresses."""
    if isinstance(value, h5py.Reference):
        return h5[value].name if value else None
    if isinstance(value, np.ndarray) and value.dtype.names:
        return tuple(tuple(dereferenced(h5, field) for field in row) for row in value.tolist())
    if isinstance(value, (np.ndarray, list, tuple)) and (not isinstance(value, np.ndarray) or value.dtype.kind == "O"):
        return tuple(dereferenced(h5, item) for item in value)
    return value


def compare_attributes(path, a, b, ignored, out):
    attrs_a = root_attributes(a) if path == "/" else dict(a.attrs)
    attrs_b = root_attributes(b) if path == "/" else dict(b.attrs)
    for name in sorted(set(attrs_a) | set(attrs_b)):
        if (path == "/" and is_run_attribute(name, ignored)) or (path != "/" and name == CHECKSUM_ATTRIBUTE):
            continue
        if name not in attrs_a or name not in attrs_b:
            out.append(f"{path}: attribute {name} only in {'the first' if name in attrs_a else 'the second'}")
            continue
        if name in ("DIMENSION_LIST", "REFERENCE_LIST"):
            if dereferenced(a.file, attrs_a[name]) != dereferenced(b.file, attrs_b[name]):
                out.append(f"{path}: attribute {name}: {dereferenced(a.file, attrs_a[name])} != "
                           f"{dereferenced(b.file, attrs_b[name])}")
            continue
        x, y = np.asarray(attrs_a[name]), np.asarray(attrs_b[name])
        if not same_values(x, y):
            out.append(f"{path}: attribute {name}: {attrs_a[name]!r} != {attrs_b[name]!r}")


def compare(a, b, ignored, ignored_datasets=frozenset()):
    out = []
    compare_attributes("/", a, b, ignored, out)
    names_a, names_b = set(), set()
    a.visit(names_a.add)
    b.visit(names_b.add)
    for name in sorted(names_a ^ names_b):
        out.append(f"/{name}: only in {'the first' if name in names_a else 'the second'}")
    for name in sorted(names_a & names_b):
        x, y = a[name], b[name]
        if isinstance(x, h5py.Dataset) != isinstance(y, h5py.Dataset):
            out.append(f"/{name}: a dataset in one file, a group in the other")
            continue
        compare_attributes("/" + name, x, y, ignored, out)
        if isinstance(x, h5py.Dataset):
            if x.dtype != y.dtype:
                out.append(f"/{name}: dtype {x.dtype} != {y.dtype}")
            elif name in TIME_DATASETS or name in ignored_datasets or is_checksums(name):
                if x.shape != y.shape:
                    out.append(f"/{name}: shape {x.shape} != {y.shape}")
            elif not same_values(x[...], y[...]):
                out.append(f"/{name}: values differ")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--ignore-attr", action="append", default=[], help="another root attribute to skip")
    parser.add_argument("--ignore-dataset", action="append", default=[],
                        help="a dataset (e.g. points/run) compared by shape and dtype only")
    args = parser.parse_args()
    with h5py.File(args.first, "r") as a, h5py.File(args.second, "r") as b:
        differences = compare(a, b, set(args.ignore_attr), {name.strip("/") for name in args.ignore_dataset})
    for line in differences:
        print(line)
    print(f"{len(differences)} difference(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
