"""docs/tutorial.ipynb runs from its first cell to its last in a Jupyter kernel (Debian's python3-nbclient and
python3-ipykernel), against the rmtsweep binary of this build and the package of this source tree; a cell that
raises fails the test, naming the cell. The notebook is committed without outputs, and runs in under a minute.
"""
import argparse
import os
import sys
import time
import unittest

import nbformat
from nbclient import NotebookClient

ARGS = None


class Tutorial(unittest.TestCase):
    def test_every_cell_runs_in_under_a_minute(self):
        notebook = nbformat.read(ARGS.notebook, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                self.assertEqual((cell.outputs, cell.execution_count), ([], None), "committed with outputs")
        os.environ["RMTSWEEP_BINARY"] = ARGS.binary
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [ARGS.python, os.environ.get("PYTHONPATH")]))
        os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger: no note on frozen modules
        client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": os.path.dirname(os.path.abspath(ARGS.notebook))}})
        started = time.monotonic()
        client.execute()  # raises CellExecutionError, with the cell and its traceback, when a cell fails
        seconds = time.monotonic() - started
        self.assertLess(seconds, 60.0)
        print(f"tutorial: {sum(c.cell_type == 'code' for c in notebook.cells)} code cells in {seconds:.1f} s")
        outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
        self.assertFalse([o for o in outputs if o.output_type == "error"])
        self.assertGreaterEqual(sum("image/png" in o.get("data", {}) for o in outputs), 3, "the figures")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--notebook", required=True)
    parser.add_argument("--python", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
