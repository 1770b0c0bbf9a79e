"""The rmtsweep Python package and the files' dimension scales, on small sweeps run with the real binary:
xarray opens every group with named dimensions on 1 and 2 ranks and after --resume; open_phase,
read_points, read_config and the figures on a sweep file, a phase file (`assemble --output`) and a file kept
from before dimension scales (tests/data/sweep_noscales.h5); the failed points' messages, in a new file and in one
of schema_version 2 (tests/data/sweep_schema2.h5).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np
import xarray as xr

ARGS = None
rmtsweep = None  # imported from --python (the source tree's python/) in main

SIZES, K, TRIALS = [24, 16], 4, 2
DELTA = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0]  # 0.2:2:10, each as typed
SNR = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2]  # 0:1.2:7
WEIGHTINGS = ["mean", "optimal"]
SWEEP = ["--d", "24,16", "--delta", "0.2:2:10", "--gamma", "0.5", "--snr", "0:1.2:7", "--weighting", "mean,optimal",
         "--trials", str(TRIALS), "--k", str(K)]
POINTS = len(SIZES) * len(DELTA) * len(SNR) * len(WEIGHTINGS) * TRIALS
RULES = ("edge", "eigengap", "null", "finite_t_edge")
CELLS = ("weighting", "d", "delta", "gamma", "snr")
# Every dimension a file of this rmtsweep has (schema.hpp, phase_schema.hpp, line_store.cpp): anything else is phony.
DIMENSIONS = {"point", "k", "d", "delta", "gamma", "snr", "weighting", "trial", "eigenvalue_index", "count_of",
              "detection_margin_c", "snr_fine", "delta_fine", "gamma_fine", "density_index", "line", "pole_index"}


def rmtsweep_command(*args, ranks=None):
    command = [ARGS.binary, *args]
    if ranks is not None:
        command = [ARGS.mpiexec, "-n", str(ranks), "--oversubscribe", *command]
    return subprocess.run(command, capture_output=True, text=True)


def sweep(path, ranks, *extra):
    done = rmtsweep_command("run", "--output", path, *SWEEP, *extra, ranks=ranks)
    return done


def groups_of(path):
    """Every group of the file that holds datasets (what a user may pass as xarray's group)."""
    names = []
    with h5py.File(path, "r") as h5:
        h5.visititems(lambda name, obj: names.append(name) if isinstance(obj, h5py.Group) and any(
            isinstance(child, h5py.Dataset) for child in obj.values()) else None)
    return names


class DimensionScales(unittest.TestCase):
    """xarray (engine h5netcdf, no phony_dims) on files written on 1 and 2 ranks and after a resume."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = {}
        for ranks in (1, 2):
            path = os.path.join(cls.tmp.name, f"ranks{ranks}.h5")
            made = sweep(path, ranks)
            assert made.returncode == 0, made.stderr
            cls.files[ranks] = path
        # Two points failed, then the sweep resumed: the resumed run opens the file, it does not recreate it.
        resumed = os.path.join(cls.tmp.name, "resumed.h5")
        failed = sweep(resumed, 2, "--fail_points", "3,17")
        assert failed.returncode == 3, failed.stderr
        again = sweep(resumed, 2, "--resume")
        assert again.returncode == 0, again.stderr
        cls.files["resumed"] = resumed
        for path in cls.files.values():
            assembled = rmtsweep_command("assemble", path, "--quiet")
            assert assembled.returncode == 0, assembled.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_group_opens_with_named_dimensions_only(self):
        for label, path in self.files.items():
            for group in groups_of(path):
                with self.subTest(file=label, group=group):
                    with xr.open_dataset(path, group=group, engine="h5netcdf") as ds:
                        self.assertLessEqual(set(ds.dims), DIMENSIONS)

    def test_the_points_have_a_point_dimension_with_every_index(self):
        for label, path in self.files.items():
            with xr.open_dataset(path, group="points", engine="h5netcdf") as points:
                self.assertEqual(dict(points.sizes), {"point": POINTS, "k": K}, label)
                np.testing.assert_array_equal(points.point, np.arange(POINTS))
                self.assertEqual(points.top_eigenvalues.dims, ("point", "k"))
                self.assertEqual(points.weighting.values[0], "mean")  # str, not b'mean'
                self.assertEqual(points.seconds.attrs["units"], "s")

    def test_the_phase_cells_are_labelled_and_selectable_by_the_values_typed(self):
        for label, path in self.files.items():
            with xr.open_dataset(path, group="phase", engine="h5netcdf") as phase:
                self.assertEqual(phase.overlap_mean.dims, CELLS, label)
                np.testing.assert_array_equal(phase.delta, DELTA)
                np.testing.assert_array_equal(phase.snr, SNR)
                np.testing.assert_array_equal(phase.d, sorted(SIZES))
                self.assertEqual(list(phase.weighting.values), WEIGHTINGS)
                cell = phase.overlap_mean.sel(delta=0.6, weighting="mean", snr=1.2, gamma=0.5, d=24)
                self.assertTrue(np.isfinite(cell.item()))
                self.assertEqual(phase.delta.attrs["long_name"], "delta = d/V")
                self.assertNotIn("units", phase.delta.attrs)  # dimensionless: CF asks units of dimensional ones
                self.assertEqual(phase.points.sel(count_of="done").item(), POINTS)

    def test_the_files_of_one_and_two_ranks_and_the_resumed_one_carry_the_same_dimensions(self):
        def layout(path):
            out = {}
            for group in groups_of(path):
                with xr.open_dataset(path, group=group, engine="h5netcdf") as ds:
                    out[group] = ({name: var.dims for name, var in ds.variables.items()},
                                  {name: ds[name].values.tolist() for name in ds.indexes})
            return out
        one = layout(self.files[1])
        self.assertEqual(layout(self.files[2]), one)
        self.assertEqual(layout(self.files["resumed"]), one)

    def test_the_spectra_rows_are_labelled_by_their_points(self):
        path = self.files[2]
        with xr.open_dataset(path, group="spectra/d16", engine="h5netcdf") as spectra:
            self.assertEqual(spectra.eigenvalues.dims, ("point", "eigenvalue_index"))
            per_d = POINTS // len(SIZES)
            np.testing.assert_array_equal(spectra.point, per_d + np.arange(per_d))  # d = 16 is the second size


class Package(unittest.TestCase):
    """open_phase, read_points, read_config and the figures."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "sweep.h5")
        made = sweep(cls.path, 2)
        assert made.returncode == 0, made.stderr
        cls.unassembled = os.path.join(cls.tmp.name, "unassembled.h5")
        shutil.copyfile(cls.path, cls.unassembled)
        assembled = rmtsweep_command("assemble", cls.path, "--quiet")
        assert assembled.returncode == 0, assembled.stderr
        cls.phase_file = os.path.join(cls.tmp.name, "phase.h5")
        beside = rmtsweep_command("assemble", cls.path, "--quiet", "--output", cls.phase_file)
        assert beside.returncode == 0, beside.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_open_phase_gives_the_tables_with_their_coordinates(self):
        phase = rmtsweep.open_phase(self.path)
        self.assertEqual(phase.detected_fraction.dims, CELLS)
        self.assertEqual(phase.empirical_threshold_snr.dims, CELLS[:-1])
        self.assertEqual(phase.extrapolated_threshold_snr.dims, ("weighting", "delta", "gamma"))
        curve = phase.overlap_mean.sel(delta=0.6, weighting="mean").squeeze().to_pandas()
        self.assertEqual(curve.shape, (len(SIZES), len(SNR)))

    def test_open_phase_of_a_subgroup_borrows_the_grid_axes_of_phase(self):
        theory = rmtsweep.open_phase(self.path, "theory")
        self.assertEqual(theory.overlap.dims, ("weighting", "delta", "gamma", "snr_fine"))
        np.testing.assert_array_equal(theory.delta, DELTA)
        self.assertGreater(theory.overlap.sel(weighting="optimal", delta=0.2, gamma=0.5).max().item(), 0.0)
        edge = rmtsweep.open_phase(self.path, "detection/null")
        self.assertEqual(list(edge.weighting.values), WEIGHTINGS)
        phase = rmtsweep.open_phase(self.path)
        for group in (theory, edge):  # read with h5py (files.grid_axes): equal to /phase's as xarray reads them
            for axis in ("weighting", "d", "delta", "gamma", "snr"):
                if axis in group.dims:
                    xr.testing.assert_identical(group[axis], phase[axis])
                    self.assertEqual(group[axis].attrs["long_name"], phase[axis].attrs["long_name"])
        with self.assertRaises(rmtsweep.InvalidOption):
            rmtsweep.open_phase(self.path, "nowhere")

    def test_a_phase_file_opens_as_the_sweep_files_phase(self):
        xr.testing.assert_identical(rmtsweep.open_phase(self.phase_file), rmtsweep.open_phase(self.path))
        self.assertEqual(rmtsweep.read_config(self.phase_file), rmtsweep.read_config(self.path))
        with self.assertRaisesRegex(rmtsweep.InvalidFile, "phase file of .*sweep.h5"):
            rmtsweep.read_points(self.phase_file)

    def test_open_phase_warns_when_phase_was_built_from_other_points_than_the_file_holds(self):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error", rmtsweep.StalePhaseWarning)  # the fresh /phase warns nothing
            self.assertNotIn("rmtsweep_stale", rmtsweep.open_phase(self.path).attrs)
        stale = os.path.join(self.tmp.name, "stale.h5")
        shutil.copyfile(self.path, stale)
        with h5py.File(stale, "r+") as f:
            f["points/status"][5] = 0  # point 5 pending again, as a resumed run would leave it for a moment
        with self.assertWarnsRegex(rmtsweep.StalePhaseWarning, r"/phase is STALE: it was built from .* "
                                                               r"`rmtsweep assemble .*stale.h5` builds it again"):
            phase = rmtsweep.open_phase(stale)
        self.assertIn("STALE", phase.attrs["rmtsweep_stale"])
        with warnings.catch_warnings(record=True) as caught:  # a figure of it: said once, not once a group read
            warnings.simplefilter("always")
            rmtsweep.figures.overlap_vs_snr(stale, delta=0.2)
        self.assertEqual(sum(issubclass(w.category, rmtsweep.StalePhaseWarning) for w in caught), 1)

    def test_read_points_gives_one_row_per_point_with_texts_decoded(self):
        points = rmtsweep.read_points(self.path)
        self.assertEqual(len(points), POINTS)
        self.assertEqual(points.index.name, "point")
        self.assertEqual(points.weighting.iloc[0], "mean")
        self.assertEqual(list(points.weighting.cat.categories), WEIGHTINGS)
        self.assertEqual(list(points.columns[:10]), ["d", "delta", "gamma", "snr", "weighting", "trial", "status",
                                                     "top_eigenvalue", "overlap", "ridge_accuracy"])
        # top_eigenvalues[:, 0] is top_eigenvalue, overlaps[:, 0] overlap: not repeated.
        self.assertEqual([c for c in points.columns if c.startswith("top_eigenvalues_")],
                         [f"top_eigenvalues_{j}" for j in range(1, K)])
        self.assertNotIn("overlaps_0", points.columns)
        self.assertTrue((points.top_eigenvalue >= points.top_eigenvalues_1).all())
        self.assertGreater((points.snr == 0.6).sum(), 0)  # the value typed, not 0.6000000000000001
        self.assertEqual(list(points.status.cat.categories), ["unused", "pending", "done", "failed"])
        self.assertEqual(set(points.status), {"done"})
        lists = rmtsweep.read_points(self.path, top_k="list")
        self.assertEqual(len(lists.top_eigenvalues.iloc[0]), K)
        self.assertEqual(lists.top_eigenvalues.iloc[0][0], lists.top_eigenvalue.iloc[0])
        some = rmtsweep.read_points(self.path, columns=["overlap", "snr", "top_eigenvalues_2", "weighting"])
        self.assertEqual(list(some.columns), ["overlap", "snr", "top_eigenvalues_2", "weighting"])
        np.testing.assert_array_equal(some.top_eigenvalues_2, points.top_eigenvalues_2)
        with self.assertRaisesRegex(rmtsweep.InvalidOption, "invalid columns 'top_eigenvalues_0'"):
            rmtsweep.read_points(self.path, columns=["top_eigenvalues_0"])
        with self.assertRaises(rmtsweep.InvalidOption):
            rmtsweep.read_points(self.path, top_k="columns")

    def test_read_config_gives_the_stored_config_typed(self):
        config = rmtsweep.read_config(self.path)
        self.assertEqual(config["d"], SIZES)
        self.assertEqual(config["delta"], DELTA)
        self.assertEqual(config["snr"], SNR)
        self.assertEqual(config["weighting"], WEIGHTINGS)
        self.assertEqual(config["trials"], TRIALS)
        self.assertEqual(rmtsweep.parse_config("weighting = mean,custom:1,0,0,optimal\n")["weighting"],
                         ["mean", "custom:1,0,0", "optimal"])

    def test_a_file_not_yet_assembled_is_refused_with_what_to_do(self):
        with self.assertRaisesRegex(rmtsweep.InvalidFile, "rmtsweep assemble"):
            rmtsweep.open_phase(self.unassembled)
        with self.assertRaisesRegex(rmtsweep.InvalidFile, "rmtsweep assemble"):
            rmtsweep.figures.overlap_vs_snr(self.unassembled)
        with self.assertRaises(rmtsweep.InvalidOption):
            rmtsweep.open_phase(os.path.join(self.tmp.name, "missing.h5"))

    def test_a_figure_holds_every_panel_of_its_data_or_selection(self):
        fig = rmtsweep.figures.overlap_vs_snr(self.path)  # one panel per delta, at the largest d
        self.assertEqual([ax.get_title() for ax in fig.axes if ax.has_data()], [f"δ = {v:g}" for v in DELTA])
        chosen = rmtsweep.figures.overlap_vs_snr(rmtsweep.open_phase(self.path).sel(delta=[0.2, 2.0], d=16))
        self.assertEqual([ax.get_title() for ax in chosen.axes if ax.has_data()], ["δ = 0.2", "δ = 2"])

    def test_draw_all_writes_every_page_of_a_real_sweep(self):
        # In SVG: tests/python/plot's DrawAll draws every page as PNG and as PDF (the files' signatures checked),
        # so each format is drawn once by the tests rather than every format here again.
        out = os.path.join(self.tmp.name, "figures_svg")
        paths = rmtsweep.figures.draw_all(self.path, out, dpi=30, format="svg")
        names, _, _ = rmtsweep.figures.figure_names(self.path)
        self.assertEqual([os.path.basename(p) for p in paths], [f"{name}.svg" for name in names])
        self.assertIn("overlap_vs_snr.svg", os.listdir(out))
        self.assertIn("spectrum.svg", os.listdir(out))
        self.assertTrue(all(open(p, "rb").read(256).lstrip().startswith(b"<?xml") for p in paths), paths)

    def test_the_figures_of_a_phase_file_are_all_but_the_spectrum(self):
        names, index, notes = rmtsweep.figures.figure_names(self.phase_file)
        self.assertIsNone(index)
        self.assertIn("threshold_vs_d", names)
        self.assertNotIn("spectrum", names)
        self.assertIn("a phase file holds no points", notes[0])


class FailureMessages(unittest.TestCase):
    """/points/error: the failed points' messages, a variable-length string (schema_version 3), and the fixed-length
    one of a file of schema_version 2 (tests/data/sweep_schema2.h5)."""

    FAULT = "fault injected by the test-only fail_points key"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "failed.h5")
        made = sweep(cls.path, 2, "--fail-points", "3")
        assert made.returncode == 3, made.stderr  # point 3 failed, and with it its line

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_read_points_gives_each_failed_points_whole_message_and_empty_texts_elsewhere(self):
        points = rmtsweep.read_points(self.path)
        failed = points[points.status == "failed"]
        self.assertIn(3, failed.index)
        self.assertTrue(failed.error.str.startswith(self.FAULT).all())
        self.assertTrue(failed.error.str.endswith("as real ones (out of memory, a refused value) are").all())
        self.assertTrue((points[points.status != "failed"].error == "").all())

    def test_xarray_and_h5py_read_the_messages_as_str(self):
        with xr.open_dataset(self.path, group="points", engine="h5netcdf") as points:
            self.assertTrue(points.error.values[3].startswith(self.FAULT))
            self.assertEqual(points.error.values[0], "")
        with h5py.File(self.path, "r") as f:
            self.assertTrue(f["points/error"].asstr()[3].startswith(self.FAULT))

    def test_a_file_of_schema_version_2_reads_its_fixed_width_messages(self):
        points = rmtsweep.read_points(os.path.join(ARGS.source, "tests", "data", "sweep_schema2.h5"))
        self.assertEqual(list(points.index[points.status == "failed"]), [1, 3])
        self.assertTrue(points.error[1].startswith(self.FAULT))
        self.assertEqual(points.error[0], "")


