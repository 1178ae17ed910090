#!/usr/bin/env bash
# Streamed mode writes the in-memory mode's files byte for byte: levels 0..14 of both rule
# sets with 2 threads (--mode streamed, streamed-4bit and streamed-2bit against --mode
# in-memory), and runs whose budget switches from in-memory to streamed
# part-way, and from streamed to streamed-4bit and streamed-2bit (--mode auto, --memory).
#   streamed_test.sh /path/to/owaredb [max_seeds]
set -uo pipefail
owaredb=$1
quick=${OWAREDB_QUICK:-0}
max=${2:-$([[ $quick != 0 ]] && echo 12 || echo 14)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# same <reference dir> <dir> <what>: every level file of the reference is in dir, equal
same() {
  local n=0
  for f in "$1"/*.owdb; do
    n=$((n + 1))
    cmp -s "$f" "$2/$(basename "$f")" || fail "$3: $(basename "$f") differs from in-memory mode"
  done
  ((n == max + 1)) || fail "$3: $n reference files"
  left=$(find "$2" -name '*.exits' -o -name '*.checkpoint' -o -name '*.scan[0-9]*' | wc -l)
  ((left == 0)) || fail "$3: scratch files left: $(ls "$2")"
}

for rules in abapa awari; do
  ref="$work/$rules-in-memory"
  "$owaredb" generate --rules "$rules" --max-seeds "$max" --dir "$ref" --mode in-memory \
    >"$work/out" 2>&1 || fail "$rules: in-memory run: $(tail -3 "$work/out")"
  # Two threads: one takes the same paths without the races, and the engines' suites
  # (streamed_tests, nibble_tests, wld_tests) build every level with 1 and 2 threads.
  for mode in streamed streamed-4bit streamed-2bit; do
    dir="$work/$rules-$mode"
    "$owaredb" generate --rules "$rules" --max-seeds "$max" --dir "$dir" --mode $mode \
      --threads 2 >"$work/out" 2>&1 || fail "$rules: $mode run: $(tail -3 "$work/out")"
    grep -q "level $max solved ($mode)" "$work/out" || fail "$rules: level $max not $mode"
    grep -q "in-memory" "$work/out" && fail "$rules: --mode $mode built a level in memory"
    same "$ref" "$dir" "$rules, $mode"
    # The build record counts the level's scans (one a threshold: no stack overflowed at
    # these sizes), and for the 4- and 2-bit words the most parents a full stack spilled.
    python3 -c "
import json, sys
row = [json.loads(l) for l in open('$dir/owaredb-build.jsonl') if '\"level\":$max,' in l][-1]
assert row['scans'] == $max, row
assert ('spilled_peak' in row) == ('$mode' != 'streamed') and row.get('spilled_peak', 0) == 0, row
" || fail "$rules, $mode: the build record's scans and spilled_peak"
  done
done

# --mode auto in 60 MiB: no level fits in memory (its margin is 128 MiB); a level is
# streamed while its byte a position fits beside the 56 MiB margin (awari 13: 2.5 M
# positions), and streamed with 4 bits above (awari 14: 4.5 M); same bytes.
dir="$work/awari-auto-4bit"
"$owaredb" generate --rules awari --max-seeds "$max" --dir "$dir" --memory 60M >"$work/out" 2>&1 \
  || fail "auto 4-bit run: $(tail -3 "$work/out")"
grep -q "level 12 solved (streamed)" "$work/out" || fail "auto 4-bit: level 12 not streamed"
if ((max >= 14)); then
  grep -q "level 13 solved (streamed)" "$work/out" || fail "auto 4-bit: level 13 not streamed"
  grep -q "level 14 solved (streamed-4bit)" "$work/out" || fail "auto 4-bit: level 14 not 4-bit"
fi
same "$work/awari-in-memory" "$dir" "auto 4-bit"
# --mode auto in 60.5 MB (57.7 MiB): awari 12's byte a position fits beside the margin, 13's
# does not but its 4 bits do, 14's 4 bits do not but its 2 bits do; same bytes.
if ((max >= 14)); then
  dir="$work/awari-auto-2bit"
  "$owaredb" generate --rules awari --max-seeds "$max" --dir "$dir" --memory 60500000 \
    >"$work/out" 2>&1 || fail "auto 2-bit run: $(tail -3 "$work/out")"
  grep -q "level 12 solved (streamed)" "$work/out" || fail "auto 2-bit: level 12 not streamed"
  grep -q "level 13 solved (streamed-4bit)" "$work/out" || fail "auto 2-bit: level 13 not 4-bit"
  grep -q "level 14 solved (streamed-2bit)" "$work/out" || fail "auto 2-bit: level 14 not 2-bit"
  same "$work/awari-in-memory" "$dir" "auto 2-bit"
fi

# --mode auto: in memory while level n and the smaller ones fit 130 MiB (past the 128 MiB
# margin: 2 bytes a position of level n, 1 of the smaller levels, which holds up to level
# 11), streamed from level 12 on; same bytes.
dir="$work/abapa-auto"
"$owaredb" generate --rules abapa --max-seeds "$max" --dir "$dir" --memory 130M >"$work/out" 2>&1 \
  || fail "auto run: $(tail -3 "$work/out")"
grep -q "level 11 solved (in-memory)" "$work/out" || fail "auto: level 11 not in memory"
grep -q "level 12 solved (streamed)" "$work/out" || fail "auto: level 12 not streamed"
grep -q "level $max solved (streamed)" "$work/out" || fail "auto: level $max not streamed"
grep -Eq "^ +$max +streamed " "$work/out" || fail "auto: the table does not say streamed"
same "$work/abapa-in-memory" "$dir" "auto"
# A rerun over a finished streamed directory loads (checks) every level and changes nothing.
"$owaredb" generate --rules abapa --max-seeds "$max" --dir "$dir" --mode streamed >"$work/out" 2>&1 \
  || fail "rerun: $(tail -3 "$work/out")"
grep -q "solved (" "$work/out" && fail "rerun solved a level again"
grep -q "value +0 under abapa" "$work/out" || fail "rerun: no start position value"
same "$work/abapa-in-memory" "$dir" "rerun"
# Resumed where the first level to build is streamed: the levels below are checked, not
# loaded into memory, and the rest is built as before.
rm "$dir/abapa-$max.owdb"
"$owaredb" generate --rules abapa --max-seeds "$max" --dir "$dir" --memory 130M >"$work/out" 2>&1 \
  || fail "resume: $(tail -3 "$work/out")"
grep -q "levels 0..$((max - 1)) are on disk: checked, not loaded (level $max, the first to build, is streamed)" \
  "$work/out" || fail "resume: levels 0..$((max - 1)) not said to be checked only"
grep -q "level $max solved (streamed)" "$work/out" || fail "resume: level $max not streamed"
same "$work/abapa-in-memory" "$dir" "resume"

# --game 1: the levels a game of 1 seed per pit reaches, 0..10 and 12, in memory and
# streamed (level 12 over the files of 0..10: FileSmallerLevels opens only the levels a
# capture reaches), level 12 the same bytes as with level 11 built; a rerun builds nothing.
for mode in in-memory streamed; do
  dir="$work/abapa-game1-$mode"
  "$owaredb" generate --rules abapa --game 1 --mode "$mode" --dir "$dir" >"$work/out" 2>&1 \
    || fail "--game 1 $mode: $(tail -3 "$work/out")"
  [[ -e "$dir/abapa-11.owdb" ]] && fail "--game 1 $mode built level 11"
  grep -q "level 11: not part of a game of 1 seed per pit (it never has 11 seeds), not built" \
    "$work/out" || fail "--game 1 $mode: no line for the skipped level"
  for n in 00 05 10 12; do
    cmp -s "$work/abapa-in-memory/abapa-$n.owdb" "$dir/abapa-$n.owdb" \
      || fail "--game 1 $mode: abapa-$n.owdb differs from the full run's"
  done
  grep -q "1 per pit (12 seeds): value +0 under abapa" "$work/out" \
    || fail "--game 1 $mode: no start position value"
  "$owaredb" generate --rules abapa --game 1 --mode "$mode" --dir "$dir" >"$work/out" 2>&1 \
    || fail "--game 1 $mode rerun: $(tail -3 "$work/out")"
  grep -q "solved (" "$work/out" && fail "--game 1 $mode rerun solved a level again"
done
# A --game run resumed at its last level: level 11 is not part of the game, so the first
# level to build is 12 (streamed in 130 MiB), not 11; levels 0..10 are checked, not loaded.
dir="$work/abapa-game1-in-memory"
rm "$dir/abapa-12.owdb"
"$owaredb" generate --rules abapa --game 1 --dir "$dir" --memory 130M >"$work/out" 2>&1 \
  || fail "--game 1 resume: $(tail -3 "$work/out")"
grep -q "levels 0..10 are on disk: checked, not loaded (level 12, the first to build, is streamed)" \
  "$work/out" || fail "--game 1 resume: $(grep "are on disk" "$work/out" || echo "no line for the levels on disk")"
grep -q "level 12 solved (streamed)" "$work/out" || fail "--game 1 resume: level 12 not streamed"
cmp -s "$work/abapa-in-memory/abapa-12.owdb" "$dir/abapa-12.owdb" \
  || fail "--game 1 resume: abapa-12.owdb differs from the full run's"
"$owaredb" generate --rules abapa --game 1 --dir "$dir" --memory 130M >"$work/out" 2>&1 \
  || fail "--game 1 rerun at 130M: $(tail -3 "$work/out")"
grep -q "every level is on disk: checked, not loaded (level 12 is streamed)" "$work/out" \
  || fail "--game 1 rerun at 130M: the levels were loaded"
grep -q "solved (" "$work/out" && fail "--game 1 rerun at 130M solved a level again"
grep -q "1 per pit (12 seeds): value +0 under abapa" "$work/out" \
  || fail "--game 1 rerun at 130M: no start position value"
# verify and stats see level 11 as not part of the game, not as a gap.
dir="$work/abapa-game1-streamed"
for mode in in-memory streamed; do
  "$owaredb" verify --dir "$dir" --mode "$mode" >"$work/out" 2>&1 \
    || fail "verify --game 1 directory ($mode): $(tail -3 "$work/out")"
  grep -q "level 11: not part of a game of 1 seed per pit" "$work/out" \
    || fail "verify --mode $mode: no line for level 11"
  grep -q "level 12: .* values consistent" "$work/out" || fail "verify --mode $mode: level 12 unchecked"
done
"$owaredb" stats --dir "$dir" --all-configurations --json >"$work/game.json" 2>"$work/err" \
  || fail "stats --all-configurations on a --game directory: $(cat "$work/err")"
"$owaredb" stats --dir "$work/abapa-in-memory" --all-configurations --json >"$work/full.json" 2>&1
python3 - "$work/game.json" "$work/full.json" <<'PY' || fail "stats of the --game directory differ"
import json, sys
game = {l["seeds"]: l for l in json.load(open(sys.argv[1]))["levels"]}
full = {l["seeds"]: l for l in json.load(open(sys.argv[2]))["levels"]}
assert sorted(game) == list(range(11)) + [12], sorted(game)
assert all(game[n] == full[n] for n in game)
PY
"$owaredb" generate --game 1 --max-seeds 12 --dir "$work/both" >"$work/out" 2>&1 \
  && fail "--game with --max-seeds accepted"
grep -q "give it or --max-seeds, not both" "$work/out" || fail "--game with --max-seeds: $(cat "$work/out")"
"$owaredb" generate --game 5 --dir "$work/five" >"$work/out" 2>&1 && fail "--game 5 accepted"
grep -q "between 1 and 4" "$work/out" || fail "--game 5: $(cat "$work/out")"

echo "streamed: $failures failures"
((failures == 0))
