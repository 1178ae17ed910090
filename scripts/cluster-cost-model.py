#!/usr/bin/env python3
"""Cost model: awari levels 0..48 built by `mpirun owaredb generate` on a cluster.

Projects, per level and in total, the memory per node, the disk, the network volume and
the time, for clusters of N nodes (one rank per node, every core a thread), from costs
measured on the project's 2-core machine (docs/distributed.md, "Cost model", says where
each default comes from). Every input is a flag, so a measurement on another machine
replaces ours.

    scripts/cluster-cost-model.py                 # the table of docs/distributed.md
    scripts/cluster-cost-model.py --nodes 1 4 --cores 32 --memory-gb 128
"""
import argparse
from math import comb, log2


def level_size(n):
    """|D_n|: positions with n seeds where the side that just moved has an empty pit."""
    return comb(n + 11, 11) - comb(n + 5, 11)


# Propagation messages per position, by ranks: one for each position that joins a set and
# each other rank that holds some of its un-move parents (sampled on awari level 20 from its
# values; at K = 2, 4, 8 the same as generate counted; docs/distributed.md, "The level
# partition, measured"); between and past the measured K, linear in log2 K.
MESSAGES = {
    "imbalance": {1: 0.0, 2: 0.21, 4: 0.48, 8: 0.75, 16: 1.00, 64: 1.35, 256: 1.64},
    "ranges": {1: 0.0, 2: 0.55, 4: 0.97, 8: 1.29, 16: 1.56, 64: 1.96, 256: 2.27},
}


