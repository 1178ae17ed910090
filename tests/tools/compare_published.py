#!/usr/bin/env python3
"""Compares `owaredb stats --all-configurations --json` with a published table of value
distributions, level by level, and prints a line per level.

Usage: compare_published.py TABLE STATS_JSON [--require-up-to N] [--beside]

TABLE is Lincke's table (tests/data/lincke-awari-0-24.txt: "n total value:count ..."
per line, '#' comments). Every level present in both must agree exactly (total and every
count). --require-up-to N fails unless levels 0..N were all compared. --beside also
prints our levels that the table does not have, so that the two can be read together.
Exit status 0 when everything compared agrees."""
import json
import sys


def read_table(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            n, total = int(fields[0]), int(fields[1])
            counts = {}
            for item in fields[2:]:
                value, count = item.split(":")
                counts[int(value)] = int(count)
            if sum(counts.values()) != total:
                sys.exit(f"{path}: level {n}: the counts do not add up to {total}")
            table[n] = (total, counts)
    return table


def main():
    args = sys.argv[1:]
    require = None
    beside = False
    if "--require-up-to" in args:
        i = args.index("--require-up-to")
        require = int(args[i + 1])
        del args[i : i + 2]
    if "--beside" in args:
        args.remove("--beside")
        beside = True
    if len(args) != 2:
        sys.exit(__doc__)
    table = read_table(args[0])
    with open(args[1], encoding="utf-8") as f:
        ours = json.load(f)
    compared, failed = set(), False
    for level in ours["levels"]:
        n = level["seeds"]
        counts = {int(v): c for v, c in level["values"].items()}
        if n not in table:
            if beside:
                print(f"level {n:2d}: {level['positions']} configurations (no published row)",
                      " ".join(f"{v}:{c}" for v, c in sorted(counts.items())))
            continue
        total, published = table[n]
        diffs = [(v, counts.get(v, 0), published.get(v, 0))
                 for v in sorted(set(counts) | set(published))
                 if counts.get(v, 0) != published.get(v, 0)]
        if level["positions"] != total or diffs:
            failed = True
            print(f"level {n:2d}: DIFFERS: configurations ours {level['positions']}, "
                  f"published {total}; value: ours/published "
                  + " ".join(f"{v}:{a}/{b}" for v, a, b in diffs))
        else:
            print(f"level {n:2d}: {total} configurations, all {len(counts)} value counts agree")
        compared.add(n)
    if require is not None:
        missing = [n for n in range(require + 1) if n not in compared]
        if missing:
            failed = True
            print("not compared (no level file):", " ".join(map(str, missing)))
    print("published table: " + ("DIFFERS" if failed else f"agrees on {len(compared)} levels"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
