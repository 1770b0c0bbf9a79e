#!/usr/bin/python3
"""`rmtsweep plot FILE.h5 --output DIR`: the figures of an assembled sweep file (rmtsweep.cli).

    /usr/bin/python3 python/rmtsweep_plot.py FILE.h5 --output DIR

The figures themselves are functions of the rmtsweep package beside this script (python/rmtsweep/figures).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the rmtsweep package beside this script

from rmtsweep.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
