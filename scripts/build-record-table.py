#!/usr/bin/env python3
"""The per-level table of a run, from its directory's build record (owaredb-build.jsonl).

A run that spans several processes (killed and resumed, one session after another, on a
machine shared with other work) has no single `owaredb generate` summary; the build record
keeps one row per level as it was written (tools/generate/build_record.hpp). This prints
them as a Markdown table: mode, wall seconds (solving, then writing), CPU seconds, CPU / T
(what the level would take on T otherwise idle cores, were its threads never idle: a
shared machine's wall time does not tell it), positions/s by that, the thresholds' CPU seconds, peak RSS, disk peak (the
level's files at most at once), file size and bits/position ("-" where the record has none);
then the totals.

    scripts/build-record-table.py DIR [--levels A..B] [--cores T] [--verify PROGRESS_FILE]

With --verify, a second table: what `owaredb verify --progress-file PROGRESS_FILE` spent
checking each level's values, over every run that checked it (a check killed and resumed
adds up), and where a check now stands.

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


def ranges(levels):
    """"0..28, 30, 32..33" for a sorted list of levels."""
    parts, i = [], 0
    while i < len(levels):
        j = i
        while j + 1 < len(levels) and levels[j + 1] == levels[j] + 1:
            j += 1
        parts.append(str(levels[i]) if i == j else f"{levels[i]}..{levels[j]}")
        i = j + 1
    return ", ".join(parts) or "none"


def disk_peak(row):
    """The most the level's files held at once while it was built (recorded since 0.2)."""
    return f"{row['disk_peak'] / 2**30:.2f} GiB" if "disk_peak" in row else "-"


def thresholds_cpu(row):
    """CPU seconds of the level's thresholds (recorded since 0.2, by this process: a
    level resumed from a checkpoint counts the resumed part)."""
    t = row.get("phases", {}).get("thresholds")
    return f"{t['cpu_seconds']:,.0f}" if t else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--levels", type=parse_levels, default=(0, 48), help="A..B (default all)")
    ap.add_argument("--cores", type=int, default=2, help="T, the machine's cores (default 2)")
    ap.add_argument("--verify", metavar="PROGRESS_FILE", help="verify's --progress-file")
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
          f"positions/s (by CPU / {t}) | thresholds CPU s | peak RSS | disk peak | file | "
          f"bits/position |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    wall = cpu = positions = file_bytes = 0
    for r in chosen:
        w = r["seconds"] + r["write_seconds"]
        c = r["cpu_seconds"]
        rss = max(r["peak_rss"]) / 2**30
        print(f"| {r['level']} | {r['mode']}{'+' if r['earlier_unknown'] else ''} | "
              f"{r['positions']:,} | {r['seconds']:,.0f} + {r['write_seconds']:,.0f} | "
              f"{c:,.0f} | {c / t:,.0f} | {r['positions'] / max(c / t, 1e-9):,.0f} | "
              f"{thresholds_cpu(r)} | {rss:.2f} GiB | {disk_peak(r)} | {r['file_bytes'] / 2**30:.2f} GiB | "
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
    if args.verify:
        print_verify_table(args.verify, first, last, t)


def print_verify_table(path, first, last, cores):
    """The check times of levels first..last that the progress file at `path` records."""
    try:
        doc = json.load(open(path))
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"build-record-table: cannot read the progress file {path}: {e}")
    times = {t["level"]: t for t in doc.get("times", [])}
    consistent = [n for n in doc.get("consistent", []) if first <= n <= last]
    print(f"\n| level | positions checked (timed) | wall s | CPU s | CPU / {cores} s | "
          "CPU ns/position |")
    print("|---:|---:|---:|---:|---:|---:|")
    wall = cpu = positions = 0
    untimed = []
    for n in consistent:
        t = times.get(n)
        if t is None:
            untimed.append(n)
            continue
        print(f"| {n} | {t['positions']:,} | {t['wall_seconds']:,.0f} | {t['cpu_seconds']:,.0f} | "
              f"{t['cpu_seconds'] / cores:,.0f} | {1e9 * t['cpu_seconds'] / t['positions']:,.0f} |")
        wall += t["wall_seconds"]
        cpu += t["cpu_seconds"]
        positions += t["positions"]
    print(f"\nverify: levels {ranges(consistent)} consistent; timed: "
          f"{positions:,} positions, wall {wall / 3600:.2f} h, CPU {cpu / 3600:.2f} h, "
          f"CPU / {cores} {cpu / cores / 3600:.2f} h")
    if untimed:
        print("consistent, no time recorded (checked by an owaredb that kept none): "
              + ranges(untimed))
    prefix = doc.get("prefix")
    if prefix and first <= prefix["level"] <= last:
        t = prefix.get("time")
        timed = (f" (timed: {t['positions']:,} of them, wall {t['wall_seconds']:,.0f} s, "
                 f"CPU {t['cpu_seconds']:,.0f} s)" if t else "")
        print(f"level {prefix['level']}: its first {prefix['positions']:,} positions consistent "
              f"so far{timed}")


if __name__ == "__main__":
    main()
