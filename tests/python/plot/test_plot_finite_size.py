"""rmtsweep_plot.py on sweep-like files synthesised with h5py (issue 8: d as a sweep axis).

No sweep is run: the files hold exactly the /phase contract the script reads, in the layout with a
d axis (weighting x d x delta x gamma x snr) and in the layout before it (no /phase/d, 4-D cells),
so the figures, the finite-size ones and the overwrite refusal are checked in a second or two.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

ARGS = None
WEIGHTINGS = ["mean", "optimal"]
DELTA, GAMMA = [0.5, 1.0], [0.25, 0.5]
SNR = np.linspace(0.0, 4.0, 9)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CELL_NAMES = ("overlap_mean overlap_std top_eigenvalue_mean top_eigenvalue_std ridge_accuracy_mean "
              "ridge_accuracy_std detected_fraction detection_threshold theory_overlap theory_top_eigenvalue").split()
LINE_NAMES = ("empirical_threshold_snr theory_pop_threshold_snr theory_sample_threshold_snr theory_bulk_edge_left "
              "theory_bulk_edge_right").split()


def write_sweep(path, sizes, with_d_axis=True, extrapolate=True, spectra=False):
    """A sweep-like file: /phase with (with_d_axis) or without the d axis, a few /points."""
    W, D, G, S, Z = len(WEIGHTINGS), len(DELTA), len(GAMMA), SNR.size, len(sizes)
    rng = np.random.default_rng(5)
    x = np.asarray(sizes, dtype=float) ** (-1.0 / 3.0)
    with h5py.File(path, "w") as h5:
        d_text = ",".join(str(v) for v in sizes)
        h5.attrs["config"] = f"d = {d_text}\nT = 10\ncorrelation = prefix:3\ntable = iid\n"
        p = h5.create_group("phase")
        p.create_dataset("weighting", data=np.array(WEIGHTINGS, dtype="S"))
        if with_d_axis:
            p.create_dataset("d", data=np.asarray(sizes, dtype=np.int64))
        else:
            p.attrs["d"] = np.int64(sizes[0])
        p.create_dataset("delta", data=np.asarray(DELTA))
        p.create_dataset("gamma", data=np.asarray(GAMMA))
        p.create_dataset("snr", data=SNR)
        cell_shape = (W, Z, D, G, S) if with_d_axis else (W, D, G, S)
        line_shape = cell_shape[:-1]
        # overlap: a smooth step in snr around a threshold that falls with d
        thr = 1.5 + 0.8 * x[None, :, None, None] + 0.2 * np.arange(W)[:, None, None, None]
        thr = np.broadcast_to(thr, (W, Z, D, G))
        step = 1.0 / (1.0 + np.exp(-(SNR - thr[..., None]) * 3.0))
        cells = {name: rng.uniform(0.0, 1.0, (W, Z, D, G, S)) for name in CELL_NAMES}
        cells["overlap_mean"], cells["theory_overlap"] = step, np.clip(step - 0.05, 0.0, 1.0)
        cells["overlap_std"] = np.full_like(step, 0.05)
        lines = {name: rng.uniform(0.5, 3.0, (W, Z, D, G)) for name in LINE_NAMES}
        lines["empirical_threshold_snr"] = thr + rng.normal(0.0, 0.02, thr.shape)
        errors = np.full(thr.shape, 0.02)
        # honest gaps: a line without a threshold at one size, one without an error at one size, one
        # line (optimal, delta 1, gamma 0.5) with a threshold at a single size only
        lines["empirical_threshold_snr"][0, 0, 0, 0] = np.nan
        errors[0, -1, 1, 1] = np.nan
        lines["empirical_threshold_snr"][1, 1:, 1, 1] = np.nan
        lines["theory_sample_threshold_snr"] = np.broadcast_to(1.5 + 0.2 * np.arange(W)[:, None, None, None],
                                                               (W, Z, D, G)).copy()
        trials = np.full((W, Z, D, G, S), 8, dtype=np.int64)
        if not with_d_axis:
            cells = {name: values[:, 0] for name, values in cells.items()}
            lines = {name: values[:, 0] for name, values in lines.items()}
            trials = trials[:, 0]
        for name, values in cells.items():
            p.create_dataset(name, data=values)
        for name, values in lines.items():
            p.create_dataset(name, data=values)
        p.create_dataset("trials_done", data=trials)
        p.create_dataset("theory_detectable", data=(cells["theory_overlap"] > 0).astype(np.int64))
        p.create_dataset("empirical_threshold_bracket", data=np.zeros(line_shape, dtype=np.int64))
        if with_d_axis:
            p.create_dataset("empirical_threshold_snr_err", data=errors)
        if with_d_axis and extrapolate:
            # the fit the C++ side would store: 1-term for 3 or 4 sizes; one line left without a fit
            terms = np.full((W, D, G), 1 if Z < 5 else 2, dtype=np.int64)
            if Z < 3:
                terms[...] = 0
            terms[1, 1, 1] = 0
            fitted = terms > 0
            nan = np.full((W, D, G), np.nan)
            p.create_dataset("extrapolated_threshold_snr", data=np.where(fitted, thr[:, 0] - 0.8 * x[0], np.nan))
            fit_errors = np.where(fitted, 0.03, np.nan)
            fit_errors[0, 1, 0] = np.nan  # a fit whose error could not be given
            p.create_dataset("extrapolated_threshold_snr_err", data=fit_errors)
            p.create_dataset("extrapolation_a", data=np.where(fitted, 0.8, np.nan))
            p.create_dataset("extrapolation_b", data=np.where(terms == 2, 0.0, nan))
            p.create_dataset("extrapolation_terms", data=terms)
            p.create_dataset("extrapolation_chi2_per_dof", data=np.where(fitted, 0.7, np.nan))
            p.create_dataset("extrapolation_sizes", data=np.where(fitted, Z, 0).astype(np.int64))
        rule = p.create_group("detection/edge")
        rule.create_dataset("empirical_threshold_snr", data=lines["empirical_threshold_snr"])
        p.attrs["figure_detection"] = "edge"
        th = p.create_group("theory")
        K = 50
        th.create_dataset("snr", data=np.linspace(0.0, 4.0, K))
        th.create_dataset("overlap", data=rng.uniform(0.0, 1.0, (W, D, G, K)))
        th.create_dataset("top_eigenvalue", data=rng.uniform(1.0, 3.0, (W, D, G, K)))
        th.create_dataset("delta", data=np.linspace(0.5, 1.0, K))
        th.create_dataset("pop_threshold_snr_vs_delta", data=rng.uniform(0.5, 2.0, (W, G, K)))
        th.create_dataset("sample_threshold_snr_vs_delta", data=rng.uniform(1.0, 3.0, (W, G, K)))
        th.create_dataset("gamma", data=np.linspace(0.25, 0.5, K))
        th.create_dataset("pop_threshold_snr_vs_gamma", data=rng.uniform(0.5, 2.0, (W, D, K)))
        th.create_dataset("sample_threshold_snr_vs_gamma", data=rng.uniform(1.0, 3.0, (W, D, K)))
        th.create_dataset("density_x", data=np.broadcast_to(np.linspace(0.0, 3.0, K), (W, D, G, K)))
        th.create_dataset("density", data=np.full((W, D, G, K), 1.0 / 3.0))
        write_points(h5, sizes, spectra)


def write_points(h5, sizes, spectra):
    """One done point per (weighting, d) at delta[0], gamma[0], snr 4; spectra padded with NaN to the largest d."""
    rows = [(w, size) for w in range(len(WEIGHTINGS)) for size in sizes]
    pts = h5.create_group("points")
    pts.create_dataset("status", data=np.ones(len(rows), dtype=np.int64))
    pts.create_dataset("weighting", data=np.array([WEIGHTINGS[w] for w, _ in rows], dtype="S"))
    pts.create_dataset("d", data=np.array([size for _, size in rows], dtype=np.int64))
    for name, value in (("delta", DELTA[0]), ("gamma", GAMMA[0]), ("snr", 4.0)):
        pts.create_dataset(name, data=np.full(len(rows), value))
    pts.create_dataset("trial", data=np.zeros(len(rows), dtype=np.int64))
    pts.create_dataset("theory_detectable", data=np.ones(len(rows), dtype=np.int64))
    pts.create_dataset("theory_bulk_edge_right", data=np.full(len(rows), 2.5))
    pts.create_dataset("theory_top_eigenvalue", data=np.full(len(rows), 3.2))
    if spectra:
        values = np.full((len(rows), max(sizes)), np.nan)
        rng = np.random.default_rng(1)
        for r, (_, size) in enumerate(rows):
            values[r, :size] = np.sort(rng.uniform(0.0, 2.5, size))
        h5.create_dataset("spectra/eigenvalues", data=values)


def run_plot(path, out, *extra):
    return subprocess.run([sys.executable, ARGS.script, path, "--out", out, "--dpi", "40", *extra],
                          capture_output=True, text=True, timeout=300)


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == PNG_SIGNATURE and os.path.getsize(path) > 1000


class FiniteSizeFigures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "fss.h5")
        write_sweep(cls.path, [500, 1000, 2000], spectra=True)
        cls.out = os.path.join(cls.tmp.name, "figures")
        cls.result = run_plot(cls.path, cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_a_sweep_over_three_sizes_plots_without_error(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)

    def test_draws_the_threshold_against_d_and_the_overlap_by_d(self):
        for name in ("threshold_vs_d.png", "overlap_vs_snr_by_d.png"):
            self.assertTrue(is_png(os.path.join(self.out, name)), name)

    def test_still_draws_every_figure_of_one_size_at_the_largest_d(self):
        names = [f"phase_{axis}_{w}.png" for axis in ("delta", "gamma") for w in WEIGHTINGS]
        names += ["overlap_vs_snr.png", "top_eigenvalue_vs_snr.png", "ridge_accuracy_vs_snr.png", "spectrum.png"]
        for name in names:
            self.assertTrue(is_png(os.path.join(self.out, name)), name)

    def test_refuses_to_overwrite_a_finite_size_figure_without_force(self):
        out = os.path.join(self.tmp.name, "again")
        os.makedirs(out)
        with open(os.path.join(out, "threshold_vs_d.png"), "w") as f:
            f.write("an earlier figure")
        result = run_plot(self.path, out)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("threshold_vs_d.png", result.stderr)
        with open(os.path.join(out, "threshold_vs_d.png")) as f:
            self.assertEqual(f.read(), "an earlier figure")
        self.assertTrue(run_plot(self.path, out, "--force").returncode == 0)
        self.assertTrue(is_png(os.path.join(out, "threshold_vs_d.png")))


class OtherLayouts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def plot(self, sizes, **layout):
        path = os.path.join(self.tmp.name, "sweep.h5")
        write_sweep(path, sizes, **layout)
        out = os.path.join(self.tmp.name, "figures")
        result = run_plot(path, out)
        self.assertEqual(result.returncode, 0, result.stderr)
        return out, result

    def test_a_file_without_a_d_axis_still_plots_and_gets_no_finite_size_figure(self):
        out, _ = self.plot([400], with_d_axis=False, spectra=True)
        for name in ("phase_delta_mean.png", "overlap_vs_snr.png", "spectrum.png"):
            self.assertTrue(is_png(os.path.join(out, name)), name)
        for name in ("threshold_vs_d.png", "overlap_vs_snr_by_d.png"):
            self.assertFalse(os.path.exists(os.path.join(out, name)), name)

    def test_a_d_axis_of_one_size_gets_no_finite_size_figure(self):
        out, _ = self.plot([1000])
        self.assertTrue(is_png(os.path.join(out, "overlap_vs_snr.png")))
        self.assertFalse(os.path.exists(os.path.join(out, "threshold_vs_d.png")))
        self.assertFalse(os.path.exists(os.path.join(out, "overlap_vs_snr_by_d.png")))

    def test_two_sizes_give_the_thresholds_without_a_fit(self):
        out, _ = self.plot([500, 2000])
        self.assertTrue(is_png(os.path.join(out, "threshold_vs_d.png")))

    def test_five_sizes_give_the_quadratic_fit(self):
        out, _ = self.plot([250, 500, 1000, 2000, 4000])
        self.assertTrue(is_png(os.path.join(out, "threshold_vs_d.png")))

    def test_a_file_without_stored_fits_draws_the_thresholds_alone(self):
        out, _ = self.plot([500, 1000, 2000], extrapolate=False)
        self.assertTrue(is_png(os.path.join(out, "threshold_vs_d.png")))


class Titles(unittest.TestCase):
    """fixed_parameters reads d as a list, as the config of a sweep over sizes writes it."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.dirname(os.path.abspath(ARGS.script)))
        import rmtsweep_plot
        cls.plot = rmtsweep_plot
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def fixed(self, config, sizes=None):
        path = os.path.join(self.tmp.name, "config.h5")
        with h5py.File(path, "w") as h5:
            h5.attrs["config"] = config
        with h5py.File(path, "r") as h5:
            return self.plot.fixed_parameters(h5, sizes)

    def test_a_list_of_sizes_in_the_config_shows_as_a_range(self):
        self.assertTrue(self.fixed("d = 500,1000,2000\nT = 10\n").startswith("d=500..2000, T=10"))

    def test_one_size_shows_as_before(self):
        self.assertTrue(self.fixed("d = 400\nT = 10\n").startswith("d=400, T=10"))

    def test_the_d_axis_wins_over_the_config(self):
        self.assertTrue(self.fixed("d = 400\n", ["500", "4000"]).startswith("d=500..4000"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
