#!/usr/bin/env bash
# Installs the built project into a temporary prefix, checks that its programs are there,
# builds the consumer against it with find_package(owaredb), and checks that both consumers
# agree with `owaredb probe` (and, inside them, that the library loaded reports the
# package's version).
#   run.sh <build dir> <source dir>
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# Every program is installed, and runs from there.
for prog in owaredb owaredb-serve omweso; do
  "$work/prefix/bin/$prog" --version >/dev/null || { echo "$prog not installed (or fails)"; exit 1; }
done
cmake -S "$src/tests/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/prefix/bin/owaredb" generate --rules abapa --max-seeds 6 --dir "$work/db" >/dev/null
expected=$("$work/prefix/bin/owaredb" probe --dir "$work/db" --json "1 0 0 1 0 1 0 1 0 0 1 0" |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print("value %d best %s" % (d["value"], " ".join(map(str, d["best"]))))')
# The C consumer's principal variation: the pits played, the ending (owaredb_pv_end: 0 game
# over, 1 endless play) and the final position.
expected_pv=$("$work/prefix/bin/owaredb" probe --dir "$work/db" --json --pv "1 0 0 1 0 1 0 1 0 0 1 0" |
  python3 -c 'import json,sys; d=json.load(sys.stdin); ends=["game over","endless play","ply limit","repetition"]
print("pv %s end %d final %s" % (" ".join(str(s["move"]) for s in d["pv"]), ends.index(d["pv_end"]), d["final_position"]))')
# Its search of a position above the levels built (0..6), with a node budget: deterministic.
expected_search=$("$work/prefix/bin/owaredb" probe --dir "$work/db" --json --search 100000n "3 1 0 2 0 2 0 1 0 1 1 0" |
  python3 -c 'import json,sys; s=json.load(sys.stdin)["search"]
print("search %s move %d value %d depth %d nodes %d pv %s moves %s" % (s["kind"], s["move"], s["value"], s["depth"],
  s["nodes"], " ".join(map(str, s["pv"])), " ".join("%d:%d:%d:%s:%d" % (m["move"], m["captured"], m["value"], m["bound"], m["proven"]) for m in s["moves"])))')
got=$(LD_LIBRARY_PATH="$work/prefix/lib" "$work/build/consumer" "$work/db" abapa)
got_c=$(LD_LIBRARY_PATH="$work/prefix/lib" "$work/build/consumer_c" "$work/db" abapa)
echo "owaredb probe: $expected"
echo "C++ consumer:  $got"
echo "C consumer:    $got_c"
echo "owaredb probe --pv: $expected_pv"
echo "owaredb probe --search: $expected_search"
[[ "$got" == "$expected" && "$got_c" == "$expected"$'\n'"$expected_pv"$'\n'"$expected_search" ]]
