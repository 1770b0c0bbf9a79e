#!/usr/bin/python3
"""Whether two sweep files hold the same content, as h5py sees it.

    /usr/bin/python3 tests/python/compare_sweep_files.py A.h5 B.h5 [--ignore-attr NAME ...] [--ignore-dataset PATH ...]

Compares every group and dataset (names, shapes, dtypes, values bit for bit with NaN equal to NaN,
`description` and every other attribute) and the root attributes, except those that record when
and with what a file was written (times, command lines, library versions, the creation's random
sweep_id, a recovery's or a merge's note, the run that last wrote the failures' messages; /points/seconds
is compared by shape only). Prints each difference and exits 1 when there is one, 0 when the files hold
the same content. For the refactors that must leave files unchanged (the schema table, typed
collectives): run a sweep with the old and the new binary and compare; for `rmtsweep recover`: a rebuilt file against the run's own. --ignore-dataset
compares a dataset by shape and dtype only (e.g. points/run of a file finished by a resume).
"""
import argparse
import sys

import h5py
import numpy as np

# Datasets that hold wall-clock times (compared by shape and dtype only).
TIME_DATASETS = {"points/seconds"}
# Root attributes that record the run, not the content.
RUN_ATTRIBUTES = {"created", "command_line", "rmtsweep_version", "mpi_library_version", "hdf5_version",
                  "blas_version", "scalapack_library", "assembled_by", "sweep_id", "recovered", "merged",
                  "messages_run"}


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
    names = set(a.attrs) | set(b.attrs)
    for name in sorted(names):
        if path == "/" and is_run_attribute(name, ignored):
            continue
        if name not in a.attrs or name not in b.attrs:
            out.append(f"{path}: attribute {name} only in {'the first' if name in a.attrs else 'the second'}")
            continue
        if name in ("DIMENSION_LIST", "REFERENCE_LIST"):
            if dereferenced(a.file, a.attrs[name]) != dereferenced(b.file, b.attrs[name]):
                out.append(f"{path}: attribute {name}: {dereferenced(a.file, a.attrs[name])} != "
                           f"{dereferenced(b.file, b.attrs[name])}")
            continue
        x, y = np.asarray(a.attrs[name]), np.asarray(b.attrs[name])
        if not same_values(x, y):
            out.append(f"{path}: attribute {name}: {a.attrs[name]!r} != {b.attrs[name]!r}")


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
            elif name in TIME_DATASETS or name in ignored_datasets:
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
