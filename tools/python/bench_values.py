#!/usr/bin/python3
"""Batch probe throughput from Python (`Tablebase.values`) next to C++ (`Tablebase::values`)
on the same positions, in one run, and their ratio.

    /usr/bin/python3 tools/python/bench_values.py --build build --dir /tmp/py-db16 --level 16

The positions are uniformly random positions of the level's database D_n (the side that
just moved has an empty pit), drawn with a fixed seed. Both sides use one thread, a warm
cache of 2 GiB; the script prints the best rate of each and the Python/C++ ratio; the C++ side is
owaredb_bench_values (tools/python/bench_values.cpp), built next to the module, which times
one Tablebase::values call over all positions (as `owaredb bench-probe` does) and calls of
4096 positions (as the module makes them); the ratio is against the faster of the two. The level
must exist: owaredb generate --max-seeds 16 --dir /tmp/py-db16.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def random_stored_positions(np, rng, level, count):
    """`count` uniform positions of D_level: stars and bars over 12 pits, rejecting those
    whose pits 6..11 are all non-empty."""
    out = []
    have = 0
    while have < count:
        m = 200000
        # 11 bars among level + 11 slots: the sorted bar positions split the seeds.
        bars = np.sort(np.argsort(rng.random((m, level + 11)), axis=1)[:, :11], axis=1)
        edges = np.concatenate([np.full((m, 1), -1), bars, np.full((m, 1), level + 11)], axis=1)
        pits = (np.diff(edges, axis=1) - 1).astype(np.uint8)
        pits = pits[(pits[:, 6:] == 0).any(axis=1)]
        out.append(pits)
        have += len(pits)
    return np.ascontiguousarray(np.concatenate(out)[:count])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="build tree (holds tools/python)")
    ap.add_argument("--dir", default="/tmp/py-db16", help="database directory")
    ap.add_argument("--rules", default="abapa")
    ap.add_argument("--level", type=int, default=16)
    ap.add_argument("--samples", type=int, default=2000000)
    ap.add_argument("--rounds", type=int, default=12,
                    help="rounds of three timed passes: C++ one call, C++ in chunks, Python")
    args = ap.parse_args()

    module_dir = os.path.join(args.build, "tools", "python")
    sys.path.insert(0, module_dir)
    import numpy as np
    import owaredb

    bench = os.path.join(module_dir, "owaredb_bench_values")
    rng = np.random.default_rng(1)
    positions = random_stored_positions(np, rng, args.level, args.samples)
    tb = owaredb.Tablebase(args.dir, args.rules, cache_bytes=2 << 30)
    if not tb.level_available(args.level):
        sys.exit("level %d of %s is not in %s: owaredb generate --rules %s --max-seeds %d --dir %s"
                 % (args.level, args.rules, args.dir, args.rules, args.level, args.dir))
    values = tb.values(positions)  # warm the cache
    checksum = int(values.sum(dtype=np.int64))

    # Passes alternate: C++ one call, C++ in chunks, Python, in rotating order, so that all
    # three see the same load (the machine may be shared) and the same cache history; best
    # of each and the median of the ratios of a round's Python pass to its better C++ pass.
    best = {"whole": 0.0, "chunked": 0.0, "python": 0.0}
    ratios = []
    with tempfile.NamedTemporaryFile(suffix=".pos") as f:
        f.write(positions.tobytes())
        f.flush()
        cpp = subprocess.Popen([bench, args.dir, args.rules, f.name], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
        if cpp.stdout.readline().strip() != "ready":
            sys.exit("%s failed" % bench)

        def cpp_pass(mode):
            cpp.stdin.write(mode + "\n")
            cpp.stdin.flush()
            got, rate, total = cpp.stdout.readline().split()
            if got != mode or int(total) != checksum:
                sys.exit("C++ and Python values differ (checksums %s, %d)" % (total, checksum))
            return float(rate)

        def python_pass():
            t0 = time.perf_counter()
            v = tb.values(positions)
            rate = len(positions) / (time.perf_counter() - t0)
            assert int(v.sum(dtype=np.int64)) == checksum
            return rate

        order = ["whole", "chunked", "python"]
        for r in range(args.rounds):
            rate = {}
            for m in order[r % 3:] + order[:r % 3]:  # each goes first, second, third in turn
                rate[m] = python_pass() if m == "python" else cpp_pass(m)
            for m in best:
                best[m] = max(best[m], rate[m])
            ratios.append(rate["python"] / max(rate["whole"], rate["chunked"]))
        cpp.stdin.close()
        cpp.wait()

    # For scale: one value() call per position, and values() on every core.
    few = positions[:100000]
    t0 = time.perf_counter()
    for p in few:
        tb.value(p)
    loop = len(few) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    tb.values(positions, threads=0)
    all_cores = len(positions) / (time.perf_counter() - t0)
    wide = positions.astype(np.int64)
    t0 = time.perf_counter()
    tb.values(wide)
    int64 = len(positions) / (time.perf_counter() - t0)

    ratios.sort()
    print("level %d of %s, %d random positions of D_%d, warm cache, 1 thread, best of %d rounds"
          % (args.level, args.rules, len(positions), args.level, args.rounds))
    print("  C++    Tablebase::values, one call        %12.0f values/s" % best["whole"])
    print("  C++    Tablebase::values, 4096 at a time  %12.0f values/s" % best["chunked"])
    print("  Python tb.values(uint8 array)             %12.0f values/s" % best["python"])
    print("  ratio Python / C++: best %.3f, median of rounds %.3f (%.3f..%.3f)"
          % (best["python"] / max(best["whole"], best["chunked"]), ratios[len(ratios) // 2],
             ratios[0], ratios[-1]))
    print("  for scale: tb.values(int64 array) %.0f/s, tb.values(threads=0) on %d cores %.0f/s,"
          % (int64, os.cpu_count(), all_cores))
    print("             a Python loop of tb.value(row) %.0f/s" % loop)


if __name__ == "__main__":
    main()
