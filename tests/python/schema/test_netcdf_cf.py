"""The sweep file as netCDF-4 and CF see it, on a sweep made from an INI config and resumed once:
ncdump (netcdf-bin) reads every group; the CF rules docs/schema.md lists are checked one by one (no CF checker
is packaged by Debian); flag variables decode through their flag attributes; xarray's own .plot() labels every
/phase variable; weighting round-trips through to_netcdf; read_config gives the INI's values typed and
read_runs the runs; `assemble --table` writes the threshold table as CSV and JSON, equal to /phase.
"""
import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

ARGS = None
rmtsweep = None  # imported from --python in main

INI = """# a config file as a user writes it
d = 24, 32, 40
delta = 0.5, 1
gamma = 0.5
snr = 0:3:4
weighting = mean, optimal
trials = 3
k = 4
store_spectra = false
ranks_per_point = 2
"""
# The INI's values, typed as read_config gives them (the keys it does not give take their defaults).
TYPED = {"d": [24, 32, 40], "delta": [0.5, 1.0], "gamma": [0.5], "snr": [0.0, 1.0, 2.0, 3.0],
         "weighting": ["mean", "optimal"], "trials": 3, "k": 4, "store_spectra": False, "ranks_per_point": 2}
# Attributes HDF5's dimension scale API writes itself (fixed-length ASCII, as netCDF-4 reads them).
SCALE_ATTRIBUTES = {"CLASS", "NAME", "DIMENSION_LIST", "REFERENCE_LIST"}
# Every flag variable of the file, with the codes it may hold.
RULE_FLAGS = ("empirical_threshold_bracket", "empirical_threshold_exact", "extrapolation_terms",
              "extrapolation_terms_alternative", "residual_extrapolation_terms", "consistent",
              "refined_threshold_exact")
FLAG_VARIABLES = {"points/status", "points/theory_detectable", "points/solver_fell_back",
                  "phase/theory_detectable", "phase/default_detection_rule", "phase/target_converges"} | {
    f"phase/{name}" for name in RULE_FLAGS if name != "empirical_threshold_exact"} | {
    f"phase/detection/{rule}/{name}" for rule in ("edge", "eigengap", "null", "finite_t_edge")
    for name in RULE_FLAGS}
MASK_VARIABLES = {"phase/threshold_flags"} | {
    f"phase/detection/{rule}/threshold_flags" for rule in ("edge", "eigengap", "null", "finite_t_edge")}
ISO_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: rmtsweep run ")


def run(*command, check=True):
    done = subprocess.run(list(command), capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"{command}: {done.stderr}")
    return done


def variables(group):
    """(path, dataset) of every dataset under `group` that netCDF shows as a variable (not a dimension only)."""
    out = []

    def visit(name, obj):
        scale_name = obj.attrs.get("NAME", b"") if isinstance(obj, h5py.Dataset) else b""
        scale_name = scale_name.decode() if isinstance(scale_name, bytes) else str(scale_name)
        if isinstance(obj, h5py.Dataset) and not scale_name.startswith("This is a netCDF dimension but not"):
            out.append((f"{group.name.strip('/')}/{name}".strip("/"), obj))
    group.visititems(visit)
    return out


