"""The figure functions (rmtsweep.figures) and `rmtsweep plot` on sweep files synthesised with xarray.

No sweep is run: each file holds the /phase contract the figures read (the dimension scales xarray writes, a
/phase/theory group on fine axes, the root config, a few /points with spectra), with values chosen so that every
case is present: thresholds inside the grid, above it (bracket +1 and a value past the grid's top), without an
error, and lines with thresholds at one size only. The tests count what is drawn: error bars, marks, panels,
legends, the points of the theory's curves.
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
rmtsweep = figures = Figure = None  # imported in main from --python

WEIGHTINGS = ["mean", "optimal"]
DELTA, GAMMA = [0.5, 1.0, 1.5], [0.25, 0.5]
SNR = np.linspace(0.0, 4.0, 9)
FINE = 50
PDF_SIGNATURE, PNG_SIGNATURE = b"%PDF-", b"\x89PNG\r\n\x1a\n"


def phase_tables(sizes):
    """/phase as an xarray.Dataset: a smooth step in snr around a threshold that falls with d; mean pooling's
    threshold at delta 1.5 above the grid (bracket +1, NaN) at every d, and at delta 1.0 past the grid's top."""
    import xarray as xr

    W, Z, D, G, S = len(WEIGHTINGS), len(sizes), len(DELTA), len(GAMMA), SNR.size
    x = np.asarray(sizes, dtype=float) ** (-1.0 / 3.0)
    threshold = (1.0 + 0.8 * x[None, :, None, None] + 0.5 * np.arange(D)[None, None, :, None]
                 - 0.4 * np.arange(W)[:, None, None, None] + 0.1 * np.arange(G)[None, None, None, :])
    step = 1.0 / (1.0 + np.exp(-(SNR - threshold[..., None]) * 3.0))
    edge = np.full((W, Z, D, G), 1.5)
    bracket = np.zeros((W, Z, D, G), dtype=np.int64)
    error = np.full((W, Z, D, G), 0.05)
    threshold[0, :, 2, :] = np.nan  # mean, delta 1.5: never detected within the grid
    bracket[0, :, 2, :] = 1
    threshold[0, :, 1, 0] = 4.3  # mean, delta 1.0, gamma 0.25: an exact threshold past the grid's top (4.25)
    error[1, 0, 0, 0] = np.nan  # optimal, delta 0.5, gamma 0.25, the smallest d: no error
    cell, line = ("weighting", "d", "delta", "gamma", "snr"), ("weighting", "d", "delta", "gamma")
    tables = {
        "overlap_mean": (cell, step), "overlap_std": (cell, np.full(step.shape, 0.05)),
        "theory_overlap": (cell, np.clip(step - 0.05, 0.0, 1.0)),
        "top_eigenvalue_mean": (cell, edge[..., None] * (1.0 + step)),
        "top_eigenvalue_std": (cell, np.full(step.shape, 0.02)),
        "theory_top_eigenvalue": (cell, edge[..., None] * (1.0 + step)),
        "ridge_accuracy_mean": (cell, 0.5 + 0.4 * step), "ridge_accuracy_std": (cell, np.full(step.shape, 0.03)),
        "detected_fraction": (cell, step), "detection_threshold": (cell, edge[..., None] * np.ones(S) * 1.02),
        "theory_detectable": (cell, (step > 0.5).astype(np.int64)),
        "trials_done": (cell, np.full(step.shape, 8, dtype=np.int64)),
        "empirical_threshold_snr": (line, threshold), "empirical_threshold_snr_err": (line, error),
        "empirical_threshold_bracket": (line, bracket),
        "theory_pop_threshold_snr": (line, np.full(edge.shape, 0.5)),
        "theory_sample_threshold_snr": (line, np.full(edge.shape, 0.9)),
        "theory_bulk_edge_left": (line, np.full(edge.shape, 0.1)), "theory_bulk_edge_right": (line, edge),
        "theory_finite_t_threshold_snr": (line, np.full(edge.shape, 0.95)),
    }
    if Z >= 3:
        fitted = np.ones((W, D, G), dtype=bool)
        fitted[0, 2, :] = False
        tables.update({
            "extrapolated_threshold_snr": (line[:1] + line[2:], np.where(fitted, threshold[:, -1] - 0.1, np.nan)),
            "extrapolated_threshold_snr_err": (line[:1] + line[2:], np.where(fitted, 0.03, np.nan)),
            "extrapolation_a": (line[:1] + line[2:], np.where(fitted, 0.8, np.nan)),
            "extrapolation_b": (line[:1] + line[2:], np.where(fitted & (Z >= 5), 0.1, np.nan)),
            "extrapolation_terms": (line[:1] + line[2:], np.where(fitted, 2 if Z >= 5 else 1, 0)),
            "extrapolation_chi2_per_dof": (line[:1] + line[2:], np.where(fitted, 0.7, np.nan)),
            "extrapolated_overlap": (("weighting", "delta", "gamma", "snr"), step[:, 0]),
            "extrapolated_overlap_err": (("weighting", "delta", "gamma", "snr"), np.full(step[:, 0].shape, 0.02)),
        })
    coords = {"weighting": WEIGHTINGS, "d": np.asarray(sizes, dtype=np.int64), "delta": DELTA, "gamma": GAMMA,
              "snr": SNR}
    return xr.Dataset(tables, coords=coords, attrs={"figure_detection": "edge"})


