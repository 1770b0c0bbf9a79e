"""`python -m rmtsweep`: the package's own commands.

    python -m rmtsweep info                   what is installed where: the package, its compiled theory module
    python -m rmtsweep plot FILE.h5 --out DIR the figures of `rmtsweep plot` (python -m rmtsweep.cli alike)
    python -m rmtsweep --version
"""
import argparse
import os
import sys

from . import __version__

COMMANDS = {
    "info": "the package's version and place, and whether its compiled theory module loads here",
    "plot": "figures from an assembled sweep file or phase file (as `rmtsweep plot`; plot --help)",
}


def info():
    """Lines saying what this installation holds (printed by `python -m rmtsweep info`)."""
    import rmtsweep
    lines = [f"rmtsweep {__version__} (Python package) at {os.path.dirname(os.path.abspath(rmtsweep.__file__))}",
             f"python {sys.version.split()[0]} at {sys.executable}"]
    try:
        from . import theory
        compiled = theory.module()
        lines.append(f"theory module: {compiled.__file__} (options: {', '.join(theory.option_names())})")
    except ImportError as e:
        lines.append(f"theory module: missing: {e}")
    return lines


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    epilog = "commands:\n" + "\n".join(f"  {name:6s} {text}" for name, text in COMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="python -m rmtsweep", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog,
        description="rmtsweep's Python package: read sweep files into xarray and pandas (import rmtsweep), the "
                    "theory of `rmtsweep theory` over arrays (rmtsweep.theory), and the figures (docs/python.md).")
    parser.add_argument("--version", action="version", version=f"rmtsweep {__version__}")
    parser.add_argument("command", choices=sorted(COMMANDS), metavar="COMMAND", help="one of: " + ", ".join(COMMANDS))
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the command's own (COMMAND --help)")
    args = parser.parse_args(argv)
    if args.command == "plot":
        from .cli import main as plot
        return plot(args.arguments)
    if args.arguments:
        parser.exit(2, f"python -m rmtsweep info: takes no arguments, not {' '.join(args.arguments)}\n")
    print("\n".join(info()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
