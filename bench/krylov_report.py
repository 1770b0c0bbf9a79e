#!/usr/bin/python3
"""The Krylov comparison's table (bench/krylov_compare.sh's krylov.jsonl): per d the best total of each
engine over the rounds, the Krylov engine's products and peak memory, and the ratios the issue asks for."""
import json
import sys


def main(path):
    best = {}
    for line in open(path):
        record = json.loads(line)
        r = record["result"]
        kind = "scipy" if r.get("kind") == "scipy_krylov_point" else r.get("solver", "dense")
        key = (int(r["d"]), kind)
        total = r["seconds"]["total"]
        if key not in best or total < best[key]["seconds"]["total"]:
            best[key] = r
    print("| d | dense s | Krylov s (products, peak MiB) | scipy s (products) | dense / Krylov | scipy / Krylov |")
    print("|---|---|---|---|---|---|")
    for d in sorted({d for d, _ in best}):
        dense, krylov, scipy = best.get((d, "dense")), best.get((d, "krylov")), best.get((d, "scipy"))
        cell = lambda r: f"{r['seconds']['total']:.3f}" if r else "—"
        k = f"{krylov['seconds']['total']:.3f} ({krylov.get('products', '?')}, {krylov.get('peak_rss_mb', 0):.0f})" if krylov else "—"
        s = f"{scipy['seconds']['total']:.3f} ({sum(scipy['products'].values())})" if scipy else "—"
        ratio = lambda a: f"{a['seconds']['total'] / krylov['seconds']['total']:.2f}" if a and krylov else "—"
        print(f"| {d} | {cell(dense)} | {k} | {s} | {ratio(dense)} | {ratio(scipy)} |")


if __name__ == "__main__":
    main(sys.argv[1])
