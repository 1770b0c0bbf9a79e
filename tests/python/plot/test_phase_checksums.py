"""`rmtsweep plot` checks the checksums of /phase before it draws (docs/reliability.md, Checksums): the
CRC-32 it computes for a dataset is the one rmtsweep writes as its attribute `checksum`
(src/store/checksums.cpp: each value's little-endian bytes, a fixed-length text's whole stored width, zlib's
CRC-32, its low 31 bits), and a /phase dataset whose bytes no longer match is refused, exit 4, naming it and
`rmtsweep assemble`, which rebuilds /phase. Files synthesised with h5py; no sweep is run (a few seconds).
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import h5py
import numpy as np

ARGS = None
files = errors = None  # imported in main from --python


def crc(data):
    """rmtsweep's checksum of these bytes, written out here by hand."""
    return zlib.crc32(data) & 0x7FFFFFFF


def write_phase(path, damaged=None, sweep_file=None):
    """A file whose /phase holds a real, an integer and a text dataset, each stamped as assemble stamps it;
    `damaged` names the one whose first byte is then flipped in the file."""
    reals, ints, texts = [0.5, -2.25, np.nan], [3, -1], ["mean", "optimal"]
    with h5py.File(path, "w") as h5:
        if sweep_file:
            h5.attrs["sweep_file"] = sweep_file
        phase = h5.create_group("phase")
        phase.create_dataset("overlap_mean", data=np.asarray(reals, dtype="<f8")).attrs["checksum"] = crc(
            b"".join(struct.pack("<d", v) for v in reals))
        phase.create_dataset("trials_done", data=np.asarray(ints, dtype="<i8")).attrs["checksum"] = crc(
            b"".join(struct.pack("<q", v) for v in ints))
        phase.create_dataset("weighting", data=np.asarray(texts, dtype="S7")).attrs["checksum"] = crc(
            b"mean\0\0\0optimal")
        offset = phase[damaged].id.get_offset() if damaged else None
    if damaged:
        with open(path, "r+b") as raw:
            raw.seek(offset)
            byte = raw.read(1)[0]
            raw.seek(offset)
            raw.write(bytes([byte ^ 1]))


def plot(path, out):
    return subprocess.run([ARGS.python, ARGS.script, path, "--output", out], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))


class PhaseChecksums(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_each_dataset_s_checksum_is_the_crc_32_of_its_stored_bytes_as_rmtsweep_computes_it(self):
        path = self.path("clean.h5")
        write_phase(path)
        with h5py.File(path, "r") as h5:
            for name in ("overlap_mean", "trials_done", "weighting"):
                self.assertEqual(files.dataset_checksum(h5["phase"][name]), int(h5["phase"][name].attrs["checksum"]),
                                 name)
        self.assertEqual(files.damaged_phase(path), [])
        files.check_phase_checksums(path)  # raises nothing

    def test_a_flipped_byte_in_any_phase_dataset_is_named(self):
        for name in ("overlap_mean", "trials_done", "weighting"):
            path = self.path(f"{name}.h5")
            write_phase(path, damaged=name)
            self.assertEqual(files.damaged_phase(path), [f"/phase/{name}"])

    def test_a_damaged_phase_is_refused_naming_the_dataset_and_the_assemble_that_rebuilds_it(self):
        path = self.path("sweep.h5")
        write_phase(path, damaged="trials_done")
        with self.assertRaises(errors.DamagedFile) as caught:
            files.check_phase_checksums(path)
        self.assertIn("checksums fail in /phase/trials_done", str(caught.exception))
        self.assertIn(f"`rmtsweep assemble {path}` rebuilds /phase", str(caught.exception))

    def test_a_phase_file_s_damage_names_the_assemble_of_its_sweep_file(self):
        path = self.path("phase.h5")
        write_phase(path, damaged="overlap_mean", sweep_file="/data/s.h5")
        with self.assertRaises(errors.DamagedFile) as caught:
            files.check_phase_checksums(path)
        self.assertIn(f"`rmtsweep assemble /data/s.h5 --output {path} --force` rebuilds /phase", str(caught.exception))

    def test_plot_draws_nothing_from_a_damaged_phase_and_exits_4(self):
        path, out = self.path("sweep.h5"), self.path("figures")
        write_phase(path, damaged="weighting")
        done = plot(path, out)
        self.assertEqual(done.returncode, 4, done.stderr)
        self.assertIn("rmtsweep plot: error: " + path + ": checksums fail in /phase/weighting", done.stderr)
        self.assertFalse(os.path.exists(out) and os.listdir(out), "figures were written")


def main():
    global ARGS, files, errors
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True, help="python/rmtsweep_plot.py")
    parser.add_argument("--python", default=sys.executable)
    ARGS, rest = parser.parse_known_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(ARGS.script)))
    from rmtsweep import errors as errors_module, files as files_module
    files, errors = files_module, errors_module
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