class NetcdfCf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.ini = os.path.join(cls.tmp.name, "sweep.ini")
        with open(cls.ini, "w") as f:
            f.write(INI)
        cls.path = os.path.join(cls.tmp.name, "sweep.h5")
        mpi = [ARGS.mpiexec, "-n", "2", "--oversubscribe", ARGS.binary, "run", "--config", cls.ini, "--output",
               cls.path, "--quiet"]
        run(*mpi)
        run(*mpi, "--resume")  # a second run, with nothing left to compute
        run(ARGS.binary, "assemble", cls.path, "--quiet")
        cls.file = h5py.File(cls.path, "r")

    @classmethod
    def tearDownClass(cls):
        cls.file.close()
        cls.tmp.cleanup()

    def test_ncdump_reads_the_whole_file(self):
        dumped = run("ncdump", "-h", self.path)
        self.assertIn(':Conventions = "CF-1.10"', dumped.stdout)
        self.assertIn("group: phase", dumped.stdout)
        self.assertIn('empirical_threshold_bracket:flag_meanings = "below_grid found above_grid no_data"',
                      dumped.stdout)

    def test_the_root_says_its_conventions_and_history_one_line_per_run(self):
        attrs = self.file.attrs
        self.assertEqual(attrs["Conventions"], "CF-1.10")
        lines = attrs["history"].split("\n")
        self.assertEqual(len(lines), 2)
        for line in lines:
            self.assertRegex(line, ISO_LINE)
        self.assertIn("--resume", lines[1])

    def test_every_text_attribute_is_a_variable_length_utf8_string(self):
        def check(name, obj):
            for key in obj.attrs:
                if key in SCALE_ATTRIBUTES:
                    continue
                kind = obj.attrs.get_id(key).dtype
                if kind.kind in "SO":
                    info = h5py.check_string_dtype(kind)
                    self.assertEqual((info.encoding, info.length), ("utf-8", None), f"{name}: {key}")
        check("/", self.file)
        self.file.visititems(check)

    def test_every_phase_variable_and_coordinate_has_a_long_name_and_units_only_where_they_exist(self):
        checked = variables(self.file["phase"])
        self.assertGreater(len(checked), 80)
        for path, dataset in checked:
            with self.subTest(path=path):
                self.assertGreater(len(dataset.attrs.get("long_name", "")), 0)
                self.assertNotIn("units", dataset.attrs)  # /phase holds dimensionless quantities only

    def test_every_flag_variable_decodes_through_its_flag_attributes(self):
        found = {path for path, dataset in variables(self.file["/"]) if "flag_values" in dataset.attrs}
        self.assertEqual(found, FLAG_VARIABLES)
        for path in sorted(found):
            dataset = self.file[path]
            with self.subTest(path=path):
                values, meanings = dataset.attrs["flag_values"], dataset.attrs["flag_meanings"].split()
                self.assertEqual(values.dtype, dataset.dtype)  # CF 3.5: the variable's type
                self.assertEqual(len(values), len(meanings))
                self.assertEqual(len(set(values)), len(values))
                for word in meanings:
                    self.assertRegex(word, r"^[A-Za-z0-9_.+\-@]+$")
                self.assertTrue(set(np.unique(dataset[...])) <= set(values), "a stored code without a meaning")
        masks = {path for path, dataset in variables(self.file["/"]) if "flag_masks" in dataset.attrs}
        self.assertEqual(masks, MASK_VARIABLES)
        for path in sorted(masks):
            dataset = self.file[path]
            with self.subTest(path=path):
                bits, meanings = dataset.attrs["flag_masks"], dataset.attrs["flag_meanings"].split()
                self.assertEqual(bits.dtype, dataset.dtype)
                self.assertEqual(len(bits), len(meanings))
                self.assertTrue(all(int(b) > 0 and int(b) & (int(b) - 1) == 0 for b in bits), "one bit each")
                self.assertFalse((np.unique(dataset[...]) & ~np.bitwise_or.reduce(bits)).any(), "a bit without a meaning")
        status = self.file["points/status"]
        names = dict(zip(status.attrs["flag_values"], status.attrs["flag_meanings"].split()))
        self.assertEqual({names[v] for v in np.unique(status[...])}, {"done"})

    def test_names_follow_cf_and_differ_beyond_case_and_a_variables_dimensions_differ(self):
        groups = {}
        for path, dataset in variables(self.file["/"]):
            group, name = os.path.split(path)
            groups.setdefault(group, []).append(name)
            self.assertRegex(name, r"^[A-Za-z][A-Za-z0-9_]*$", path)
            dims = [os.path.basename(scale.name) for axis in dataset.dims for scale in axis.values()]
            self.assertEqual(len(dims), len(set(dims)), path)
        for group, names in groups.items():
            self.assertEqual(len({n.lower() for n in names}), len(names), group)

    def test_coordinates_are_named_dimensions_and_numeric_ones_are_strictly_monotonic(self):
        phase = self.file["phase"]
        for name in ("d", "delta", "gamma", "snr", "trial", "detection_margin_c"):
            values = phase[name][...]
            self.assertEqual(phase[name].attrs["CLASS"], b"DIMENSION_SCALE", name)
            self.assertTrue(np.all(np.diff(values) > 0), name)

    def test_xarray_plots_every_phase_variable_with_its_long_name_and_a_title(self):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for group in (None, "theory", "detection/edge"):
            ds = rmtsweep.open_phase(self.path, group)
            for name, variable in ds.data_vars.items():
                # Along its last axis of several values (a curve of one value is no plot), the others at their first.
                along = [dim for dim in variable.dims if variable.sizes[dim] > 1]
                if not along:  # gamma_fine when the sweep has one gamma
                    continue
                with self.subTest(group=group, name=name):
                    line = variable.isel({dim: 0 for dim in variable.dims if dim != along[-1]})
                    figure = plt.figure()
                    line.plot()
                    axes = figure.axes[0]
                    self.assertEqual(axes.get_ylabel().replace("\n", " "), variable.attrs["long_name"])
                    self.assertEqual(axes.get_xlabel().replace("\n", " "),
                                     ds[along[-1]].attrs.get("long_name", along[-1]))
                    if variable.ndim > 1:
                        self.assertRegex(axes.get_title(), r"\w+ = ")
                    plt.close(figure)

    def test_weighting_round_trips_through_to_netcdf(self):
        import xarray as xr
        phase = rmtsweep.open_phase(self.path)
        for engine in ("h5netcdf", "scipy"):
            with self.subTest(engine=engine):
                copy = os.path.join(self.tmp.name, f"copy_{engine}.nc")
                phase.to_netcdf(copy, engine=engine)
                with xr.open_dataset(copy, engine=engine) as again:
                    self.assertEqual(list(again.weighting.values), ["mean", "optimal"])
                    self.assertEqual(again.overlap_mean.sel(weighting="optimal").dims, ("d", "delta", "gamma", "snr"))
                    self.assertEqual(again.overlap_mean.attrs["long_name"], "mean overlap")

    def test_read_config_gives_the_ini_values_typed(self):
        config = rmtsweep.read_config(self.path)
        for key, value in TYPED.items():
            self.assertEqual(config[key], value, key)
            self.assertIs(type(config[key]), type(value), key)
        self.assertEqual(config["eigensolver"], "auto")
        self.assertEqual(rmtsweep.parse_config(self.file.attrs["config"])["store_spectra"], False)

    def test_read_runs_gives_one_row_per_run(self):
        runs = rmtsweep.read_runs(self.path)
        self.assertEqual(list(runs.index), [0, 1])
        self.assertEqual(list(runs.mpi_ranks), [2, 2])
        self.assertEqual(list(runs.ranks_per_point), [2, 2])
        self.assertTrue(runs.command_line.iloc[1].endswith("--resume"))
        self.assertEqual(str(runs.started.dt.tz), "UTC")
        self.assertNotIn("run_0_started", self.file.attrs)  # the table, not attributes run by run
        # A file written before the table: the same frame from its run_<i>_* attributes.
        old = rmtsweep.read_runs(os.path.join(ARGS.source, "tests", "data", "sweep_schema2.h5"))
        self.assertEqual(list(old.columns), list(runs.columns))
        self.assertGreaterEqual(len(old), 1)
        self.assertTrue(old.command_line.iloc[0].startswith("rmtsweep run"))


