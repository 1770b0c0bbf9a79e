"""rmtsweep's results in Python: the phase tables as an xarray.Dataset, the points as a pandas.DataFrame,
the stored config as a dict, and the figures of `rmtsweep plot` as functions.

    import rmtsweep
    phase = rmtsweep.open_phase("out/example.h5")      # after `rmtsweep assemble out/example.h5`
    points = rmtsweep.read_points("out/example.h5")    # one row per point
    config = rmtsweep.read_config("out/example.h5")    # {"d": [200], "delta": [0.2, ...], ...}

From the source tree: PYTHONPATH=python; from an install prefix: PYTHONPATH=<prefix>/share/rmtsweep/python.
Needs Debian's python3-h5py, python3-numpy, python3-xarray, python3-h5netcdf, python3-pandas and (figures)
python3-matplotlib. Errors are exceptions (rmtsweep.RmtsweepError and its subclasses). See README.md beside
this file.
"""
try:
    import h5py  # noqa: F401
    import numpy  # noqa: F401
except ImportError as missing:  # another interpreter than Debian's (a pyenv or conda python3 first on PATH)
    raise ImportError(f"rmtsweep needs h5py and numpy ({missing}): run it with Debian's /usr/bin/python3, which "
                      "has them once scripts/install-deps.sh installed python3-h5py, python3-numpy, "
                      "python3-xarray, python3-h5netcdf, python3-pandas and python3-matplotlib") from missing

from .config import parse_config, read_config  # noqa: E402
from .errors import FileProblem, InvalidFile, InvalidOption, RmtsweepError  # noqa: E402
from .files import open_phase, read_points  # noqa: E402

__all__ = ["open_phase", "read_points", "read_config", "parse_config", "figures", "RmtsweepError", "InvalidOption",
           "InvalidFile", "FileProblem"]


def __getattr__(name):
    # rmtsweep.figures on first use: reading files needs no matplotlib.
    if name == "figures":
        import importlib
        return importlib.import_module(".figures", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