class FileFromBeforeDimensionScales(unittest.TestCase):
    """tests/data/sweep_noscales.h5 (tests/data/README.md): written and assembled before dimension scales."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "old.h5")
        shutil.copyfile(os.path.join(ARGS.source, "tests", "data", "sweep_noscales.h5"), self.path)

    def tearDown(self):
        self.tmp.cleanup()

    def test_its_points_and_config_read_and_its_phase_asks_to_be_assembled_again(self):
        points = rmtsweep.read_points(self.path)
        self.assertEqual(len(points), 36)
        self.assertEqual(rmtsweep.read_config(self.path)["delta"], [0.4, 0.6000000000000001, 0.8])
        with self.assertRaisesRegex(rmtsweep.InvalidFile, "before dimension scales.*rmtsweep assemble"):
            rmtsweep.open_phase(self.path)

    def test_it_plots_and_opens_in_xarray_once_assembled_again(self):
        plot = [sys.executable, os.path.join(ARGS.python, "rmtsweep_plot.py"), self.path,
                "--output", os.path.join(self.tmp.name, "figures"), "--dpi", "30"]
        refused = subprocess.run(plot, capture_output=True, text=True)
        self.assertEqual(refused.returncode, 1, refused.stderr)
        self.assertIn("before dimension scales", refused.stderr)
        self.assertIn("rmtsweep assemble", refused.stderr)
        self.assertEqual(rmtsweep_command("assemble", self.path, "--quiet").returncode, 0)
        plotted = subprocess.run(plot, capture_output=True, text=True)
        self.assertEqual(plotted.returncode, 0, plotted.stderr)
        phase = rmtsweep.open_phase(self.path)
        self.assertEqual(phase.overlap_mean.sel(delta=0.6000000000000001, weighting="optimal").dims,
                         ("d", "gamma", "snr"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--source", required=True, help="the source tree (tests/data)")
    parser.add_argument("--python", required=True, help="the directory holding the rmtsweep package")
    ARGS, rest = parser.parse_known_args()
    sys.path.insert(0, ARGS.python)
    import rmtsweep  # noqa: E402,F811
    import rmtsweep.figures  # noqa: E402,F401
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