class ThresholdTable(unittest.TestCase):
    """`rmtsweep assemble --table`: the thresholds as CSV, JSON or CSV on stdout, equal to /phase."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "sweep.h5")
        run(ARGS.mpiexec, "-n", "1", ARGS.binary, "run", "--output", cls.path, "--d", "24,32,48", "--delta",
            "0.5,1", "--gamma", "0.5", "--snr", "0:4:9", "--weighting", "mean,optimal", "--trials", "6", "--quiet")
        cls.csv = os.path.join(cls.tmp.name, "thresholds.csv")
        cls.printed = run(ARGS.binary, "assemble", cls.path, "--table", cls.csv).stdout

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_csv_holds_every_line_and_extrapolation_equal_to_phase(self):
        import pandas as pd
        table = pd.read_csv(self.csv, float_precision="round_trip")
        self.assertIn("threshold table written", self.printed)
        self.assertEqual(list(table.columns[:5]), ["kind", "weighting", "delta", "gamma", "d"])
        measured = table[table.kind == "measured"]
        self.assertEqual(len(measured), 2 * 2 * 3)
        self.assertEqual((table.kind == "extrapolated").sum(), 2 * 2)
        self.assertTrue(table[table.kind == "extrapolated"].d.isna().all())
        phase = rmtsweep.open_phase(self.path)
        edges, nulls = (rmtsweep.open_phase(self.path, f"detection/{rule}") for rule in ("edge", "null"))
        for _, row in measured.iterrows():
            line = phase.sel(weighting=row.weighting, delta=row.delta, gamma=row.gamma, d=int(row.d))
            edge = edges.sel(weighting=row.weighting, delta=row.delta, gamma=row.gamma, d=int(row.d))
            np.testing.assert_array_equal(row.edge_threshold_snr, edge.empirical_threshold_snr.item())
            np.testing.assert_array_equal(row.edge_threshold_snr_err, edge.empirical_threshold_snr_err.item())
            rule = row.default_rule
            np.testing.assert_array_equal(row[f"{rule}_threshold_snr"], line.empirical_threshold_snr.item())
            codes = dict(zip(edge.empirical_threshold_bracket.attrs["flag_values"],
                             line.empirical_threshold_bracket.attrs["flag_meanings"].split()))
            self.assertEqual(row.edge_bracket, codes[edge.empirical_threshold_bracket.item()])
            null = nulls.sel(weighting=row.weighting, delta=row.delta, gamma=row.gamma, d=int(row.d))
            np.testing.assert_array_equal(row.null_threshold_snr, null.empirical_threshold_snr.item())

    def test_json_and_stdout_hold_the_same_table(self):
        import pandas as pd
        json_path = os.path.join(self.tmp.name, "thresholds.json")
        run(ARGS.binary, "assemble", self.path, "--quiet", "--table", json_path)
        with open(json_path) as f:
            rows = json.load(f)
        from_csv = pd.read_csv(self.csv, float_precision="round_trip")
        self.assertEqual(list(rows[0]), list(from_csv.columns))
        from_json = pd.DataFrame(rows)
        pd.testing.assert_frame_equal(from_json.astype(float, errors="ignore"), from_csv.astype(float, errors="ignore"),
                                      check_dtype=False)
        piped = run(ARGS.binary, "assemble", self.path, "--table", "-")
        self.assertIn("/phase written", piped.stderr)
        pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(piped.stdout), float_precision="round_trip"), from_csv)

    def test_bad_table_and_output_names_are_refused_before_anything_is_written(self):
        before = os.path.getmtime(self.path)
        for args, option, allowed in ((["--table", "t.txt"], "--table", "ending in .csv or .json"),
                                      (["--output", "phase.csv"], "--output", "--table FILE.csv"),
                                      (["--table", self.csv], "--table", "--force")):
            with self.subTest(args=args):
                refused = run(ARGS.binary, "assemble", self.path, *args, check=False)
                self.assertEqual(refused.returncode, 2, refused.stderr)
                self.assertIn(f"invalid {option} '", refused.stderr)
                self.assertIn(allowed, refused.stderr)
        self.assertEqual(os.path.getmtime(self.path), before)

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--python", required=True)
    ARGS, rest = parser.parse_known_args()
    sys.path.insert(0, ARGS.python)
    import rmtsweep  # noqa: E402,F811
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
