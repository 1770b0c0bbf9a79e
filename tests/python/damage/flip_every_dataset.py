"""Flips one byte at random offsets inside every dataset of a finished sweep file and runs `rmtsweep status`
on each copy: prints one JSON line per flip (dataset, offset, exit status, whether status named damage) and
a summary. Usage: flip_every_dataset.py RMTSWEEP SWEEP.h5 WORKDIR [FLIPS_PER_DATASET] [SEED] [--assemble]

With --assemble, `rmtsweep assemble COPY --output PHASE.h5` runs on each copy too: its exit status, and
whether it said so (a refusal, exit non-zero, or a warning naming the checksums that fail).

The flips land in a dataset's raw storage (h5py's get_offset and get_storage_size: contiguous datasets);
datasets without storage are listed as skipped. The journal beside the file is copied with it.
"""
import concurrent.futures
import json
import os
import queue
import random
import shutil
import subprocess
import sys

import h5py

ASSEMBLE = "--assemble" in sys.argv


def storage(path):
    """[(name, offset, size)] of every dataset with contiguous storage."""
    out = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            offset = obj.id.get_offset()
            size = obj.id.get_storage_size()
            out.append((name, offset, size))

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return out


def flipped_status(binary, sweep, copy, at, bit):
    """`rmtsweep status --json` on a copy of `sweep` (and its journal) with bit `bit` of byte `at` flipped."""
    shutil.copyfile(sweep, copy)
    if os.path.isdir(sweep + ".journal"):
        shutil.rmtree(copy + ".journal", ignore_errors=True)
        shutil.copytree(sweep + ".journal", copy + ".journal")
    with open(copy, "r+b") as f:
        f.seek(at)
        byte = f.read(1)[0]
        f.seek(at)
        f.write(bytes([byte ^ (1 << bit)]))
    done = subprocess.run([binary, "status", copy, "--json"], capture_output=True, text=True)
    named = False
    try:
        report = json.loads(done.stdout)
        named = report["verify"]["result"] == "damaged"
    except (ValueError, KeyError):
        pass
    out = {"exit": done.returncode, "named": named, "stderr": done.stderr.strip()[-300:]}
    if ASSEMBLE:
        phase = copy + ".phase.h5"
        assembled = subprocess.run([binary, "assemble", copy, "--output", phase, "--force", "--quiet"],
                                   capture_output=True, text=True)
        out["assemble_exit"] = assembled.returncode
        out["assemble_said"] = "checksums fail" in assembled.stderr
        out["assemble_stderr"] = assembled.stderr.strip()[-300:]
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--assemble"]
    binary, sweep, work = args[0], args[1], args[2]
    flips = int(args[3]) if len(args) > 3 else 3
    rng = random.Random(int(args[4]) if len(args) > 4 else 1)
    os.makedirs(work, exist_ok=True)
    results = []
    planned = []  # (index into results, offset, bit): the flips, drawn in order from the seed
    only = os.environ.get("FLIP_ONLY")  # a dataset name's part: flips there alone
    for name, offset, size in storage(sweep):
        if only and only not in name:
            continue
        if offset is None or size == 0:
            results.append({"dataset": name, "skipped": "no storage"})
            continue
        for _ in range(flips):
            at = offset + rng.randrange(size)
            planned.append((len(results), at, rng.randrange(8)))
            results.append({"dataset": name, "offset": at})
    # Each `status` mostly waits on its start (MPI's): several at once, each on a copy of its own.
    workers = 2 * (os.cpu_count() or 1)
    copies = queue.Queue()
    for i in range(workers):
        copies.put(os.path.join(work, f"flipped-{i}.h5"))

    def one(flip):
        index, at, bit = flip
        copy = copies.get()
        try:
            results[index].update(flipped_status(binary, sweep, copy, at, bit))
        finally:
            copies.put(copy)

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, planned))
    for r in results:
        print(json.dumps(r))
    flipped = [r for r in results if "exit" in r]
    missed = [r for r in flipped if r["exit"] == 0]
    # assemble exited 0 and said nothing of the damage
    silent = [r for r in flipped if ASSEMBLE and r["assemble_exit"] == 0 and not r["assemble_said"]]
    print(json.dumps({"flips": len(flipped), "nonzero_exit": len(flipped) - len(missed),
                      "assemble_silent": sorted({r["dataset"] for r in silent}),
                      "named_damage": sum(r["named"] for r in flipped),
                      "missed": sorted({r["dataset"] for r in missed}),
                      "skipped": [r["dataset"] for r in results if "skipped" in r]}))


if __name__ == "__main__":
    main()