def theory_tables():
    """/phase/theory: the curves along fine axes (d -> infinity: no d)."""
    import xarray as xr

    snr_fine = np.linspace(0.0, 4.0, FINE)
    step = 1.0 / (1.0 + np.exp(-(snr_fine - 1.5) * 3.0))
    shape = (len(WEIGHTINGS), len(DELTA), len(GAMMA))
    curve = np.broadcast_to(step, shape + (FINE,))
    return xr.Dataset({
        "overlap": (("weighting", "delta", "gamma", "snr_fine"), curve),
        "top_eigenvalue": (("weighting", "delta", "gamma", "snr_fine"), 1.5 * (1.0 + curve)),
        "pop_threshold_snr_vs_delta": (("weighting", "gamma", "delta_fine"), np.full((2, 2, FINE), 0.5)),
        "sample_threshold_snr_vs_delta": (("weighting", "gamma", "delta_fine"), np.full((2, 2, FINE), 0.9)),
        "pop_threshold_snr_vs_gamma": (("weighting", "delta", "gamma_fine"), np.full((2, 3, FINE), 0.5)),
        "sample_threshold_snr_vs_gamma": (("weighting", "delta", "gamma_fine"), np.full((2, 3, FINE), 0.9)),
        "density_x": (("weighting", "delta", "gamma", "density_index"),
                      np.broadcast_to(np.linspace(0.0, 1.5, FINE), shape + (FINE,))),
        "density": (("weighting", "delta", "gamma", "density_index"), np.full(shape + (FINE,), 2.0 / 3.0)),
    }, coords={"weighting": WEIGHTINGS, "delta": DELTA, "gamma": GAMMA, "snr_fine": snr_fine,
               "delta_fine": np.linspace(0.5, 1.5, FINE), "gamma_fine": np.linspace(0.25, 0.5, FINE)})


def write_sweep(path, sizes, extrapolate=True):
    """A sweep file: /phase and /phase/theory, the config, one done point per (weighting, d) with its spectrum."""
    tables = phase_tables(sizes)
    if not extrapolate:
        tables = tables.drop_vars([name for name in tables.data_vars if name.startswith("extrapol")])
    tables.to_netcdf(path, group="phase", engine="h5netcdf", mode="w")
    theory_tables().to_netcdf(path, group="phase/theory", engine="h5netcdf", mode="a")
    rows = [(w, size) for w in WEIGHTINGS for size in sizes]
    with h5py.File(path, "a") as h5:
        h5.attrs["config"] = f"d = {','.join(map(str, sizes))}\nT = 10\ncorrelation = prefix:3\ntable = iid\n"
        points = h5.create_group("points")
        points["status"] = np.ones(len(rows), dtype=np.int64)
        points["weighting"] = np.array([w for w, _ in rows], dtype="S")
        points["d"] = np.array([size for _, size in rows], dtype=np.int64)
        for name, value in (("delta", DELTA[0]), ("gamma", GAMMA[0]), ("snr", 4.0), ("trial", 0),
                            ("theory_detectable", 1), ("theory_bulk_edge_right", 1.5), ("theory_top_eigenvalue", 2.5)):
            points[name] = np.full(len(rows), value)
        rng = np.random.default_rng(1)
        for size in sizes:
            mine = np.flatnonzero(points["d"][...] == size)
            h5[f"spectra/d{size}/point"] = mine
            h5[f"spectra/d{size}/eigenvalues"] = np.sort(rng.uniform(0.0, 1.5, (mine.size, size)), axis=1)


