#!/usr/bin/python3
"""The include graph between rmtsweep's folders (src/<folder>/ and include/rmtsweep/<folder>/).

Each folder may include only the folders below it in LAYERS (and itself); theory and model include no
MPI, HDF5 or BLAS-distributing layer; config reaches no MPI or HDF5 header through any chain of includes
(its options are plain values: simulate/options.hpp); only the options' layers construct an InvalidOption (the
library below raises InvalidArgument, which the program says as an option); the folders' graph has no cycle.
Fails naming every include (or throw) that breaks a rule, with its file and line."""
import argparse
import pathlib
import re
import sys
import unittest

# Lowest first: a folder may include the folders listed before it, never one after it.
LAYERS = ["common", "model", "theory", "random", "io", "parallel", "spectral", "simulate", "config", "store",
          "sweep", "assemble", "refine", "app"]
# Pure functions of numbers: no MPI, no HDF5, none of the layers that draw or distribute.
PURE = {"model", "theory"}
FORBIDDEN_IN_PURE = {"simulate", "random", "sweep", "store", "config", "parallel", "io", "spectral", "refine",
                     "assemble", "app"}
SYSTEM_FORBIDDEN_IN_PURE = {"mpi.h", "hdf5.h", "H5DSpublic.h", "elpa/elpa.h"}
# Folders that reach no MPI or HDF5 header through any chain of includes.
WITHOUT_MPI = {"model", "theory", "config"}
SYSTEM_MPI_OR_HDF5 = {"mpi.h", "hdf5.h", "H5DSpublic.h"}
# The folders that may construct an InvalidOption: the options' parsers (model's value parsers, config's option
# table and config file) and the program.
RAISE_INVALID_OPTION = {"model", "config", "app"}
INVALID_OPTION = re.compile(r"\bInvalidOption(::described)?\(")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

ROOT = pathlib.Path(".")


def folder_of(path):
    parts = path.relative_to(ROOT).parts
    if parts[0] == "src":
        return parts[1] if len(parts) > 2 else None
    if parts[:2] == ("include", "rmtsweep"):
        return parts[2] if len(parts) > 3 else None
    return None


def includes():
    """(file, line number, own folder, included folder or None, system header or None) per include."""
    for top in ("src", "include/rmtsweep"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h"):
                continue
            own = folder_of(path)
            if own is None:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                bracket, name = match.groups()
                target = None
                if name.startswith("rmtsweep/"):
                    target = name.split("/")[1]
                elif bracket == '"':
                    resolved = (path.parent / name).resolve()
                    try:
                        target = folder_of(pathlib.Path(resolved).relative_to(ROOT.resolve()) and
                                           ROOT / pathlib.Path(resolved).relative_to(ROOT.resolve()))
                    except ValueError:
                        target = None
                yield path.relative_to(ROOT), number, own, target, (name if bracket == "<" else None)


def resolve(path, bracket, name):
    """The file of the repository an include names, or None (a system or third-party header)."""
    if name.startswith("rmtsweep/"):
        candidate = ROOT / "include" / name
        return candidate if candidate.exists() else None
    if bracket == '"':
        candidate = path.parent / name
        return candidate if candidate.exists() else None
    return None


def reached_system_headers(path, seen=None):
    """Every system header `path` reaches through its includes: {header: the chain of files to it}."""
    seen = set() if seen is None else seen
    found = {}
    if path in seen:
        return found
    seen.add(path)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        bracket, name = match.groups()
        target = resolve(path, bracket, name)
        if target is None:
            if bracket == "<":
                found.setdefault(name, [f"{path.relative_to(ROOT)}:{number}"])
            continue
        for header, chain in reached_system_headers(target, seen).items():
            found.setdefault(header, [f"{path.relative_to(ROOT)}:{number}"] + chain)
    return found


class IncludeGraph(unittest.TestCase):
    def test_every_folder_is_in_a_layer(self):
        folders = {own for _, _, own, _, _ in includes()}
        self.assertEqual(sorted(folders - set(LAYERS)), [], "folders missing from LAYERS")

    def test_no_include_points_up_the_layers(self):
        wrong = [f"{path}:{number}: {own} includes {target}" for path, number, own, target, _ in includes()
                 if target and target != own and target in LAYERS and own in LAYERS
                 and LAYERS.index(target) > LAYERS.index(own)]
        self.assertEqual(wrong, [])

    def test_theory_and_model_are_plain_functions_of_numbers(self):
        wrong = [f"{path}:{number}: {own} includes {target or system}"
                 for path, number, own, target, system in includes()
                 if own in PURE and (target in FORBIDDEN_IN_PURE or system in SYSTEM_FORBIDDEN_IN_PURE)]
        self.assertEqual(wrong, [])

    def test_config_reaches_no_mpi_or_hdf5_header(self):
        wrong = []
        for top in ("src", "include/rmtsweep"):
            for path in sorted((ROOT / top).rglob("*")):
                if path.suffix not in (".cpp", ".hpp", ".h") or folder_of(path) not in WITHOUT_MPI:
                    continue
                for header, chain in reached_system_headers(path).items():
                    if header in SYSTEM_MPI_OR_HDF5:
                        wrong.append(f"{path.relative_to(ROOT)} reaches <{header}>: " + " -> ".join(chain))
        self.assertEqual(wrong, [])

    def test_only_the_options_layers_raise_invalid_option(self):
        wrong = []
        for top in ("src", "include/rmtsweep"):
            for path in sorted((ROOT / top).rglob("*")):
                own = folder_of(path) if path.suffix in (".cpp", ".hpp", ".h") else None
                if own is None or own in RAISE_INVALID_OPTION or path.name == "error.hpp":
                    continue
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if INVALID_OPTION.search(line) and not line.lstrip().startswith("//"):
                        wrong.append(f"{path.relative_to(ROOT)}:{number}: {own} raises InvalidOption")
        self.assertEqual(wrong, [])

    def test_the_folders_graph_has_no_cycle(self):
        edges = {}
        for _, _, own, target, _ in includes():
            if target and target != own:
                edges.setdefault(own, set()).add(target)
        state = {}

        def visit(node, trail):
            state[node] = "open"
            for nxt in sorted(edges.get(node, ())):
                if state.get(nxt) == "open":
                    self.fail("cycle: " + " -> ".join(trail + [node, nxt]))
                if nxt not in state:
                    visit(nxt, trail + [node])
            state[node] = "done"

        for node in sorted(edges):
            if node not in state:
                visit(node, [])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".")
    args, rest = parser.parse_known_args()
    ROOT = pathlib.Path(args.root)
    unittest.main(argv=[sys.argv[0]] + rest)