def messages_per_position(partition, nodes):
    table = MESSAGES[partition]
    ks = sorted(table)
    if nodes in table:
        return table[nodes]
    lo = max([k for k in ks if k < nodes], default=ks[0])
    hi = min([k for k in ks if k > nodes], default=ks[-1])
    if hi == lo:  # past the last measured K: the last step per doubling
        lo, hi = ks[-2], ks[-1]
    step = (table[hi] - table[lo]) / (log2(hi) - log2(lo))
    return table[lo] + step * (log2(nodes) - log2(lo))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Measured on the 2-core KVM (docs/results.md, docs/distributed.md):
    p.add_argument("--core-us", type=float, default=1.53,
                   help="core-microseconds per position at --ref-level (awari 24 and 26 "
                        "streamed: 2 threads x 294.3 s / 382.6 M and 2 x 588.8 s / 770.3 M)")
    p.add_argument("--ref-level", type=int, default=26)
    p.add_argument("--growth", type=float, default=1.03,
                   help="cost per position grows by this factor per level (levels 20 -> 26: "
                        "1.30 -> 1.53 core-us, 1.028 a level)")
    p.add_argument("--partition", choices=sorted(MESSAGES), default="imbalance",
                   help="how a level is split between the ranks: the level partition by row "
                        "imbalance (oware/partition.hpp) or index ranges (before it); sets the "
                        "messages per position (docs/distributed.md)")
    p.add_argument("--message-us", type=float, default=0.15,
                   help="core-microseconds of extra work per message (sending, delivering: a "
                        "message naming a child makes its receiver regenerate the child's "
                        "parents; awari 20 and 21 at K = 4: about 0.13 on rank 0, against "
                        "0.016-0.026 for the one-parent messages before)")
    p.add_argument("--bits", type=float, default=3.8,
                   help="bits per position of a level file (awari 24..27: 3.72-3.78)")
    p.add_argument("--write-us", type=float, default=0.09,
                   help="core-microseconds per position to compress a level (zstd 13, 2^16 "
                        "blocks; dbformat/README.md), done by rank 0's threads")
    # The cluster:
    p.add_argument("--nodes", type=int, nargs="+", default=[1, 16, 64, 256])
    p.add_argument("--cores", type=int, default=64, help="cores (threads) per node")
    p.add_argument("--memory-gb", type=float, default=256, help="memory per node")
    p.add_argument("--network-gbs", type=float, default=12.5,
                   help="network bandwidth per node, GB/s (12.5: 100 Gb/s)")
    p.add_argument("--disk-gbs", type=float, default=2.0,
                   help="read bandwidth of the database directory per node, GB/s (the exit "
                        "file is read once per threshold unless it stays in the page cache)")
    p.add_argument("--efficiency", type=float, default=0.5,
                   help="per-core speed on a loaded many-core node against our 2-core runs "
                        "(not measured: memory bandwidth and caches are shared)")
    p.add_argument("--max-level", type=int, default=48)
    p.add_argument("--levels", type=int, nargs="+", default=[28, 32, 36, 40, 44, 46, 47, 48])
    a = p.parse_args()

    GB = 1e9

    def core_us(n):
        return a.core_us * a.growth ** (n - a.ref_level)

    def level(n, nodes):
        size = level_size(n)
        messages = size * messages_per_position(a.partition, nodes)
        cpu = size * core_us(n) + messages * a.message_us  # core-us
        solve = cpu * 1e-6 / (nodes * a.cores * a.efficiency)
        # propagation + the writer's two reads of the other ranks' values
        net = messages * 8 + 2 * size * (nodes - 1) / nodes
        net_s = net / (nodes * a.network_gbs * GB)
        write = size * a.write_us * 1e-6 / (a.cores * a.efficiency)
        ram = size / nodes + (1 << 30) + (120 << 20)  # slice, request buffer, margin
        # Each threshold scan reads the rank's exit file (1 byte a position): from the page
        # cache when it fits beside the working bytes, else from the disk.
        cached = ram + size / nodes <= 0.9 * a.memory_gb * GB
        exits_s = 0 if cached else n * (size / nodes) / (a.disk_gbs * GB)
        return dict(size=size, seconds=solve + net_s + write + exits_s, ram=ram, net=net,
                    file=size * a.bits / 8, exits=size)

    print(f"Model: {a.cores} cores and {a.memory_gb:g} GB a node, {a.network_gbs:g} GB/s, "
          f"efficiency {a.efficiency:g}; {a.core_us} core-us/position at level "
          f"{a.ref_level}, x{a.growth} a level; the messages/position of {a.partition}, "
          f"{a.message_us} core-us each; {a.bits} bits/position on disk; exit files read at "
          f"{a.disk_gbs:g} GB/s when the page cache cannot hold them\n")
    header = f"{'n':>3} {'positions':>16} {'file GB':>9} {'exits GB':>9}"
    for nodes in a.nodes:
        header += f" | {'N=' + str(nodes) + ' RAM/node GB':>18} {'net GB':>8} {'hours':>7}"
    print(header)
    for n in a.levels:
        row = f"{n:>3} {level_size(n):>16,} {level(n, 1)['file'] / GB:>9.1f} {level_size(n) / GB:>9.1f}"
        for nodes in a.nodes:
            l = level(n, nodes)
            fits = "" if l["ram"] <= a.memory_gb * GB else "!"
            row += f" | {l['ram'] / GB:>17.1f}{fits or ' '} {l['net'] / GB:>8.0f} {l['seconds'] / 3600:>7.2f}"
        print(row)
    print("(! = does not fit the node's memory)\n")

    for name, levels in (("all levels 0..%d" % a.max_level, range(a.max_level + 1)),
                         ("without level 47 (Romein & Bal's set; no capture reaches it from 48)",
                          [n for n in range(a.max_level + 1) if n != 47])):
        positions = sum(level_size(n) for n in levels)
        print(f"{name}: {positions:,} positions, files {sum(level(n, 1)['file'] for n in levels) / GB:,.0f} GB")
        for nodes in a.nodes:
            total = sum(level(n, nodes)["seconds"] for n in levels)
            net = sum(level(n, nodes)["net"] for n in levels)
            peak = max(level(n, nodes)["ram"] for n in levels)
            print(f"  N = {nodes:>3} nodes ({nodes * a.cores:>5} cores): {total / 3600:7.1f} h, "
                  f"peak {peak / GB:6.1f} GB a node, network {net / 1e12:6.1f} TB")
    print("\nFor comparison: Romein & Bal 2002, 144 CPUs, 51 h; a 64-thread single-node solver "
          "with 566 GB of RAM, 17.5 h.")


if __name__ == "__main__":
    main()
