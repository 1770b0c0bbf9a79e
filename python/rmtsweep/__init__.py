"""rmtsweep's results in Python: the phase tables as an xarray.Dataset, the points as a pandas.DataFrame,
the stored config as a dict, and the figures of `rmtsweep plot` as functions.

    import rmtsweep
    phase = rmtsweep.open_phase("out/example.h5")      # after `rmtsweep assemble out/example.h5`
    points = rmtsweep.read_points("out/example.h5")    # one row per point
    config = rmtsweep.read_config("out/example.h5")    # {"d": [200], "delta": [0.2, ...], ...}
    runs = rmtsweep.read_runs("out/example.h5")        # one row per run of the sweep
    rmtsweep.theory.paper(delta=0.5, snr=[0.5, 1, 2])  # `rmtsweep theory --json` over arrays (compiled)

Installed with `pip install ./python` (a venv made with --system-site-packages), or from the source tree with
PYTHONPATH=python, or from an install prefix with PYTHONPATH=<prefix>/share/rmtsweep/python.
Needs Debian's python3-h5py, python3-numpy, python3-xarray, python3-h5netcdf, python3-pandas and (figures)
python3-matplotlib. Errors are exceptions (rmtsweep.RmtsweepError and its subclasses). See README.md beside
this file.
"""
__version__ = "0.1.0"  # rmtsweep's (CMakeLists.txt's project VERSION; tests/python/package compares them)

try:
    import h5py  # noqa: F401
    import numpy  # noqa: F401
except ImportError as missing:  # another interpreter than Debian's (a pyenv or conda python3 first on PATH)
    raise ImportError(f"rmtsweep needs h5py and numpy ({missing}): run it with Debian's /usr/bin/python3, which "
                      "has them once scripts/install-deps.sh installed python3-h5py, python3-numpy, "
                      "python3-xarray, python3-h5netcdf, python3-pandas and python3-matplotlib") from missing

from .config import parse_config, read_config, read_runs  # noqa: E402
from .errors import DamagedFile, FileProblem, InvalidFile, InvalidOption, RmtsweepError, StalePhaseWarning  # noqa: E402
from .files import open_phase, read_points  # noqa: E402

__all__ = ["open_phase", "read_points", "read_config", "read_runs", "parse_config", "figures", "theory",
           "RmtsweepError", "InvalidOption", "InvalidFile", "FileProblem", "DamagedFile", "StalePhaseWarning"]


def __getattr__(name):
    # rmtsweep.figures and rmtsweep.theory on first use: reading files needs no matplotlib and no compiled module.
    if name in ("figures", "theory"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
