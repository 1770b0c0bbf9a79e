"""rmtsweep.theory, the compiled module over the functions `rmtsweep theory` calls: on a grid of
points the paper's theory and the finite-T theory equal `rmtsweep theory --json` and `--bulk finite-T --json`
bit for bit, key for key; arrays broadcast; bad values are refused as the command refuses them; and without the
compiled module the package still imports and reads files, and the theory says what is missing.
"""
import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np

ARGS = None
rmtsweep = None  # imported from --python in main
theory = None


def cli(**options):
    """`rmtsweep theory --json` with `options` (bulk="finite-T" for the finite-T theory), parsed."""
    command = [ARGS.binary, "theory", "--json"]
    for name, value in options.items():
        command += [f"--{name}", value if isinstance(value, str) else repr(value)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, (command, done.stderr)
    return json.loads(done.stdout)


def bits(value):
    """The 64 bits of a JSON number (null: NaN's), for equality to the last bit."""
    return np.float64(np.nan if value is None else value).view(np.int64)


class PaperTheory(unittest.TestCase):
    """theory.paper against `rmtsweep theory --json`, one subprocess per point."""

    DELTA = [0.1, 0.6, 1.7]
    GAMMA = [0.3, 1.5]
    SNR = [0.0, 0.35, 2.5]
    CASES = [{"weighting": "mean"}, {"weighting": "optimal", "correlation": "markov:0.5", "T": 7},
             {"weighting": "causal:0.3", "correlation": "prefix:3", "table": "centered"},
             {"weighting": "custom:1,2,0,0.5", "T": 4}]

    def test_every_key_and_every_bit_equals_the_command_on_a_grid(self):
        for case in self.CASES:
            got = theory.paper(delta=np.array(self.DELTA)[:, None, None], gamma=np.array(self.GAMMA)[None, :, None],
                               snr=self.SNR, **case)
            for (i, delta), (j, gamma), (k, snr) in itertools.product(
                    enumerate(self.DELTA), enumerate(self.GAMMA), enumerate(self.SNR)):
                expected = cli(delta=delta, gamma=gamma, snr=snr, **case)
                self.assertIsNone(expected.pop("finite_t"))
                with self.subTest(case=case, delta=delta, gamma=gamma, snr=snr):
                    self.assertEqual(sorted(got), sorted(expected))
                    for key, value in expected.items():
                        self.assertEqual(got[key].shape, (3, 2, 3), key)
                        if isinstance(value, bool):
                            self.assertEqual(got[key].dtype, np.bool_, key)
                            self.assertEqual(bool(got[key][i, j, k]), value, key)
                        else:
                            self.assertEqual(got[key][i, j, k].view(np.int64), bits(value), key)

    def test_scalars_give_zero_dimensional_arrays_and_defaults_are_the_commands(self):
        got = theory.paper()
        expected = cli()
        self.assertEqual(got["overlap"].shape, ())
        self.assertEqual(got["overlap"].view(np.int64), bits(expected["overlap"]))
        self.assertEqual(list(theory.defaults()), theory.option_names())
        empty = theory.paper(delta=np.zeros((0, 3)), snr=[1.0, 2.0, 3.0])
        self.assertEqual(sorted(empty), sorted(got))
        self.assertEqual(empty["overlap"].shape, (0, 3))

    def test_a_bad_value_is_refused_as_the_command_refuses_it(self):
        refused = subprocess.run([ARGS.binary, "theory", "--delta", "-1"], capture_output=True, text=True)
        self.assertEqual(refused.returncode, 2)
        with self.assertRaises(rmtsweep.InvalidOption) as caught:
            theory.paper(delta=[0.5, -1.0])
        self.assertEqual((caught.exception.option, caught.exception.value), ("delta", "-1"))
        self.assertIn(caught.exception.allowed, refused.stderr)
        for options, option in (({"weighting": "median"}, "weighting"), ({"T": 2.5}, "T"),
                                ({"delta": [1, 2], "snr": [1, 2, 3]}, "delta, snr"), ({"alpha": 1}, "alpha"),
                                ({"weighting": ["mean", "last"]}, "weighting")):
            with self.subTest(options=options):
                with self.assertRaises(rmtsweep.InvalidOption) as caught:
                    theory.paper(**options)
                self.assertEqual(caught.exception.option, option)
                self.assertIsInstance(caught.exception, ValueError)


class FiniteTTheory(unittest.TestCase):
    """theory.finite_t against the finite_t object of `rmtsweep theory --bulk finite-T --json`."""

    def check(self, delta, gamma, snr, **case):
        got = theory.finite_t(delta=np.array(delta)[:, None], gamma=gamma, snr=np.array(snr)[None, :], **case)
        for (i, dv), (k, sv) in itertools.product(enumerate(delta), enumerate(snr)):
            expected = cli(delta=dv, gamma=gamma, snr=sv, bulk="finite-T", **case)["finite_t"]
            with self.subTest(case=case, delta=dv, snr=sv):
                self.assertEqual(sorted(got), sorted(expected))
                for key, value in expected.items():
                    if key == "measure":
                        for part, fields in value.items():
                            for field, numbers in fields.items():
                                np.testing.assert_array_equal(got["measure"][i, k][part][field].view(np.int64),
                                                              np.array(numbers, dtype=np.float64).view(np.int64))
                    elif key == "levels":
                        self.assertEqual(sorted(got["levels"]), ["draws", "k", "overlap", "overlap_error",
                                                                 "top_eigenvalue"])
                        for name, array in got["levels"].items():
                            self.assertEqual(array[i, k].view(np.int64), bits(None if value is None else value[name]),
                                             name)
                    elif isinstance(value, bool):
                        self.assertEqual(bool(got[key][i, k]), value, key)
                    else:
                        self.assertEqual(got[key][i, k].view(np.int64), bits(value), key)
        return got

    def test_single_token_pooling_with_its_top_levels_equals_the_command(self):
        got = self.check([0.5, 1.0], 0.5, [0.0, 1.0, 4.0], weighting="last", d=200, seed=7, trial=1)
        self.assertTrue(np.isfinite(got["levels"]["overlap"]).all())
        self.assertIs(got["measure"][0, 0], got["measure"][0, 2])  # one draw per (delta, gamma)

    def test_several_tokens_without_top_levels_equal_the_command(self):
        got = self.check([0.5], 1.0, [0.5, 3.0], weighting="mean", T=5, d=120)
        self.assertTrue(np.isnan(got["levels"]["overlap"]).all())


class WithoutTheCompiledModule(unittest.TestCase):
    """A copy of the package without _theory*.so: the package imports, reads files, and the theory says why not."""

    def test_the_package_imports_and_the_theory_names_what_is_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(ARGS.python, "rmtsweep"), os.path.join(tmp, "rmtsweep"),
                            ignore=shutil.ignore_patterns("_theory*.so", "__pycache__"))
            script = ("import rmtsweep\n"
                      f"print(len(rmtsweep.read_points({os.path.abspath(os.path.join(ARGS.source, 'tests', 'data', 'sweep_schema2.h5'))!r})))\n"
                      "try:\n    rmtsweep.theory.paper(delta=1)\nexcept ImportError as e:\n    print(type(e).__name__, e)\n")
            done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp,
                                  env=dict(os.environ, PYTHONPATH=tmp))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertRegex(done.stdout, r"^\d+\nTheoryModuleMissing .*_theory.*python3-pybind11")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--python", required=True, help="the directory holding the rmtsweep package")
    ARGS, rest = parser.parse_known_args()
    sys.path.insert(0, ARGS.python)
    import rmtsweep  # noqa: E402,F811
    from rmtsweep import theory  # noqa: E402,F811
    warnings.simplefilter("error", RuntimeWarning)  # a failure of the top levels is a test failure
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