def run_plot(path, out, *extra):
    return subprocess.run([sys.executable, ARGS.script, path, "--output", out, "--dpi", "30", *extra],
                          capture_output=True, text=True, timeout=300)


def starts_with(path, signature):
    with open(path, "rb") as f:
        return f.read(len(signature)) == signature and os.path.getsize(path) > 1000


def errorbar_points(ax):
    """The points of every error-bar container of an Axes (a container's data line)."""
    return sum(len(container.lines[0].get_xdata()) for container in ax.containers
               if type(container).__name__ == "ErrorbarContainer")


def marks(ax, marker):
    """The points drawn with `marker` and no line, outside error-bar containers (the marks of thresholds outside
    the grid)."""
    bars = {id(container.lines[0]) for container in ax.containers if type(container).__name__ == "ErrorbarContainer"}
    return sum(len(line.get_xdata()) for line in ax.lines if line.get_marker() == marker and id(line) not in bars
               and line.get_linestyle() in ("None", "none", ""))


def legend_texts(fig):
    """The labels of every legend of the figure, its subfigures' included."""
    legends = list(fig.legends) + [legend for sub in fig.subfigs for legend in sub.legends]
    legends += [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [text.get_text() for legend in legends for text in legend.get_texts()]


def new_axes(count=1):
    fig = Figure(figsize=(3.4, 2.5))
    axes = fig.subplots(1, count, squeeze=False)[0]
    return fig, (axes[0] if count == 1 else axes)


class Fixture(unittest.TestCase):
    SIZES = [500, 1000, 2000]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "sweep.h5")
        write_sweep(cls.path, cls.SIZES)
        cls.phase = rmtsweep.open_phase(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class FigureFunctions(Fixture):
    """Each figure function takes a Dataset (or a selection of it, or a path) and an ax, and returns the Figure."""

    def test_every_figure_function_draws_a_dataset_selection_into_a_given_ax_and_returns_its_figure(self):
        cases = [(figures.phase_diagram, dict(weighting="mean", gamma=0.25)),
                 (figures.overlap_vs_snr, dict(delta=0.5, gamma=0.25)),
                 (figures.top_eigenvalue_vs_snr, dict(delta=0.5, gamma=0.25)),
                 (figures.ridge_accuracy_vs_snr, dict(delta=0.5, gamma=0.25)),
                 (figures.threshold_vs_d, dict(delta=0.5, gamma=0.25)),
                 (figures.overlap_vs_snr_by_d, dict(weighting="optimal", delta=0.5, gamma=0.25)),
                 (figures.spectrum, dict())]
        for function, selection in cases:
            with self.subTest(function.__name__):
                fig, ax = new_axes()
                self.assertIs(function(self.phase.sel(**selection), ax=ax), fig)
                self.assertTrue(ax.has_data(), function.__name__)
                self.assertEqual(len(fig.axes) - (function is figures.phase_diagram)  # its colorbar
                                 - (function is figures.threshold_vs_d), 1)  # the sizes along the top

    def test_every_figure_of_its_own_is_a_column_wide_with_markers_of_a_few_points(self):
        for function in (figures.phase_diagram, figures.overlap_vs_snr, figures.top_eigenvalue_vs_snr,
                         figures.ridge_accuracy_vs_snr, figures.threshold_vs_d, figures.overlap_vs_snr_by_d,
                         figures.spectrum):
            with self.subTest(function.__name__):
                fig = function(self.phase)
                self.assertAlmostEqual(fig.get_figwidth(), 3.4)
                sizes = [line.get_markersize() for ax in fig.axes for line in ax.lines if line.get_marker()
                         not in (None, "None", "none", "")]
                self.assertTrue(sizes and max(sizes) <= 8, sizes)  # a size taken for a marker's once was d

    def test_a_selection_can_be_given_as_keywords_or_a_path_instead_of_a_dataset(self):
        by_keywords = figures.overlap_vs_snr(self.phase, delta=[0.5, 1.0], gamma=0.5)
        self.assertEqual(len([ax for ax in by_keywords.axes if ax.has_data()]), 2)
        by_path = figures.overlap_vs_snr(self.path, delta=1.0)
        self.assertEqual(len([ax for ax in by_path.axes if ax.has_data()]), 2)  # the two gammas

    def test_an_ax_that_does_not_fit_the_panels_is_refused_naming_their_count(self):
        _, ax = new_axes()
        with self.assertRaisesRegex(rmtsweep.InvalidOption, r"invalid ax .*6 panel"):
            figures.overlap_vs_snr(self.phase, ax=ax)
        fig, axes = new_axes(2)
        self.assertIs(figures.overlap_vs_snr(self.phase, ax=axes, delta=0.5), fig)

    def test_a_value_the_file_does_not_have_is_refused_with_the_values_it_has(self):
        with self.assertRaisesRegex(rmtsweep.InvalidOption, r"invalid delta '0.7': allowed: 0.5, 1, 1.5"):
            figures.overlap_vs_snr(self.phase, delta=0.7)
        with self.assertRaisesRegex(rmtsweep.InvalidOption, "invalid colour"):
            figures.overlap_vs_snr(self.phase, colour="red")

    def test_a_dataset_without_its_file_is_drawn_with_the_theory_of_its_grid(self):
        detached = self.phase.copy()
        detached.encoding = {}
        fig, ax = new_axes()
        figures.overlap_vs_snr(detached, ax=ax, delta=0.5, gamma=0.25)
        self.assertEqual({len(line.get_xdata()) for line in ax.lines if line.get_linestyle() == "-"}, {SNR.size})


class PhaseDiagram(Fixture):
    def test_every_measured_threshold_inside_the_grid_has_an_error_bar_and_those_outside_a_mark(self):
        fig, ax = new_axes()
        figures.phase_diagram(self.phase, ax=ax, weighting="mean", gamma=0.25)
        line = self.phase.sel(weighting="mean", gamma=0.25, d=2000)
        threshold = line.empirical_threshold_snr.values
        inside = np.isfinite(threshold) & (threshold <= 4.25)
        self.assertEqual(errorbar_points(ax), inside.sum())
        above = (line.empirical_threshold_bracket.values == 1) | (threshold > 4.25)
        self.assertEqual(above.sum(), 2)  # delta 1.5 (bracket +1) and delta 1.0 (4.3)
        self.assertEqual(marks(ax, "^"), above.sum())
        self.assertIn("above the grid", legend_texts(fig))

    def test_one_figure_holds_every_weighting_on_one_colour_scale_with_one_colorbar_and_legend_outside(self):
        fig = figures.phase_diagram(self.phase, gamma=0.25)
        panels = [ax for ax in fig.axes if ax.collections and ax.get_label() != "<colorbar>"]
        self.assertEqual([ax.get_title() for ax in panels], WEIGHTINGS)
        self.assertEqual({ax.collections[0].get_clim() for ax in panels}, {(0.0, 1.0)})
        self.assertEqual(len([ax for ax in fig.axes if ax.get_label() == "<colorbar>"]), 1)
        self.assertFalse([ax for ax in fig.axes if ax.get_legend()], "a legend on the data")
        self.assertIn("population threshold", legend_texts(fig))
        self.assertNotIn("\n", fig._suptitle.get_text())
        self.assertAlmostEqual(fig.get_figwidth(), 3.4)

    def test_the_theory_is_drawn_along_the_fine_axis(self):
        fig, ax = new_axes()
        figures.phase_diagram(self.phase, ax=ax, weighting="optimal", gamma=0.5)
        # the curves of the theory, without markers (the finite-T thresholds, at the grid's values, have them)
        self.assertEqual(sorted(len(line.get_xdata()) for line in ax.lines if line.get_linestyle() in ("-", "--")
                                and line.get_marker() in ("None", "", None)), [FINE, FINE])

    def test_an_axis_of_one_value_has_no_phase_diagram(self):
        with self.assertRaisesRegex(rmtsweep.InvalidOption, "invalid axis 'delta'"):
            figures.phase_diagram(self.phase, axis="delta", delta=0.5)


class Curves(Fixture):
    def test_the_weightings_error_bars_are_shifted_sideways_around_the_grid_and_the_theory_is_fine(self):
        fig, ax = new_axes()
        figures.overlap_vs_snr(self.phase, ax=ax, delta=0.5, gamma=0.25)
        bars = [c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]
        self.assertEqual(len(bars), len(WEIGHTINGS))
        x = [np.asarray(c.lines[0].get_xdata()) for c in bars]
        self.assertTrue(np.all(x[0] < x[1]))
        np.testing.assert_allclose((x[0] + x[1]) / 2, SNR)
        theory = [line for line in ax.lines if line.get_linestyle() == "-" and len(line.get_xdata()) == FINE]
        self.assertEqual(len(theory), len(WEIGHTINGS))

    def test_the_panels_share_their_axes_and_are_labelled_once(self):
        fig = figures.overlap_vs_snr(self.phase)
        panels = [ax for ax in fig.axes if ax.has_data()]
        self.assertEqual(len(panels), len(DELTA) * len(GAMMA))
        self.assertTrue(all(panels[0].get_shared_y_axes().joined(panels[0], ax) for ax in panels))
        self.assertEqual([ax.get_ylabel() for ax in panels], [""] * len(panels))
        self.assertEqual([ax.get_title() for ax in panels[:len(DELTA)]], [f"δ = {v:g}" for v in DELTA])

    def test_the_top_eigenvalue_is_drawn_over_its_bulk_edge_which_the_legend_names(self):
        fig = figures.top_eigenvalue_vs_snr(self.phase, delta=0.5, gamma=0.25)
        ax = [ax for ax in fig.axes if ax.has_data()][0]
        bars = [c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]
        expected = (self.phase.top_eigenvalue_mean / self.phase.theory_bulk_edge_right).sel(
            weighting="mean", delta=0.5, gamma=0.25, d=2000).values
        np.testing.assert_allclose(bars[0].lines[0].get_ydata(), expected)
        self.assertTrue(any("bulk edge" in text for text in legend_texts(fig)))

    def test_ridge_accuracy_has_chance_as_reference(self):
        fig, ax = new_axes()
        figures.ridge_accuracy_vs_snr(self.phase, ax=ax, delta=0.5, gamma=0.25)
        self.assertIn(0.5, [line.get_ydata()[0] for line in ax.lines if line.get_linestyle() == "--"])
        self.assertIn("chance", legend_texts(fig))


class FiniteSize(Fixture):
    def test_thresholds_against_d_have_error_bars_a_fit_and_a_mathtext_label(self):
        fig, ax = new_axes()
        figures.threshold_vs_d(self.phase, ax=ax, delta=1.5, gamma=0.5)
        self.assertEqual(ax.get_xlabel(), "$d^{-1/3}$")
        # optimal: 3 sizes with errors and its extrapolation; mean: above the grid at every size
        self.assertEqual(errorbar_points(ax), len(self.SIZES) + 1)
        self.assertEqual(marks(ax, r"$\uparrow$"), len(self.SIZES))

    def test_the_trials_finite_t_thresholds_are_drawn_at_every_size(self):
        fig, ax = new_axes()
        figures.threshold_vs_d(self.phase, ax=ax, weighting="optimal", delta=0.5, gamma=0.25)
        targets = [line for line in ax.lines if line.get_marker() == "x"]
        self.assertEqual(len(targets), 1)
        np.testing.assert_array_equal(targets[0].get_ydata(), np.full(len(self.SIZES), 0.95))
        self.assertIn("finite-T threshold (trials' mean)", legend_texts(fig))

    def test_a_threshold_without_an_error_is_drawn_open(self):
        fig, ax = new_axes()
        figures.threshold_vs_d(self.phase, ax=ax, weighting="optimal", delta=0.5, gamma=0.25)
        self.assertEqual(errorbar_points(ax), len(self.SIZES) - 1 + 1)  # one size without an error, the limit
        open_marks = [line for line in ax.lines if line.get_markerfacecolor() == "none"]
        self.assertEqual([len(line.get_xdata()) for line in open_marks], [1])

    def test_the_overlap_by_d_draws_the_theory_once_on_the_fine_axis(self):
        fig, ax = new_axes()
        figures.overlap_vs_snr_by_d(self.phase, ax=ax, weighting="mean", delta=0.5, gamma=0.25)
        theory = [line for line in ax.lines if len(line.get_xdata()) == FINE]
        self.assertEqual(len(theory), 1)
        self.assertEqual(len([c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]),
                         len(self.SIZES) + 1)  # one per d and the extrapolation


class DrawAll(Fixture):
    def test_draw_all_writes_one_file_a_figure_in_each_format(self):
        names, index, _ = figures.figure_names(self.path)
        self.assertEqual(names, ["phase_delta", "phase_gamma", "overlap_vs_snr", "top_eigenvalue_vs_snr",
                                 "ridge_accuracy_vs_snr", "threshold_vs_d", "overlap_vs_snr_by_d", "spectrum"])
        self.assertIsNotNone(index)
        for fmt, signature in (("pdf", PDF_SIGNATURE), ("png", PNG_SIGNATURE)):
            out = os.path.join(self.tmp.name, fmt)
            paths = figures.draw_all(self.phase, out, dpi=30, format=fmt)
            self.assertEqual([os.path.basename(p) for p in paths], [f"{name}.{fmt}" for name in names])
            self.assertTrue(all(starts_with(p, signature) for p in paths), paths)


class CommandLine(Fixture):
    def test_format_pdf_writes_pdfs(self):
        out = os.path.join(self.tmp.name, "pdf")
        result = run_plot(self.path, out, "--format", "pdf")
        self.assertEqual(result.returncode, 0, result.stderr)
        written = sorted(os.listdir(out))
        self.assertIn("phase_delta.pdf", written)
        self.assertTrue(all(name.endswith(".pdf") and starts_with(os.path.join(out, name), PDF_SIGNATURE)
                            for name in written), written)

    def test_a_bad_format_is_refused_naming_the_option_the_value_and_what_is_allowed(self):
        out = os.path.join(self.tmp.name, "jpeg")
        result = run_plot(self.path, out, "--format", "jpeg")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("invalid --format 'jpeg': allowed: png, pdf, svg", result.stderr)
        self.assertFalse(os.path.exists(out))

    def test_out_is_an_alias_of_output(self):
        out = os.path.join(self.tmp.name, "alias")
        result = subprocess.run([sys.executable, ARGS.script, self.path, "--out", out, "--dpi", "20"],
                                capture_output=True, text=True, timeout=300)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("overlap_vs_snr.png", os.listdir(out))

    def test_refuses_to_overwrite_a_figure_without_force(self):
        out = os.path.join(self.tmp.name, "again")
        os.makedirs(out)
        with open(os.path.join(out, "threshold_vs_d.png"), "w") as f:
            f.write("an earlier figure")
        result = run_plot(self.path, out)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("invalid --output", result.stderr)
        self.assertIn("threshold_vs_d.png", result.stderr)
        with open(os.path.join(out, "threshold_vs_d.png")) as f:
            self.assertEqual(f.read(), "an earlier figure")


class OtherSizes(unittest.TestCase):
    """Which finite-size figures a file gets, by its sizes."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def names(self, sizes, **layout):
        path = os.path.join(self.tmp.name, "sweep.h5")
        write_sweep(path, sizes, **layout)
        return figures.figure_names(path)[0], path

    def test_one_size_gets_no_finite_size_figure(self):
        names, _ = self.names([1000])
        self.assertIn("overlap_vs_snr", names)
        self.assertNotIn("threshold_vs_d", names)
        self.assertNotIn("overlap_vs_snr_by_d", names)

    def test_two_sizes_give_the_thresholds_without_a_fit(self):
        names, path = self.names([500, 2000])
        self.assertIn("threshold_vs_d", names)
        fig, ax = new_axes()
        figures.threshold_vs_d(path, ax=ax, weighting="optimal", delta=1.0, gamma=0.25)
        self.assertEqual(errorbar_points(ax), 2)  # the two sizes, no extrapolation

    def test_five_sizes_draw_the_quadratic_fit(self):
        _, path = self.names([250, 500, 1000, 2000, 4000])
        fig, ax = new_axes()
        figures.threshold_vs_d(path, ax=ax, weighting="optimal", delta=1.0, gamma=0.25)
        fit = [line for line in ax.lines if line.get_linestyle() == "--"][0]
        x, y = np.asarray(fit.get_xdata()), np.asarray(fit.get_ydata())
        self.assertGreater(np.abs(np.diff(y, 2)).max(), 1e-9)  # curved: b x^2
        self.assertEqual(errorbar_points(ax), 6)

    def test_a_file_without_stored_fits_draws_the_thresholds_alone(self):
        _, path = self.names([500, 1000, 2000], extrapolate=False)
        fig, ax = new_axes()
        figures.threshold_vs_d(path, ax=ax, weighting="optimal", delta=1.0, gamma=0.25)
        self.assertEqual(errorbar_points(ax), 3)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True, help="python/rmtsweep_plot.py")
    ARGS, rest = parser.parse_known_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(ARGS.script)))
    import rmtsweep  # noqa: E402,F811
    import rmtsweep.figures as figures  # noqa: E402,F811
    from matplotlib.figure import Figure  # noqa: E402,F811
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
