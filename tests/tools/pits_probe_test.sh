#!/usr/bin/env bash
# `owaredb probe` on boards of P != 6 pits a side (#28). The library's values are checked
# against the solver's in tests/probe/board_probe_test.cpp; this checks what the command
# adds: the board taken from the directory (or --pits), positions of 2P numbers, the board
# drawn with P pits, every move's value against `owaredb show --pits`'s children probed
# alone (captured - value of the child), --batch answering as single queries, --pv adding
# up to the value, the start position against generate's summary, the error object of a
# missing level whose generate command builds it, and the refusals (wrong number of pits,
# --pits against the files, P outside 1..8, two boards in one directory).
#   pits_probe_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$1
source "$(dirname "$0")/test_lib.sh"
python=/usr/bin/python3
[[ -x $python ]] || python=python3

"$owaredb" generate --pits 4 --rules abapa --max-seeds 11 --dir "$work/p4" --threads 2 \
  >"$work/gen4.out" 2>&1 || fail "generate --pits 4: $(tail -3 "$work/gen4.out")"
"$owaredb" generate --pits 3 --rules awari --game 2 --dir "$work/p3" --threads 2 \
  >"$work/gen3.out" 2>&1 || fail "generate --pits 3: $(tail -3 "$work/gen3.out")"

# The board is the directory's: 8 numbers, 4 pits drawn.
out=$("$owaredb" probe --dir "$work/p4" "1 0 2 0 0 1 0 0" 2>&1) || fail "probe P=4: $out"
grep -q '^  move        1  2  3  4$' <<<"$out" || fail "P=4 board not drawn with 4 pits: $out"
grep -q '^  opponent    0  0  1  0$' <<<"$out" || fail "P=4 opponent row: $out"
same=$("$owaredb" probe --dir "$work/p4" --pits 4 "1 0 2 0 0 1 0 0" 2>&1)
[[ $same == "$out" ]] || fail "--pits 4 answers otherwise than the directory's board"

# Every move's value is captured - the value of its child, each child (from show) probed
# alone; the best moves are those worth the position's value.
check_moves() { # check_moves DIR P RULES POSITION
  local dir=$1 p=$2 rules=$3 position=$4 answer children child
  answer=$("$owaredb" probe --dir "$dir" --json "$position") || {
    fail "probe $position: $answer"
    return
  }
  children=$("$owaredb" show --pits "$p" --rules "$rules" "$position" | sed -n 's/.*-> //p')
  local values=()
  while read -r child; do
    [[ -n $child ]] || continue
    values+=("$("$owaredb" probe --dir "$dir" --json "$child" |
      "$python" -c 'import json,sys; print(json.load(sys.stdin)["value"])')")
  done <<<"$children"
  "$python" - "$answer" "$p" "${values[@]}" <<'EOF' || fail "moves of $position ($dir)"
import json, sys
a = json.loads(sys.argv[1]); p = int(sys.argv[2]); child = [int(v) for v in sys.argv[3:]]
assert len(a["position"].split()) == 2 * p, a
assert len(a["moves"]) == len(child), (a, child)
for m, c in zip(a["moves"], child):
    assert 1 <= m["move"] <= p and m["value"] == m["captured"] - c, (m, c)
if a["moves"]:
    assert a["value"] == max(m["value"] for m in a["moves"]), a
    assert a["best"] == [m["move"] for m in a["moves"] if m["value"] == a["value"]], a
EOF
}
for position in "1 0 2 0 0 1 0 0" "3 3 3 0 0 2 0 0" "0 5 0 1 2 0 1 0" "2 2 2 2 1 1 0 1" \
  "1 1 1 1 1 1 1 1" "0 0 0 0 3 0 2 0"; do
  check_moves "$work/p4" 4 abapa "$position"
done
for position in "2 0 3 1 0 2" "1 1 1 1 1 1" "4 0 0 0 2 0" "0 3 3 0 0 0"; do
  check_moves "$work/p3" 3 awari "$position"
done

# The start position (one per pit) against the value generate printed for it.
want=$(sed -n 's/.*1 per pit ( 8 seeds): value \([-+0-9]*\) under abapa.*/\1/p' "$work/gen4.out")
got=$("$owaredb" probe --dir "$work/p4" --json "1 1 1 1 1 1 1 1" |
  "$python" -c 'import json,sys; print("%+d" % json.load(sys.stdin)["value"])')
[[ -n $want && $got == "$want" ]] || fail "start position: probe $got, generate '$want'"

