"""The finite-size table of docs/finite_size.md and the README from an assembled sweep: per weighting, the
finite_t_edge rule's threshold, the trials' own finite-T threshold and their residual at every d, both
extrapolations to d -> infinity, the paper's theory, and the edge rule's consistency and false detections.

    PYTHONPATH=python /usr/bin/python3 studies/finite_size_table.py out/finite_size_laptop.h5 [--rule finite_t_edge]
"""
import argparse

import numpy as np

import rmtsweep


def fmt(value, error=None, digits=3):
    if value is None or not np.isfinite(value):
        return "-"
    text = f"{value:.{digits}f}"
    if error is not None and np.isfinite(error):
        text += f" ± {error:.{digits}f}"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--rule", default="finite_t_edge")
    args = parser.parse_args()
    top = rmtsweep.open_phase(args.file)
    rule = rmtsweep.open_phase(args.file, f"detection/{args.rule}")
    edge = rmtsweep.open_phase(args.file, "detection/edge")
    sizes = [int(d) for d in top.d.values]
    print(f"| weighting | {' | '.join(f'd = {d}: threshold / finite-T / residual' for d in sizes)} "
          f"| d → ∞: threshold | residual | paper | edge rule |")
    print("|---" * (len(sizes) + 5) + "|")
    for w in top.weighting.values:
        line = rule.sel(weighting=w).squeeze()
        t = top.sel(weighting=w).squeeze()
        cells = []
        for d in sizes:
            at, tt = line.sel(d=d), t.sel(d=d)
            cells.append(f"{fmt(float(at.empirical_threshold_snr), float(at.empirical_threshold_snr_err))} / "
                         f"{fmt(float(tt.theory_finite_t_threshold_snr))} / "
                         f"{fmt(float(at.residual_snr), float(at.residual_snr_err))}")
        thr = fmt(float(line.extrapolated_threshold_snr), float(line.extrapolated_threshold_snr_err))
        res = float(line.extrapolated_residual_snr), float(line.extrapolated_residual_snr_err)
        z = res[0] / res[1] if np.isfinite(res[1]) and res[1] > 0 else np.nan
        moves = int(t.target_converges) == 0 if "target_converges" in t else False
        thr_text = thr + (" (target moves)" if moves else "")
        e = edge.sel(weighting=w).squeeze()
        consistent = int(e.consistent) if "consistent" in e else -1
        fdr = float(e.false_detection_rate.sel(d=sizes[-1])) if "false_detection_rate" in e else np.nan
        edge_text = ("consistent" if consistent == 1 else "**inconsistent**" if consistent == 0 else "?") + \
            (f", {100 * fdr:.0f} % at snr 0, d = {sizes[-1]}" if np.isfinite(fdr) else "")
        paper = float(t.theory_sample_threshold_snr.sel(d=sizes[-1]))
        print(f"| {w} | {' | '.join(cells)} | {thr_text} | {fmt(*res)} ({z:+.1f} errors) | {paper:.3f} | "
              f"{edge_text} |")


if __name__ == "__main__":
    main()
