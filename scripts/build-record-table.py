#!/usr/bin/env python3
"""The per-level table of a run, from its directory's build record (owaredb-build.jsonl).

A run that spans several processes (killed and resumed, one session after another, on a
machine shared with other work) has no single `owaredb generate` summary; the build record
keeps one row per level as it was written (tools/generate/build_record.hpp). This prints
them as a Markdown table: mode, wall seconds (solving, then writing), CPU seconds, CPU / T
(what the level would take on T otherwise idle cores, were its threads never idle: a
shared machine's wall time does not tell it), positions/s by that, peak RSS, file size and
bits/position; then the totals.

    scripts/build-record-table.py DIR [--levels A..B] [--cores T]

Only levels whose file is still there at the recorded size are shown (the last row of a
file wins, as in `owaredb generate`'s summary).
"""
import argparse
import json
import os
import sys


def parse_levels(text):
    a, _, b = text.partition("..")
    return int(a), int(b or a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--levels", type=parse_levels, default=(0, 48), help="A..B (default all)")
    ap.add_argument("--cores", type=int, default=2, help="T, the machine's cores (default 2)")
    args = ap.parse_args()
    record = os.path.join(args.dir, "owaredb-build.jsonl")
    try:
        lines = open(record).read().splitlines()
    except OSError as e:
        sys.exit(f"build-record-table: cannot read {record}: {e.strerror}")
    rows = {}
    for text in lines:
        try:
            row = json.loads(text)
        except json.JSONDecodeError:
            continue  # a line cut short by a crash, as generate skips it
        path = os.path.join(args.dir, row["file"])
        if os.path.exists(path) and os.path.getsize(path) == row["file_bytes"]:
            rows[row["level"]] = row
    first, last = args.levels
    chosen = [rows[n] for n in sorted(rows) if first <= n <= last]
    if not chosen:
        sys.exit(f"build-record-table: no recorded level {first}..{last} in {record}")
    t = args.cores
    print(f"| level | mode | positions | wall s (solve + write) | CPU s | CPU / {t} s | "
          f"positions/s (by CPU / {t}) | peak RSS | file | bits/position |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    wall = cpu = positions = file_bytes = 0
    for r in chosen:
        w = r["seconds"] + r["write_seconds"]
        c = r["cpu_seconds"]
        rss = max(r["peak_rss"]) / 2**30
        print(f"| {r['level']} | {r['mode']}{'+' if r['earlier_unknown'] else ''} | "
              f"{r['positions']:,} | {r['seconds']:,.0f} + {r['write_seconds']:,.0f} | "
              f"{c:,.0f} | {c / t:,.0f} | {r['positions'] / max(c / t, 1e-9):,.0f} | "
              f"{rss:.2f} GiB | {r['file_bytes'] / 2**30:.2f} GiB | "
              f"{8 * r['file_bytes'] / r['positions']:.3f} |")
        wall += w
        cpu += c
        positions += r["positions"]
        file_bytes += r["file_bytes"]
    print(f"\nlevels {chosen[0]['level']}..{chosen[-1]['level']} ({len(chosen)} levels, "
          f"{positions:,} positions, {file_bytes / 2**30:.1f} GiB of files): wall "
          f"{wall / 3600:.2f} h, CPU {cpu / 3600:.2f} h, CPU / {t} {cpu / t / 3600:.2f} h")
    if any(r["earlier_unknown"] for r in chosen):
        print("(+: resumed from a checkpoint that did not record the earlier runs' time; "
              "this run's part only)")


if __name__ == "__main__":
    main()
