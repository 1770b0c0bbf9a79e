"""The sweep file's schema, as users' h5py scripts see it (the names are a contract).

Runs a small sweep with the real binary on 2 ranks, then checks every contracted name, its
shape, its type, its `description` attribute and the root attributes, plus a few values that
must hold by construction (grid order, status, theory columns finite, measurements in range).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

ARGS = None

# Columns every file of this schema has, whatever the table says (users' scripts rely on them).
CONTRACT_COLUMNS = ("delta gamma snr weighting trial d V N T alpha kappa theta theory_bulk_edge_left "
                    "theory_bulk_edge_right theory_pop_threshold_snr theory_sample_threshold_snr "
                    "theory_pop_outlier theory_top_eigenvalue theory_overlap theory_detectable top_eigenvalue "
                    "overlap ridge_accuracy seconds status error top_eigenvalues overlaps run weights_deviation").split()
DTYPE_KIND = {"float64": "f", "int64": "i", "string": "S"}
ROOT_ATTRIBUTES = ("schema_version rmtsweep_version draws_version draws_library created config config_json command_line "
                   "mpi_ranks ranks_per_point eigensolver mpi_library_version hdf5_version blas_version "
                   "scalapack_library Conventions history run_table runs").split()
SIZES, K = [64, 40], 5  # the d axis, in config order (not ascending: the grid keeps it)
DELTA, GAMMA, SNR = [0.5, 1.0], [0.5], [0.0, 2.0, 4.0]
WEIGHTINGS, TRIALS = ["mean", "optimal", "causal:0.5"], 2
PER_D = len(DELTA) * len(GAMMA) * len(SNR) * len(WEIGHTINGS) * TRIALS
POINTS = len(SIZES) * PER_D


class SweepFileSchema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "schema.h5")
        command = [ARGS.mpiexec, "-n", "2", "--oversubscribe", ARGS.binary, "run", "--output", cls.path,
                   "--d", ",".join(map(str, SIZES)), "--k", str(K), "--delta", "0.5,1", "--gamma", "0.5", "--snr", "0:4:3",
                   "--weighting", ",".join(WEIGHTINGS), "--trials", str(TRIALS)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError("sweep failed: " + done.stderr)
        assembled = subprocess.run([ARGS.binary, "assemble", cls.path, "--quiet"], capture_output=True, text=True)
        if assembled.returncode != 0:
            raise RuntimeError("assemble failed: " + assembled.stderr)
        cls.file = h5py.File(cls.path, "r")
        schema = subprocess.run([ARGS.binary, "schema", "--json"], capture_output=True, text=True, check=True)
        cls.schema = json.loads(schema.stdout)

    @classmethod
    def tearDownClass(cls):
        cls.file.close()
        cls.tmp.cleanup()

    def test_root_attributes_are_all_present(self):
        attrs = self.file.attrs
        for name in ROOT_ATTRIBUTES:
            self.assertIn(name, attrs, name)
        self.assertEqual(attrs["schema_version"], 4)
        self.assertNotIn("messages_run", attrs)  # no point failed: no close wrote into /points/error
        self.assertEqual(attrs["mpi_ranks"], 2)
        self.assertEqual(attrs["ranks_per_point"], 1)
        self.assertEqual(attrs["eigensolver"], "auto")
        config = attrs["config"]
        self.assertIn("d = 64,40\n", config)
        self.assertIn("weighting = mean,optimal,causal:0.5\n", config)
        self.assertIn("--output", attrs["command_line"])
        self.assertIn("Open MPI", attrs["mpi_library_version"])

    def test_grid_holds_the_axes_in_order(self):
        grid = self.file["grid"]
        np.testing.assert_array_equal(grid["d"][:], SIZES)
        self.assertEqual(grid["d"].dtype.kind, "i")
        np.testing.assert_array_equal(grid["delta"][:], DELTA)
        np.testing.assert_array_equal(grid["gamma"][:], GAMMA)
        np.testing.assert_array_equal(grid["snr"][:], SNR)
        self.assertEqual([w.decode() for w in grid["weighting"][:]], WEIGHTINGS)
        np.testing.assert_array_equal(grid["trial"][:], np.arange(TRIALS))

    def test_the_schema_table_holds_every_contracted_column(self):
        names = [c["name"] for c in self.schema["points"]]
        for name in CONTRACT_COLUMNS:
            self.assertIn(name, names)
        self.assertEqual(self.schema["schema_version"], self.file.attrs["schema_version"])

    def test_every_column_of_the_schema_table_reaches_the_file_as_described(self):
        points = self.file["points"]
        scales = [s["name"] for s in self.schema["points_dimensions"]]
        self.assertEqual(sorted(points), sorted([c["name"] for c in self.schema["points"]] + scales))
        for column in self.schema["points"]:
            name = column["name"]
            self.assertIn(name, points, name)
            shape = (POINTS, K) if column["shape"] == "top_k" else (POINTS,)
            self.assertEqual(points[name].shape, shape, name)
            variable = column["type"] == "string" and column["text_width"] is None
            self.assertEqual(points[name].dtype.kind, "O" if variable else DTYPE_KIND[column["type"]], name)
            self.assertEqual(points[name].attrs["description"], column["description"], name)
            if variable:
                info = h5py.check_string_dtype(points[name].dtype)
                self.assertEqual((info.encoding, info.length), ("utf-8", None), name)
            elif column["type"] == "string" and column["text_width"] > 0:
                self.assertEqual(points[name].dtype.itemsize, column["text_width"], name)

    def test_every_point_column_exists_with_one_value_per_point_and_a_description(self):
        points = self.file["points"]
        for name in CONTRACT_COLUMNS:
            self.assertIn(name, points, name)
            self.assertEqual(points[name].shape[0], POINTS, name)
            self.assertTrue(len(points[name].attrs["description"]) > 0, name)
        self.assertEqual(points["top_eigenvalues"].shape, (POINTS, K))
        self.assertEqual(points["overlaps"].shape, (POINTS, K))
        for n, d in enumerate(SIZES):  # one group of spectra per size: its points' rows, d eigenvalues each
            group = self.file[f"spectra/d{d}"]
            self.assertEqual(group["eigenvalues"].shape, (PER_D, d))
            np.testing.assert_array_equal(group["point"][:], n * PER_D + np.arange(PER_D))
            self.assertTrue(len(group["eigenvalues"].attrs["description"]) > 0)
            self.assertTrue(len(group["point"].attrs["description"]) > 0)
        self.assertNotIn("spectra/eigenvalues", self.file)
        for name in ("trial", "d", "d_index", "V", "N", "T", "status", "theory_detectable", "run"):
            self.assertEqual(points[name].dtype.kind, "i", name)
        self.assertEqual(points["weighting"].dtype.kind, "S")
        # A failed point's message: a variable-length UTF-8 string (schema_version 3), empty for these points.
        info = h5py.check_string_dtype(points["error"].dtype)
        self.assertEqual((info.encoding, info.length), ("utf-8", None))

    def test_phase_has_the_d_axis_ascending_after_the_weighting(self):
        phase = self.file["phase"]
        W, Nd, D, G, S = len(WEIGHTINGS), len(SIZES), len(DELTA), len(GAMMA), len(SNR)
        np.testing.assert_array_equal(phase["d"][:], sorted(SIZES))
        for name in ("trials_done", "overlap_mean", "detected_fraction", "detection_threshold", "theory_overlap",
                     "detection/eigengap/detected_fraction"):
            self.assertEqual(phase[name].shape, (W, Nd, D, G, S), name)
        for name in ("empirical_threshold_snr", "empirical_threshold_snr_err", "empirical_threshold_bracket",
                     "theory_sample_threshold_snr", "detection/null/false_detection_rate",
                     "detection/edge/empirical_threshold_snr_err"):
            self.assertEqual(phase[name].shape, (W, Nd, D, G), name)
        for name in ("extrapolated_threshold_snr", "extrapolated_threshold_snr_err", "extrapolation_a",
                     "extrapolation_b", "extrapolation_terms", "extrapolation_chi2_per_dof", "extrapolation_sizes",
                     "detection/eigengap/extrapolated_threshold_snr"):
            self.assertEqual(phase[name].shape, (W, D, G), name)
            self.assertTrue(len(phase[name].attrs["description"]) > 0, name)
        self.assertEqual(phase["extrapolated_overlap"].shape, (W, D, G, S))
        self.assertEqual(phase["extrapolated_overlap_err"].shape, (W, D, G, S))
        # Two sizes are fewer than a fit needs: no extrapolation, and the file says so.
        np.testing.assert_array_equal(phase["extrapolation_terms"][:], 0)
        self.assertTrue(np.all(np.isnan(phase["extrapolated_threshold_snr"][:])))
        # Every trial of a cell is counted where its size puts it: d = 40 is axis position 0.
        np.testing.assert_array_equal(phase["trials_done"][:], TRIALS)
        p = self.file["points"]
        small = (p["d"][:] == 40) & (p["weighting"][:] == b"mean") & (p["snr"][:] == SNR[-1]) & (p["delta"][:] == 0.5)
        self.assertAlmostEqual(phase["overlap_mean"][0, 0, 0, 0, -1], p["overlap"][small].mean(), places=12)

    def test_points_follow_the_documented_order_with_trial_fastest(self):
        p = self.file["points"]
        index = np.arange(POINTS)
        np.testing.assert_array_equal(p["trial"][:], index % TRIALS)
        w = (index // TRIALS) % len(WEIGHTINGS)
        self.assertEqual([x.decode() for x in p["weighting"][:]], [WEIGHTINGS[i] for i in w])
        s = (index // (TRIALS * len(WEIGHTINGS))) % len(SNR)
        np.testing.assert_array_equal(p["snr"][:], np.array(SNR)[s])
        dl = (index // (TRIALS * len(WEIGHTINGS) * len(SNR) * len(GAMMA))) % len(DELTA)
        np.testing.assert_array_equal(p["delta"][:], np.array(DELTA)[dl])
        n = index // PER_D  # d slowest: the points of one size are contiguous
        np.testing.assert_array_equal(p["d_index"][:], n)
        np.testing.assert_array_equal(p["d"][:], np.array(SIZES)[n])
        np.testing.assert_array_equal(p["V"][:], 2 * np.round(p["d"][:] / (2 * p["delta"][:])))
        np.testing.assert_array_equal(p["N"][:], np.round(p["d"][:] / p["gamma"][:]))

    def test_every_point_is_done_with_consistent_measurements(self):
        p = self.file["points"]
        np.testing.assert_array_equal(p["status"][:], np.ones(POINTS))
        np.testing.assert_array_equal(p["run"][:], np.zeros(POINTS))
        self.assertTrue(all(e == b"" for e in p["error"][:]))
        top = p["top_eigenvalues"][:]
        np.testing.assert_array_equal(p["top_eigenvalue"][:], top[:, 0])
        self.assertTrue(np.all(np.diff(top, axis=1) <= 0), "top eigenvalues descending")
        np.testing.assert_array_equal(p["overlap"][:], p["overlaps"][:, 0])
        self.assertTrue(np.all((p["overlap"][:] >= 0) & (p["overlap"][:] <= 1)))
        self.assertTrue(np.all((p["ridge_accuracy"][:] >= 0) & (p["ridge_accuracy"][:] <= 1)))
        for d in SIZES:
            spectra = self.file[f"spectra/d{d}/eigenvalues"][:]
            rows = self.file[f"spectra/d{d}/point"][:]
            # The largest of the d eigenvalues is the top eigenvalue (same matrix; rounding only).
            np.testing.assert_allclose(spectra[:, -1], top[rows, 0], rtol=1e-10)
            self.assertTrue(np.all(np.diff(spectra, axis=1) >= 0), "ascending")
        for name in ("alpha", "kappa", "theta", "theory_bulk_edge_right", "theory_top_eigenvalue", "seconds"):
            self.assertTrue(np.all(np.isfinite(p[name][:])), name)
        causal = np.array([x == b"causal:0.5" for x in p["weighting"][:]])
        self.assertTrue(np.all(np.isfinite(p["weights_deviation"][causal])))
        self.assertTrue(np.all(np.isnan(p["weights_deviation"][~causal])))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mpiexec", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
