"""The theory of `rmtsweep theory` from Python, computed by the same C++ functions (the compiled module
rmtsweep._theory, built by CMake where pybind11 is found): the same numbers as `rmtsweep theory --json`, bit for
bit, at a whole grid of points in one call.

    from rmtsweep import theory
    paper = theory.paper(delta=0.5, gamma=0.5, snr=np.linspace(0, 3, 301), weighting="optimal")
    paper["overlap"]                  # one value per snr, as `rmtsweep theory --json` gives "overlap"
    ft = theory.finite_t(delta=0.5, gamma=0.5, snr=[0.5, 1, 2], weighting="last", d=2000, seed=7)
    ft["threshold_snr"], ft["levels"]["overlap"]

Keywords are the long options of `rmtsweep theory` (without --): delta, gamma, snr, weighting, T,
correlation, table, d, seed, trial; absent ones take the command's defaults, and every value is checked as
the command checks it (rmtsweep.InvalidOption names the keyword, the value and what is allowed). delta,
gamma and snr may be numbers or arrays, broadcast together (numpy rules); the others are single values.
"""
import warnings

import numpy as np

from .errors import InvalidOption

try:
    from . import _theory
except ImportError as missing:  # not built (no pybind11), or built for another Python version
    _theory = None
    _MISSING = missing

# The keywords along which a call evaluates arrays; every other keyword is one value for all points.
AXES = ("delta", "gamma", "snr")


class TheoryModuleMissing(ImportError):
    """rmtsweep.theory's compiled module (rmtsweep/_theory*.so) is not there: the package was installed
    without it, or it was built for another Python version."""


def module():
    """The compiled module rmtsweep._theory; TheoryModuleMissing (an ImportError) with what to do."""
    if _theory is None:
        raise TheoryModuleMissing(
            f"rmtsweep.theory needs the compiled module rmtsweep/_theory*.so, which is missing here ({_MISSING}): "
            "build rmtsweep with pybind11 (apt-get install python3-pybind11 python3-dev, then scripts/build.sh "
            "writes python/rmtsweep/_theory*.so), then `pip install ./python` again; it loads in the Python "
            "version it was built for (CMake's -DPython3_EXECUTABLE). Reading files needs no theory module")
    return _theory


def option_names():
    """The keywords, in the order of `rmtsweep theory --help`."""
    return [name for name, _ in module().options()]


def defaults():
    """{keyword: default} as `rmtsweep theory` takes them (texts, as on its command line)."""
    return dict(module().options())


def as_text(name, value):
    """A single-valued keyword as the command line would spell it (the C++ parser checks it)."""
    if isinstance(value, (bool, np.bool_)):
        return str(value).lower()
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, (int, np.integer, str)):
        return str(value)
    raise InvalidOption(name, value, "a single value (a number or a text as `rmtsweep theory --" + name +
                        "` takes it); only " + ", ".join(AXES) + " take arrays")


def evaluate(options, finite_t):
    """The leaves of `rmtsweep theory --json` (finite_t: of its finite_t object) over the broadcast axes."""
    compiled = module()
    known = option_names()
    for name, value in options.items():
        if name not in known:
            raise InvalidOption(name, value, "not an option of `rmtsweep theory`; allowed keywords: " + ", ".join(known))
    texts, axes = {}, {}
    for name, value in options.items():
        if name in AXES:
            try:
                axes[name] = np.asarray(value, dtype=np.float64)
            except (TypeError, ValueError):
                raise InvalidOption(name, value, "a number or an array of numbers") from None
        else:
            texts[name] = as_text(name, value)
    try:
        arrays = np.broadcast_arrays(*axes.values())
    except ValueError:
        shapes = ", ".join(f"{name} {np.shape(a)}" for name, a in axes.items())
        raise InvalidOption(", ".join(axes), shapes, "shapes that broadcast together (numpy's rules)") from None
    shape = arrays[0].shape if arrays else ()
    flat = {name: np.ascontiguousarray(a, dtype=np.float64).ravel() for name, a in zip(axes, arrays)}
    count = int(np.prod(shape, dtype=np.int64))
    try:
        if count == 0:  # empty arrays: the keys of one point at the other options, no values
            leaves, measures, measure_of, notes = compiled.evaluate(texts, {}, 1, finite_t)
            leaves = {name: values[:0] for name, values in leaves.items()}
            measure_of = measure_of[:0]
        else:
            leaves, measures, measure_of, notes = compiled.evaluate(texts, flat, count, finite_t)
    except compiled.InvalidOptionError as e:
        raise InvalidOption(*e.args) from None
    for note in notes:
        warnings.warn(f"rmtsweep.theory: {note}", RuntimeWarning, stacklevel=3)
    out = {}
    for name, values in leaves.items():  # "levels.k" -> out["levels"]["k"]
        *parents, leaf = name.split(".")
        into = out
        for parent in parents:
            into = into.setdefault(parent, {})
        into[leaf] = values.reshape(shape)
    if finite_t:
        measure = np.empty(count, dtype=object)
        for i, j in enumerate(measure_of):
            measure[i] = measures[j]
        out["measure"] = measure.reshape(shape)
    return out


def paper(**options):
    """The paper's d -> infinity theory (docs/model.md 5), as `rmtsweep theory --json` gives it: a dict of
    numpy arrays of the broadcast shape of delta, gamma and snr, keyed as that object (alpha, kappa, theta,
    bulk_edge_left, bulk_edge_right, pop_threshold_snr, sample_threshold_snr, pop_outlier, pop_overlap,
    top_eigenvalue, overlap, detectable, effective_tokens, finite_t_bulk_edge_right); numbers float64 (null:
    NaN, as pop_outlier below the population threshold and finite_t_bulk_edge_right always), detectable bool.

        theory.paper(delta=np.linspace(0.1, 2, 200)[None, :], snr=np.linspace(0, 3, 200)[:, None])
    """
    return evaluate(options, finite_t=False)


def finite_t(**options):
    """The finite-T theory of the point's own token draws (docs/finite_t.md), as the "finite_t" object of
    `rmtsweep theory --bulk finite-T --json`: top_eigenvalue, overlap, threshold_snr, bulk_edge_right (float64),
    detectable (bool), levels (a dict: top_eigenvalue, overlap, overlap_error, k, draws; NaN where the finite-d
    top levels are not computed, as null there) and measure (an object array: per point the dict {"bulk":
    {"nodes", "multiplicities"}, "signal": {"nodes", "weights"}} of float64 arrays, shared by the points of
    one (delta, gamma)). The token draws depend on d, seed, trial, delta, gamma, T, weighting, correlation and
    table, not on snr: each (delta, gamma) is drawn once per call. A failure of the top levels is a
    RuntimeWarning, as `rmtsweep theory` warns on stderr.
    """
    return evaluate(options, finite_t=True)