# --batch: one answer per line, the same as single queries; a line of the wrong size is an
# error record naming both counts; blank lines and comments get none.
printf '1 0 2 0 0 1 0 0\n# a comment\n\n4 4 4 4 4 4 4 4 4 4 4 4\n3 3 3 0 0 2 0 0\n' \
  >"$work/batch.txt"
"$owaredb" probe --dir "$work/p4" --batch --json <"$work/batch.txt" >"$work/batch.out"
[[ $? == 1 ]] || fail "a batch with an error line: status not 1"
[[ $(wc -l <"$work/batch.out") == 3 ]] || fail "batch answers: $(cat "$work/batch.out")"
[[ $(sed -n 1p "$work/batch.out") == "$("$owaredb" probe --dir "$work/p4" --json "1 0 2 0 0 1 0 0")" ]] ||
  fail "batch line 1 differs from a single query"
[[ $(sed -n 3p "$work/batch.out") == "$("$owaredb" probe --dir "$work/p4" --json "3 3 3 0 0 2 0 0")" ]] ||
  fail "batch line 5 differs from a single query"
grep -q '"line":4,.*"status":"invalid_position".*expected 8 pit counts (a board of 4 pits a side, as the databases), got 12' \
  "$work/batch.out" || fail "batch error record: $(sed -n 2p "$work/batch.out")"

# --pv: the captures along the line, signed for the side to move, and the seeds taken at
# the end (each replayed with show) add up to the value.
for position in "3 3 3 0 0 2 0 0" "0 5 0 1 2 0 1 0" "2 0 0 1 0 0 3 0"; do
  answer=$("$owaredb" probe --dir "$work/p4" --json --pv "$position") || fail "pv $position"
  "$python" - "$answer" <<'EOF' || fail "pv of $position: $answer"
import json, sys
a = json.loads(sys.argv[1])
assert a["pv"][0]["position"] == a["position"], a
total, sign = 0, 1
for step in a["pv"]:
    total += sign * step["captured"]
    sign = -sign
assert a["pv_end"] in ("game over", "endless play"), a
if a["pv_end"] == "game over":
    final = [int(x) for x in a["final_position"].split()]
    mover = sum(final[:4])
    # The game is over: the side to move either has no seeds or cannot feed.
    total += sign * (sum(final) if mover else -sum(final))
assert total == a["value"], (total, a["value"])
EOF
done

# A missing level: the error object names the levels and the generate command, with
# --pits; that command builds them, and the position is answered.
err=$("$owaredb" probe --dir "$work/p4" --json "2 2 2 2 2 2 0 0")
[[ $? == 1 ]] || fail "missing level: status not 1"
gen=$("$python" -c 'import json,sys; e=json.loads(sys.argv[1]); assert e["status"]=="not_available" and e["missing_levels"]==[12]; print(e["generate"])' "$err") ||
  fail "missing level error object: $err"
[[ $gen == "owaredb generate --rules abapa --pits 4 --max-seeds 12 --dir $work/p4" ]] ||
  fail "generate command: $gen"
"$owaredb" ${gen#owaredb } --threads 2 >"$work/gen12.out" 2>&1 || fail "the error's generate: $(tail -3 "$work/gen12.out")"
"$owaredb" probe --dir "$work/p4" --json "2 2 2 2 2 2 0 0" >/dev/null || fail "level 12 not found after generate"

# Refusals, each naming both sizes or the range.
expect_refusal() { expect_status2 "$1" "$2" "$owaredb" probe "${@:3}"; } # test_lib.sh
expect_refusal "12 numbers on 4 pits" "expected 8 pit counts (a board of 4 pits a side, as the databases), got 12" \
  --dir "$work/p4" "4 4 4 4 4 4 4 4 4 4 4 4"
expect_refusal "6 numbers on 4 pits" "got 6" --dir "$work/p4" "1 1 1 1 1 1"
expect_refusal "--pits 6 on 4-pit files" "holds level files of a board of 4 pits a side" \
  --dir "$work/p4" --pits 6 "1 1 1 1 1 1 1 1 1 1 1 1"
expect_refusal "--pits 9" "--pits must be between 1 and 8, got 9" --dir "$work/p4" --pits 9 "1 1"
cp "$work/p3/awari-p3-00.owdb" "$work/p4/"
expect_refusal "two boards in one directory" "4 pits a side" --dir "$work/p4" --rules abapa \
  "1 1 1 1 1 1 1 1"
grep -qF "3 pits a side" "$work/err" || fail "two boards: $(cat "$work/err")"

finish pits_probe_test
