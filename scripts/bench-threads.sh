#!/usr/bin/env bash
# Generation's thread scaling on one level: level N solved once for each thread count and
# mode, over the same files of levels 0..N-1 (hard links from DIR, which must hold them),
# with `--checkpoint-minutes -1`. Prints, per mode and thread count, the level's solving
# seconds (from generate's table, writing not included), its CPU seconds, its peak RSS, and
# the speed-up and efficiency against the mode's first thread count; checks that every run
# wrote the same bytes.
#
#   scripts/bench-threads.sh DIR N [THREADS (default "1 2 4 8 16")] [MODES (default "in-memory streamed")]
#   scripts/bench-threads.sh owaredb-data 20 "1 2"
# RULES (abapa): the rule set; OWAREDB: the command that runs owaredb (default
# build/tools/owaredb; a loader and its arguments may come first).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh
dir=$1 n=$2 thread_counts=${3:-1 2 4 8 16} modes=${4:-in-memory streamed}
read -ra owaredb <<<"${OWAREDB:-$PWD/${BUILD:-build}/tools/owaredb}"
rules=${RULES:-abapa}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-threads.XXXXXX")
trap 'rm -rf "$work"' EXIT
bench_machine
bench_require_levels "$dir" "$rules" "$n"
echo "== $rules level $n over $dir's 0..$((n - 1)); threads: $thread_counts; modes: $modes"
printf '%-10s %7s %10s %10s %9s %8s %10s\n' mode threads 'solve s' 'cpu s' 'peak MiB' speed-up efficiency
reference=
for mode in $modes; do
  first_seconds= first_threads=
  for t in $thread_counts; do
    d="$work/$mode-$t"
    bench_link_levels "$dir" "$rules" "$n" "$d"
    "${owaredb[@]}" generate --rules "$rules" --max-seeds "$n" --dir "$d" --mode "$mode" \
      --threads "$t" --checkpoint-minutes -1 >"$work/out" 2>"$work/err" ||
      { echo "$mode, $t threads: generate failed:"; tail -5 "$work/err"; exit 1; }
    # The summary table's row of level n: seconds ($4), peak MiB ($7), cpu s ($10).
    grep -q '^level  *mode  *positions  *seconds  *positions/s  *write s  *peak MiB  *file KiB  *bits/pos  *cpu s ' "$work/out" ||
      { echo "generate's table has other columns than this script reads:"; grep '^level ' "$work/out"; exit 1; }
    read -r seconds peak cpu < <(awk -v n="$n" -v m="$mode" '$1 == n && $2 == m {print $4, $7, $10; exit}' "$work/out")
    [[ -n ${seconds:-} ]] || { echo "$mode, $t threads: no row for level $n in generate's table"; exit 1; }
    if [[ -z $first_seconds ]]; then first_seconds=$seconds first_threads=$t; fi
    awk -v m="$mode" -v t="$t" -v s="$seconds" -v c="$cpu" -v p="$peak" -v s1="$first_seconds" -v t1="$first_threads" \
      'BEGIN {up = s1 / s; printf "%-10s %7d %10.2f %10.2f %9d %7.2fx %9.0f%%\n", m, t, s, c, p, up, 100 * up * t1 / t}'
    written=$(bench_level_file "$d" "$rules" "$n")
    if [[ -z $reference ]]; then
      reference=$written
    else
      cmp -s "$reference" "$written" || { echo "DIFFERENT: $mode with $t threads wrote other bytes"; exit 1; }
      rm -f "$written"
    fi
  done
done
echo "all runs wrote the same bytes"
