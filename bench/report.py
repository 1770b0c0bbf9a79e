#!/usr/bin/python3
"""Prints the one table of `bash bench/run.sh` from the JSON lines it collected.

Usage: report.py RESULTS.jsonl  (each line one measurement: see bench/*.cpp and
bench/numpy_reference.py for the producers). Markdown, so it can be pasted into docs/performance.md.
"""
import json
import sys


def load(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip().startswith("{")]


def pick(records, **where):
    return [r for r in records if all(r.get(k) == v for k, v in where.items())]


def one(records, **where):
    found = pick(records, **where)
    return found[-1] if found else None


def fmt(x, digits=3):
    if x is None:
        return "n/a"
    if isinstance(x, str):
        return x
    return f"{x:.{digits}f}" if abs(x) < 100 else f"{x:.0f}"


def path_of(r):
    """How the point formed S: panels (dsyrk), tokens (H E^T) or gram, and what reduced it:
    lapack, scalapack or elpa; numpy: C^T C and eigh."""
    if r.get("kind") == "numpy_point":
        return "C^T C, eigh"
    path = r.get("covariance_path", "")
    return f"{path}, {r['eigensolver']}" if r.get("eigensolver") else path


def main():
    records = load(sys.argv[1])
    meta = one(records, kind="machine") or {}
    print(f"Machine: {meta.get('cpu', '?')}, {meta.get('cores', '?')} cores, {meta.get('memory', '?')} memory; "
          f"{meta.get('openblas', '?')}; kernel used: {meta.get('blas_core', '?')} "
          f"(as installed, without OPENBLAS_CORETYPE: {meta.get('default_core', '?')}).")
    print(f"Load (uptime) before: {meta.get('load_before', '?')}; after: {meta.get('load_after', '?')}.")
    print()

    # Limits.
    dims = sorted({r["d"] for r in pick(records, kind="cpp_point", gamma=0.25)} |
                  {r["d"] for r in pick(records, kind="dsyevd_all_vectors")})
    print("| limit (BLAS/LAPACK, best of runs) | " + " | ".join(f"d={d}" for d in dims) + " |")
    print("|---|" + "---|" * len(dims))
    for threads in (1, 2):
        row = [one(records, kind="dgemm", d=d, threads=threads, blas_core=meta.get("blas_core")) for d in dims]
        print(f"| DGEMM d x 512 x d, {threads} thread(s), GFLOP/s | " + " | ".join(fmt(r and r["gflops"], 1) for r in row) + " |")
    default = pick(records, kind="dgemm", blas_core=meta.get("default_core"))
    if default and meta.get("default_core") != meta.get("blas_core"):
        r = default[-1]
        print(f"| DGEMM as installed ({r['blas_core']} kernel), d={r['d']}, {r['threads']} threads, GFLOP/s | "
              + " | ".join(fmt(r["gflops"], 1) if d == r["d"] else "" for d in dims) + " |")
    for kind, label in (("dsyevd_all_vectors", "dsyevd, all vectors, 2 threads, s"),
                        ("dsyevd_values_only", "dsyevd, values only, 2 threads, s"),
                        ("dsyevr_top_k_vectors", "dsyevr, top 4 vectors, 2 threads, s"),
                        ("dsytrd", "dsytrd alone, 2 threads, s"),
                        ("tridiagonal_top_k_path", "dsytrd+dsterf+dstemr(4)+dormtr, 2 threads, s")):
        row = [one(records, kind=kind, d=d, threads=2) for d in dims]
        print(f"| {label} | " + " | ".join(fmt(r and r["seconds"]) for r in row) + " |")
    print()

    # Points.
    print("| one point (delta=0.5, gamma=0.25, T=10, prefix:3, mean) | d | N | S from, reduced by | generate s | covariance s | eigen s "
          "| ridge s | total s | peak MB/rank | top eigenvalue | overlap | ridge acc. |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    configs = (("C++ 1 rank x 2 BLAS threads", dict(kind="cpp_point", ranks=1, path_option="auto")),
               ("C++ 1 rank x 2 BLAS threads, panels forced", dict(kind="cpp_point", ranks=1, path_option="panels")),
               ("C++ 2 ranks x 1 BLAS thread", dict(kind="cpp_point", ranks=2, eigensolver_option="auto")),
               ("C++ 2 ranks x 1 BLAS thread, ScaLAPACK forced", dict(kind="cpp_point", ranks=2, eigensolver_option="scalapack")),
               ("numpy, 2 BLAS threads", dict(kind="numpy_point", threads=2)))
    for d in dims:
        for label, where in configs:
            runs = pick(records, d=d, gamma=0.25, blas_core=meta.get("blas_core"), **where)
            r = min(runs, key=lambda x: x["seconds"]["total"]) if runs else None
            if r is None:
                continue
            s = r["seconds"]
            print(f"| {label} | {d} | {r['N']} | {path_of(r)} | " + " | ".join(fmt(s[k]) for k in ("generate", "covariance", "eigen", "ridge", "total"))
                  + f" | {fmt(r['peak_rss_mb'], 0)} | {fmt(r['top_eigenvalues'][0], 4)} | {fmt(r['overlaps'][0], 3)} | {fmt(r['ridge_accuracy'], 3)} |")
    if meta.get("default_core") != meta.get("blas_core"):
        for label, kind in (("C++ 1 rank x 2 BLAS threads", "cpp_point"), ("numpy, 2 BLAS threads", "numpy_point")):
            for r in pick(records, kind=kind, blas_core=meta.get("default_core")):
                s = r["seconds"]
                print(f"| {label}, as installed ({r['blas_core']} kernel) | {r['d']} | {r['N']} | {path_of(r)} | "
                      + " | ".join(fmt(s[k]) for k in ("generate", "covariance", "eigen", "ridge", "total"))
                      + f" | {fmt(r['peak_rss_mb'], 0)} | {fmt(r['top_eigenvalues'][0], 4)} | {fmt(r['overlaps'][0], 3)} | {fmt(r['ridge_accuracy'], 3)} |")
    for r in pick(records, kind="cpp_point", ranks=1):
        if r["gamma"] != 0.25:
            s = r["seconds"]
            print(f"| C++ 1 rank, gamma={r['gamma']} | {r['d']} | {r['N']} | {path_of(r)} | " + " | ".join(fmt(s[k]) for k in ("generate", "covariance", "eigen", "ridge", "total"))
                  + f" | {fmt(r['peak_rss_mb'], 0)} | {fmt(r['top_eigenvalues'][0], 4)} | {fmt(r['overlaps'][0], 3)} | {fmt(r['ridge_accuracy'], 3)} |")
    print()

    # Targets.
    print("| target | measured | goal | met |")
    print("|---|---|---|---|")

    def target(label, value, goal, ok):
        print(f"| {label} | {fmt(value, 2)} | {goal} | {'yes' if ok else 'no'} |" if value is not None else f"| {label} | n/a | {goal} | n/a |")

    def one_rank_best(d, **where):
        runs = [r for r in pick(records, kind="cpp_point", d=d, gamma=0.25, ranks=1, blas_core=meta.get("blas_core"), **where)]
        return min(runs, key=lambda x: x["seconds"]["total"]) if runs else None

    def gemm_flops(r):
        """The flops of the point's covariance GEMM: dsyrk's d(d+1)N, or (d + 128) d V for H E^T."""
        d = r["d"]
        return (d + 128.0) * d * r["V"] if r.get("covariance_path") == "tokens" else d * (d + 1.0) * r["N"]

    for d in dims:
        r = one_rank_best(d, path_option="panels")
        if r is None:
            continue
        rate = gemm_flops(r) / r["seconds"]["covariance"] * 1e-9
        same = r.get("same_moment", {}).get("dgemm_gflops")
        gemm = one(records, kind="dgemm", d=d, threads=2, blas_core=meta.get("blas_core"))
        if same:
            target(f"covariance by panels (dsyrk): rate / DGEMM rate measured right after it in the same process, d={d}, "
                   f"1 rank x 2 threads ({fmt(rate, 1)} vs {fmt(same, 1)} GFLOP/s; the limits table's DGEMM: "
                   f"{fmt(gemm and gemm['gflops'], 1)})", rate / same, ">= 0.8", rate / same >= 0.8)
        elif gemm:
            target(f"covariance by panels (dsyrk): rate / DGEMM rate, d={d} ({fmt(rate, 1)} vs {fmt(gemm['gflops'], 1)} GFLOP/s)",
                   rate / gemm["gflops"], ">= 0.8", rate / gemm["gflops"] >= 0.8)
        t = one_rank_best(d, path_option="auto")
        if t is not None and t.get("covariance_path") == "tokens" and same:
            panels_floor = d * (d + 1.0) * t["N"] / (same * 1e9)
            print(f"| (default path) covariance through the vocabulary, d={d}: {fmt(t['seconds']['covariance'])} s, "
                  f"including building H, for dsyrk's d(d+1)N flops at that DGEMM rate {fmt(panels_floor)} s; its dgemm "
                  f"does (d+128)dV = {fmt(gemm_flops(t) * 1e-9, 1)} GFLOP, {fmt(gemm_flops(t) / t['seconds']['covariance'] * 1e-9, 1)} "
                  f"GFLOP/s over the stage | {fmt(panels_floor / t['seconds']['covariance'], 2)} | (dsyrk at DGEMM rate / stage) | |")
    for d in dims:
        cpp = [r["seconds"]["total"] for r in pick(records, kind="cpp_point", d=d, gamma=0.25)]
        best = one_rank_best(d)
        npy = [r["seconds"]["total"] for r in pick(records, kind="numpy_point", d=d, gamma=0.25)]
        if cpp and npy:
            speedup = min(npy) / min(cpp)
            target(f"numpy total / C++ total, d={d} (best of each: {fmt(min(npy))} s vs {fmt(min(cpp))} s)", speedup,
                   ">= 4 (at d=2000)", speedup >= 4)
            # The floor of the fastest point's algorithm: its covariance GEMM's flops at the DGEMM
            # rate plus the tridiagonal reduction and the tridiagonal eigenvalues.
            gemm = one(records, kind="dgemm", d=d, threads=2, blas_core=meta.get("blas_core"))
            trd = one(records, kind="dsytrd", d=d, threads=2)
            sterf = one(records, kind="dsterf", d=d, threads=2)
            if gemm and trd and sterf and best:
                floor = gemm_flops(best) / (gemm["gflops"] * 1e9) + trd["seconds"] + sterf["seconds"]
                print(f"| (limit) numpy total / floor of a C++ point, d={d}: its covariance GEMM ({best.get('covariance_path')}) "
                      f"at DGEMM rate + dsytrd + dsterf = {fmt(floor)} s, before any data generation, pooling or H "
                      f"| {fmt(min(npy) / floor, 2)} | (bound) | |")
    for d in dims:
        r = one_rank_best(d)
        ref = one(records, kind="dsyevd_all_vectors", d=d, threads=2)
        same = r.get("same_moment", {}).get("dsyevd_all_vectors_seconds") if r else None
        if r and (same or ref):
            base = same or ref["seconds"]
            ratio = r["seconds"]["eigen"] / base
            where = "right after it in the same process" if same else "in the limits table"
            target(f"eigen stage / dsyevd all vectors {where}, d={d} ({fmt(r['seconds']['eigen'])} s vs {fmt(base)} s; "
                   f"dsytrd alone: {fmt(one(records, kind='dsytrd', d=d, threads=2) and one(records, kind='dsytrd', d=d, threads=2)['seconds'])} s "
                   f"of {fmt(ref and ref['seconds'])} s in the limits table)", ratio, "<= 0.5", ratio <= 0.5)
    low = [r for r in pick(records, kind="cpp_point", ranks=1) if r["gamma"] == 0.05]
    high = [r for r in pick(records, kind="cpp_point", ranks=1) if r["gamma"] == 1.0]
    if low and high:
        ratio = low[-1]["peak_rss_mb"] / high[-1]["peak_rss_mb"]
        target(f"peak memory gamma=0.05 / gamma=1, d={low[-1]['d']} ({fmt(low[-1]['peak_rss_mb'], 0)} vs "
               f"{fmt(high[-1]['peak_rss_mb'], 0)} MB)", ratio, "<= 1.25", ratio <= 1.25)
    wide = [r for r in pick(records, kind="cpp_point", ranks=1) if r["gamma"] == 4.0]
    if wide and high:
        ratio = wide[-1]["seconds"]["total"] / high[-1]["seconds"]["total"]
        target(f"point time gamma=4 (N<d) / gamma=1, d={wide[-1]['d']} ({fmt(wide[-1]['seconds']['total'])} s vs "
               f"{fmt(high[-1]['seconds']['total'])} s)", ratio, "<= 0.5", ratio <= 0.5)
    # Sweeps: 1 rank, 2 ranks and two independent 1-rank sweeps run one after the other in each
    # round; each ratio is taken within its round (the same minutes of this drifting machine),
    # and the rounds' ratios are averaged.
    ones = [r for r in pick(records, kind="sweep") if r["ranks"] == 1]
    twos = [r for r in pick(records, kind="sweep") if r["ranks"] == 2]
    alone = pick(records, kind="sweep_independent")
    if ones and twos:
        rounds = list(zip(ones, twos))
        ratios = [b["points_per_second"] / a["points_per_second"] for a, b in rounds]
        detail = "; ".join(f"{fmt(a['points_per_second'], 2)} and {fmt(b['points_per_second'], 2)} points/s"
                           for a, b in rounds)
        mean = sum(ratios) / len(ratios)
        target(f"sweep throughput 2 ranks / 1 rank, mean over {len(rounds)} rounds ({ones[0]['points']} points, "
               f"d={ones[0]['d']}; 1 rank and 2 ranks per round: {detail}; per round "
               f"{', '.join(fmt(x, 2) for x in ratios)})", mean, ">= 1.8", mean >= 1.8)
        if alone:
            limits = [c["points_per_second"] / a["points_per_second"] for a, c in zip(ones, alone)]
            print(f"| (limit) two independent 1-rank sweeps at once / 1 rank, same rounds "
                  f"({', '.join(fmt(c['points_per_second'], 2) for c in alone)} points/s; per round "
                  f"{', '.join(fmt(x, 2) for x in limits)}): the machine's own two-way scaling | "
                  f"{fmt(sum(limits) / len(limits), 2)} | (bound) | |")

if __name__ == "__main__":
    main()
