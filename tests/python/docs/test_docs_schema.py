"""docs/schema.md is what `rmtsweep schema --markdown` prints, and it lists what assemble writes.

The page is generated from the schema tables the writers use; this test fails when the committed page
differs from the program's output (regenerate it: build/rmtsweep schema --markdown > docs/schema.md),
and when /phase of a freshly assembled file holds a dataset the page does not list, or lists one the
file does not hold, or gives it another shape.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

import h5py

ARGS = None
# Axis lengths 3, 2, 4, 1, 5: all different, so a shape with two axes swapped cannot pass.
WEIGHTINGS, SIZES, DELTA, GAMMA, SNR = "mean,last,optimal", "16,24", "0.5,1,1.5,2", "0.5", "0:2:5"


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(" ".join(command) + " failed: " + done.stderr)
    return done.stdout


class SchemaPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.schema = json.loads(run([ARGS.binary, "schema", "--json"]))
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "docs.h5")
        run([ARGS.mpiexec, "-n", "1", ARGS.binary, "run", "--output", cls.path, "--d", SIZES, "--delta", DELTA,
             "--gamma", GAMMA, "--snr", SNR, "--weighting", WEIGHTINGS, "--trials", "2"])
        run([ARGS.binary, "assemble", cls.path, "--quiet"])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_committed_page_is_the_programs_output(self):
        page = open(os.path.join(ARGS.docs, "schema.md"), encoding="utf-8").read()
        printed = run([ARGS.binary, "schema", "--markdown"])
        self.assertTrue(page == printed, "docs/schema.md differs from `rmtsweep schema --markdown`: regenerate it "
                        "with build/rmtsweep schema --markdown > docs/schema.md")

    def test_the_plain_table_is_the_pages_points_table(self):
        table = run([ARGS.binary, "schema"])
        self.assertIn(table, run([ARGS.binary, "schema", "--markdown"]))
        self.assertEqual(len(table.splitlines()), 2 + len(self.schema["points"]))

    def test_phase_holds_exactly_the_listed_datasets_with_their_shapes(self):
        with h5py.File(self.path, "r") as f:
            phase = f["phase"]
            # A dimension's length is its scale's, a dataset of its name in /phase or /phase/theory.
            length = {name: len(group[name]) for group in (phase, phase["theory"]) for name in group
                      if isinstance(group[name], h5py.Dataset) and group[name].attrs.get("CLASS") == b"DIMENSION_SCALE"}
            self.assertEqual([length[a] for a in ("weighting", "d", "delta", "gamma", "snr")], [3, 2, 4, 1, 5])
            listed = {}
            for entry in self.schema["phase"]:
                groups = ([entry["group"].replace("<rule>", rule) for rule in self.schema["detection_rules"]]
                          if "<rule>" in entry["group"] else [entry["group"]])
                shape = tuple(int(d) if d.isdigit() else length[d] for d in entry["dims"])
                for group in groups:
                    listed[group + "/" + entry["name"]] = shape
            held = {}
            f.visititems(lambda name, obj: held.__setitem__(name, obj.shape)
                         if isinstance(obj, h5py.Dataset) and name.startswith("phase/") else None)
            self.assertEqual(sorted(set(held) - set(listed)), [], "in /phase but not in docs/schema.md")
            self.assertEqual(sorted(set(listed) - set(held)), [], "in docs/schema.md but not in /phase")
            for name, shape in listed.items():
                self.assertEqual(held[name], shape, name)
            self.assertEqual(sorted(phase["detection"].keys()), sorted(self.schema["detection_rules"]))

    def test_every_listed_dataset_has_the_description_long_name_units_and_flags_the_page_gives(self):
        with h5py.File(self.path, "r") as f:
            for entry in self.schema["phase"]:
                group = entry["group"].replace("<rule>", self.schema["detection_rules"][0])
                attrs = f[group + "/" + entry["name"]].attrs
                self.assertEqual(attrs["description"], entry["description"], entry["name"])
                self.assertEqual(attrs["long_name"], entry["long_name"], entry["name"])
                self.assertEqual(attrs.get("units", ""), entry["units"], entry["name"])
                self.assertEqual(list(attrs.get("flag_values", [])), entry["flag_values"], entry["name"])
                self.assertEqual(list(attrs.get("flag_masks", [])), entry["flag_masks"], entry["name"])
                self.assertEqual(attrs.get("flag_meanings", ""), entry["flag_meanings"], entry["name"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--docs", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
