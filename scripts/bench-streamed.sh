#!/usr/bin/env bash
# Streamed mode against in-memory mode on one level, in one run: level N is solved REPS
# times in each mode, alternately, over the same files of levels 0..N-1 (hard links from
# DIR, which must hold them), with `--checkpoint-minutes -1`; prints each solve's seconds,
# the medians, their ratio (streamed / in-memory), the peak RSS of each mode, and checks
# that both modes wrote the same bytes.
#
#   scripts/bench-streamed.sh DIR N [REPS (default 3)] [MEMORY for the streamed runs]
#   scripts/bench-streamed.sh owaredb-data 18
#   scripts/bench-streamed.sh /tmp/data 20 3 160M
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh
dir=$1 n=$2 reps=${3:-3} memory=${4:-}
owaredb=${BUILD:-build}/tools/owaredb
rules=${RULES:-abapa}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_machine
bench_require_levels "$dir" "$rules" "$n"
target=$(printf '%s-%02d.owdb' "$rules" "$n")
declare -A seconds peak
for mode in in-memory streamed; do mkdir "$work/$mode"; done
for r in $(seq "$reps"); do
  for mode in in-memory streamed; do
    d="$work/$mode"
    rm -f "$d/$target"
    bench_link_levels "$dir" "$rules" "$n" "$d"
    extra=()
    [[ $mode == streamed && -n $memory ]] && extra=(--memory "$memory")
    /usr/bin/time -f '%M' -o "$work/rss" "$owaredb" generate --rules "$rules" --max-seeds "$n" \
      --dir "$d" --mode "$mode" --checkpoint-minutes -1 "${extra[@]}" >"$work/out" 2>/dev/null
    s=$(sed -n "s/^level *$n solved ($mode): [0-9]* positions in \([0-9.]*\) s.*/\1/p" "$work/out")
    echo "run $r $mode: $s s, peak $(( $(cat "$work/rss") / 1024 )) MiB"
    seconds[$mode]+="$s "
    peak[$mode]=$(cat "$work/rss")
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
mi=$(echo "${seconds[in-memory]}" | median)
st=$(echo "${seconds[streamed]}" | median)
echo "level $n ($rules): median in-memory $mi s, streamed $st s, streamed / in-memory $(awk "BEGIN {printf \"%.2f\", $st / $mi}");" \
  "peak RSS $((peak[in-memory] / 1024)) / $((peak[streamed] / 1024)) MiB"
cmp "$work/in-memory/$target" "$work/streamed/$target" && echo "files identical"
