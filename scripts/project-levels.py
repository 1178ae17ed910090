#!/usr/bin/env python3
"""Projects what levels beyond a measured run need on this machine, from that run's table.

Reads the per-level table that `owaredb generate` prints (level, mode, positions, seconds,
positions/s, write s, peak MiB, file KiB, bits/pos, ...), fits the measured cost per
position (solving, and writing, separately) as exp(a + b n) over the levels >= --fit-from,
and prints, for n = 28, 30, ..., 48, the memory and disk each mode needs and the projected
time, then the projected wall time of levels 0..--total-up-to (the measured levels as
measured, the others projected).

    scripts/project-levels.py GENERATE_LOG [--fit-from 22] [--streamed-ratio 1.0]
        [--total-up-to 36] [--memory-gib 21.6] [--write-ns NS]

--write-ns replaces the writing fit by a measured cost per position, for when the fitted
levels were written at another zstd level than the projected ones will be (the writer's
tiers, dbformat/writer.hpp).

Memory per mode (docs/design.md; docs/results.md): in memory, 2 bytes a position of D_n
plus 1 byte a position of every smaller level; streamed, 1 byte a position of D_n and
about 56 MB (one process pushes capture exits from the smaller levels: no request
buffers). Disk: the file at the bits/position of the fit's last level, plus during the level the checkpoint (2 bytes a position in memory,
1 streamed) and, streamed, the exit file (1 byte a position).
"""
import argparse
import math
import re
import sys


def level_size(n):
    return math.comb(n + 11, 11) - math.comb(n + 5, 11)


def read_table(path):
    rows = {}
    pattern = re.compile(
        r"^\s*(\d+)\s+(in-memory|streamed|loaded)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+"
        r"(\d+)\s+([\d.]+)\s+([\d.]+)")
    for line in open(path):
        m = pattern.match(line)
        if m:
            n = int(m.group(1))
            rows[n] = dict(mode=m.group(2), positions=int(m.group(3)), seconds=float(m.group(4)),
                           write=float(m.group(6)), bits=float(m.group(9)))
    return rows


def fit(points):
    """Least squares of log(y) = a + b n."""
    xs = [n for n, _ in points]
    ys = [math.log(y) for _, y in points]
    k = len(xs)
    mx, my = sum(xs) / k, sum(ys) / k
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my - b * mx, b


def gib(b):
    return b / 2 ** 30


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--fit-from", type=int, default=22)
    ap.add_argument("--streamed-ratio", type=float, default=1.0,
                    help="streamed seconds over in-memory seconds, per position (measured)")
    ap.add_argument("--total-up-to", type=int, default=36)
    ap.add_argument("--memory-gib", type=float, default=21.6,
                    help="what --memory allows by default here (90 %% of available)")
    ap.add_argument("--write-ns", type=float, default=None,
                    help="writing ns per position for projected levels (default: the fit)")
    args = ap.parse_args()
    rows = read_table(args.log)
    solved = {n: r for n, r in rows.items() if r["mode"] != "loaded" and n >= args.fit_from}
    if len(solved) < 2:
        sys.exit(f"{args.log}: fewer than two solved levels >= {args.fit_from} in the table")
    a, b = fit([(n, r["seconds"] / r["positions"]) for n, r in solved.items()])
    wa, wb = fit([(n, max(r["write"], 1e-3) / r["positions"]) for n, r in solved.items()])
    last = max(solved)
    bits = solved[last]["bits"]
    print(f"fit over levels {min(solved)}..{last}: solving {1e9 * math.exp(a + b * last):.0f} ns "
          f"a position at n = {last}, x{math.exp(b):.3f} a level; writing "
          f"{1e9 * math.exp(wa + wb * last):.0f} ns at n = {last}, x{math.exp(wb):.3f} a level; "
          f"file {bits:.2f} bits/position (n = {last})")
    if args.write_ns is not None:
        print(f"projected levels: writing {args.write_ns:g} ns a position (--write-ns)")

    def seconds(n, streamed=False):
        solve = level_size(n) * math.exp(a + b * n) * (args.streamed_ratio if streamed else 1)
        write = args.write_ns * 1e-9 if args.write_ns is not None else math.exp(wa + wb * n)
        return solve + level_size(n) * write

    print()
    print("| n | positions | in memory: RAM | streamed: RAM | file | checkpoint (in memory / "
          "streamed) | exit file (streamed) | projected time (in memory / streamed) |")
    print("|---|---|---|---|---|---|---|---|")
    for n in range(28, 49, 2):
        size = level_size(n)
        smaller = sum(level_size(k) for k in range(n))
        ram_in = 2 * size + smaller
        ram_st = size + 56e6  # one process: no request buffers (exits pushed)
        mark_in = "" if gib(ram_in) <= args.memory_gib else " (over)"
        mark_st = "" if gib(ram_st) <= args.memory_gib else " (over)"
        print(f"| {n} | {size / 1e9:.2f} G | {gib(ram_in):.1f} GiB{mark_in} | "
              f"{gib(ram_st):.1f} GiB{mark_st} | {gib(size * bits / 8):.1f} GiB | "
              f"{gib(2 * size):.1f} / {gib(size):.1f} GiB | {gib(size):.1f} GiB | "
              f"{seconds(n) / 3600:.2f} / {seconds(n, True) / 3600:.2f} h |")
    total = 0.0
    for n in range(args.total_up_to + 1):
        if n in rows and rows[n]["mode"] != "loaded":
            total += rows[n]["seconds"] + rows[n]["write"]
        else:
            fits = 2 * level_size(n) + sum(level_size(k) for k in range(n)) <= \
                args.memory_gib * 2 ** 30
            total += seconds(n, streamed=not fits)
    print()
    print(f"levels 0..{args.total_up_to}: {total / 3600:.1f} h projected "
          f"(measured levels as measured; the others in memory while they fit "
          f"{args.memory_gib} GiB, streamed after)")


if __name__ == "__main__":
    main()
