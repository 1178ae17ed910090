#!/usr/bin/env bash
# `owaredb generate --pits P` (#28): levels of a board of P pits a side. The values
# themselves are checked against a reference written again from the rules
# (tests/retro/geometry_test.cpp); this checks what generate adds: the file names and
# headers, in-memory and streamed runs writing the same bytes (P = 3, 7; P = 8 has no
# streamed mode), a killed run resuming inside a level to the same bytes (P = 7's 3-bit and
# P = 8's 4-bit move counters), a game's levels (2Pk seeds, without 2Pk - 1), the start
# positions' lines, bound files, and every refusal.
#   pits_generate_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$1
source "$(dirname "$0")/test_lib.sh"
same_files() { # same_files DIR_A DIR_B: every level file of A is in B with the same bytes
  local f
  for f in "$1"/*.owdb; do
    cmp -s "$f" "$2/$(basename "$f")" || fail "$(basename "$f") differs between $1 and $2"
  done
}
# expect_refusal "what" "message part" args...: generate refuses them (test_lib.sh)
expect_refusal() { expect_status2 "$1" "$2" "$owaredb" generate "${@:3}"; }

# A game of 2 seeds per pit on 3 pits a side: levels 0..10 and 12, in memory and streamed.
"$owaredb" generate --pits 3 --rules awari --game 2 --mode in-memory --dir "$work/m3" \
  >"$work/m3.out" 2>&1 || fail "P=3 in memory: $(tail -3 "$work/m3.out")"
"$owaredb" generate --pits 3 --rules awari --game 2 --mode streamed --dir "$work/s3" \
  >"$work/s3.out" 2>&1 || fail "P=3 streamed: $(tail -3 "$work/s3.out")"
same_files "$work/m3" "$work/s3"
[[ $(ls "$work/m3"/*.owdb | wc -l) == 12 ]] || fail "P=3 game 2: $(ls "$work/m3" | tr '\n' ' ')"
[[ -f $work/m3/awari-p3-12.owdb && ! -e $work/m3/awari-p3-11.owdb && -f $work/m3/awari-p3-00.owdb ]] ||
  fail "P=3 names: $(ls "$work/m3" | tr '\n' ' ')"
grep -q "level 11: not part of a game of 2 seeds per pit (it never has 11 seeds), not built" \
  "$work/m3.out" || fail "P=3: level 11's line"
grep -q "a board of 3 pits a side" "$work/m3.out" || fail "P=3: the title names the board"
grep -qE "^  1 per pit \( 6 seeds\): value [+-][0-9]+ under awari" "$work/m3.out" ||
  fail "P=3: 1 per pit line"
grep -qE "^  2 per pit \(12 seeds\): value [+-][0-9]+ under awari" "$work/m3.out" ||
  fail "P=3: 2 per pit line"
grep -q "per pit (18 seeds)" "$work/m3.out" && fail "P=3: a start position beyond the levels"
# The header records the board (third knob byte), and a rerun loads every level.
"$owaredb" info "$work/m3/awari-p3-12.owdb" | grep -qE "^rules +awari \(knobs [0-9]+ [0-9]+ 3\)" ||
  fail "P=3 header: $("$owaredb" info "$work/m3/awari-p3-12.owdb" | head -4)"
"$owaredb" generate --pits 3 --rules awari --game 2 --dir "$work/m3" >"$work/again" 2>&1 ||
  fail "P=3 rerun"
grep -q "solved" "$work/again" && fail "P=3 rerun solved a level again"
# The directory's board is found without --pits by the commands that read it; the 6-pit
# names are not the 3-pit files.
"$owaredb" generate --rules awari --max-seeds 2 --dir "$work/m3" >"$work/out" 2>"$work/err" &&
  fail "a 6-pit run in a 3-pit directory was accepted"
grep -q "holds level files of a board of 3 pits a side" "$work/err" || fail "6 into 3: $(cat "$work/err")"

# P = 7 streamed and in memory, and killed inside levels (the 3-bit counter's largest
# board); P = 8 in memory (the 4-bit counter), killed too.
for pits in 7 8; do
  max=$((pits == 7 ? 11 : 10))
  modes=(in-memory)
  ((pits == 7)) && modes+=(streamed)
  ref="$work/ref$pits"
  "$owaredb" generate --pits "$pits" --max-seeds "$max" --mode in-memory --dir "$ref" \
    --checkpoint-minutes -1 >/dev/null 2>&1 || fail "P=$pits reference run"
  for mode in "${modes[@]}"; do
    dir="$work/killed$pits-$mode"
    kills=0
    for run in $(seq 12); do
      "$owaredb" generate --pits "$pits" --max-seeds "$max" --mode "$mode" --dir "$dir" \
        --checkpoint-minutes 0.002 >"$work/out" 2>&1 &
      pid=$!
      if ((kills < 3)); then
        # Kill soon after a checkpoint of a level appears: inside the level.
        for _ in $(seq 400); do
          compgen -G "$dir/*.checkpoint" >/dev/null && break
          kill -0 "$pid" 2>/dev/null || break
          sleep 0.02
        done
        sleep 0.1
        kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
        wait "$pid" 2>/dev/null
      else
        wait "$pid" || fail "P=$pits $mode: the last run failed: $(tail -3 "$work/out")"
        break
      fi
    done
    ((kills > 0)) || fail "P=$pits $mode: never killed"
    same_files "$ref" "$dir"
    [[ $(ls "$dir"/*.owdb | wc -l) == $((max + 1)) ]] || fail "P=$pits $mode: levels missing"
    compgen -G "$dir/*.checkpoint" >/dev/null && fail "P=$pits $mode: a checkpoint left behind"
  done
done

# Bound files on a 3-pit board: names, and the start positions' bounds.
"$owaredb" generate --pits 3 --rules awari --bounds --max-seeds 12 --dir "$work/m3" \
  >"$work/b3.out" 2>&1 || fail "P=3 bounds: $(tail -3 "$work/b3.out")"
[[ -f $work/m3/awari-p3-12.bounds.owdb ]] || fail "P=3 bound file name"
grep -qE "^  2 per pit \(12 seeds\): gM [0-9]+, gN [0-9]+" "$work/b3.out" || fail "P=3 bounds line"

# Refusals, each naming the problem.
expect_refusal "P=9" "--pits must be between 1 and 8, got 9" --pits 9 --dir "$work/x"
expect_refusal "P=0" "--pits must be between 1 and 8, got 0" --pits 0 --dir "$work/x"
expect_refusal "game too large" "--game must be between 1 and 3 (seeds per pit on 8 pits a side" \
  --pits 8 --game 4 --dir "$work/x"
expect_refusal "compact" "--compact is for the 6-pit board only" --pits 4 --compact --dir "$work/x"
expect_refusal "bounds on 7" "--bounds is for boards of up to 6 pits a side" \
  --pits 7 --bounds --dir "$work/x"
expect_refusal "streamed on 8" "a board of 8 pits a side has no streamed mode" \
  --pits 8 --mode streamed --dir "$work/x"
expect_refusal "another board" "--pits 4, but directory" --pits 4 --dir "$work/m3"
cp "$work/ref7/abapa-p7-00.owdb" "$work/m3/"
expect_refusal "two boards" "holds level files of boards of 3 pits a side" \
  --pits 3 --dir "$work/m3"
[[ -e $work/x ]] && fail "a refused run created its directory"

finish pits_generate_test
