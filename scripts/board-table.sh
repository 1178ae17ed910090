#!/usr/bin/env bash
# The table of docs/results.md, "Other boards": for every directory given (one board and
# rule set each, as `owaredb generate --pits P --rules R --game K [--bounds]` leaves it),
# the start position of every k seeds per pit that its levels cover: its value, each first
# move's value, the principal variation's length and how it ends, and gM/gN where the
# bound files are there. One Markdown row each, from `owaredb probe --json --pv`.
#   scripts/board-table.sh OWAREDB DIR...
set -euo pipefail
owaredb=$1
shift
echo "| P | k | seeds | rules | value | first moves 1..P (value) | PV plies, end | gM, gN |"
echo "|---|---|---|---|---|---|---|---|"
for dir in "$@"; do
  name=$(ls "$dir" | grep -E '^[a-z0-9_]+(-p[1-8])?-[0-9]+\.owdb$' | sort | tail -n 1)
  [[ -n $name ]] || { echo "board-table: no level files in $dir" >&2; exit 1; }
  rules=${name%%-*}
  pits=6
  [[ $name =~ -p([1-8])- ]] && pits=${BASH_REMATCH[1]}
  top=$(ls "$dir" | sed -nE 's/^[a-z0-9_]+(-p[1-8])?-([0-9]+)\.owdb$/\2/p' | sort -n | tail -n 1)
  top=$((10#$top))
  for ((k = 1; 2 * pits * k <= top; k++)); do
    position=$(printf "$k %.0s" $(seq $((2 * pits))))
    "$owaredb" probe --dir "$dir" --rules "$rules" --pits "$pits" --json --pv "$position" |
      python3 -c '
import json, sys
pits, k, rules = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
d = json.load(sys.stdin)
moves = " ".join("%+d" % m["value"] if "value" in m else "?" for m in d["moves"])
bounds = "%d, %d%s" % (d["gM"], d["gN"], " (exact)" if d.get("exact") else "") if "gM" in d else "-"
print("| %d | %d | %d | %s | %+d | %s | %d, %s | %s |" % (pits, k, 2 * pits * k, rules, d["value"],
      moves, len(d["pv"]), d["pv_end"], bounds))
' "$pits" "$k" "$rules"
  done
done
