#!/usr/bin/env bash
# verify and stats on directories of boards of P != 6 pits a side (#28): every check in
# memory and streamed, the histograms and every configuration counted against the sizes
# the rules give (C(n+2P-1, 2P-1), |D_n| = that minus C(n+P-1, 2P-1)), a game's levels
# (2Pk - 1 left out) and its start value, and the directories refused: files of two
# boards in one, a --pits the files contradict.
#   pits_verify_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$1
source "$(dirname "$0")/test_lib.sh"

# A 3-pit abapa directory, levels 0..10.
top=10
"$owaredb" generate --rules abapa --pits 3 --max-seeds $top --dir "$work/p3" --threads 2 >"$work/gen3.log" 2>&1
check "generate --pits 3 succeeds" test $? -eq 0
check "generate --pits 3 writes 3-pit files" test -f "$work/p3/abapa-p3-$top.owdb"

"$owaredb" verify --dir "$work/p3" --threads 2 >"$work/v3.log" 2>&1
check "verify passes on a 3-pit directory (board found from its files)" grep -q "verify: OK" "$work/v3.log"
check "verify names the board" grep -q "board: 3 pits a side" "$work/v3.log"
size10=$(python3 -c "import math; print(math.comb($top+5,5) - math.comb($top+2,5))")
check "verify checks level $top's |D_$top| = $size10 positions" grep -q "level $top: $size10 values consistent (in memory" "$work/v3.log"
"$owaredb" verify --dir "$work/p3" --pits 3 --mode streamed --memory 80M >"$work/v3s.log" 2>&1
check "verify --pits 3 --mode streamed passes" grep -q "verify: OK" "$work/v3s.log"
check "verify --mode streamed checks every level streamed" bash -c "grep -q 'level $top: $size10 values consistent (streamed, ' '$work/v3s.log' && ! grep -q '(in memory,' '$work/v3s.log'"

"$owaredb" stats --dir "$work/p3" --json >"$work/s3.json" 2>"$work/s3.err"
check "stats --json on a 3-pit directory: pits 3, |D_n| positions a level, values summing to it" python3 -c "
import json, math
d = json.load(open('$work/s3.json'))
assert d['rules'] == 'abapa' and d['pits'] == 3, d
assert [l['seeds'] for l in d['levels']] == list(range($top + 1))
for l in d['levels']:
    n = l['seeds']
    assert l['positions'] == math.comb(n + 5, 5) - math.comb(n + 2, 5) == sum(l['values'].values()), l
    assert all(abs(int(v)) <= n for v in l['values'])
assert any(int(v) != 0 for v in d['levels'][-1]['values'])
"
"$owaredb" stats --dir "$work/p3" --json --all-configurations >"$work/a3.json" 2>/dev/null
check "stats --all-configurations on 3 pits counts C(n+5,5) a level, the stored values among them" python3 -c "
import json, math
d = json.load(open('$work/a3.json'))
s = {l['seeds']: l for l in json.load(open('$work/s3.json'))['levels']}
assert d['pits'] == 3 and len(d['levels']) == $top + 1
for l in d['levels']:
    n = l['seeds']
    assert l['positions'] == math.comb(n + 5, 5) == sum(l['values'].values()), l
    assert all(l['values'].get(v, 0) >= c for v, c in s[n]['values'].items()), n
"
check "stats --all-configurations streamed equals in memory" bash -c "diff '$work/a3.json' <('$owaredb' stats --dir '$work/p3' --json --all-configurations --mode streamed --memory 1M 2>/dev/null)"
check "stats text names the board" bash -c "'$owaredb' stats --dir '$work/p3' | head -1 | grep -qx 'rules abapa, 3 pits a side'"

# A 2-pit awari game of 3 seeds a pit: levels 0..10 and 12 (it never has 11 seeds).
"$owaredb" generate --rules awari --pits 2 --game 3 --dir "$work/g2" --threads 2 >"$work/gen2.log" 2>&1
check "generate --pits 2 --game 3 succeeds" test $? -eq 0
"$owaredb" verify --dir "$work/g2" >"$work/v2.log" 2>&1
check "verify passes on the 2-pit game's levels" grep -q "verify: OK" "$work/v2.log"
check "verify: level 11 is not part of the game, no gap" grep -q "level 11: not part of a game of 3 seeds per pit" "$work/v2.log"
# +1: the value the rules written again in tests/retro/reference_oware.hpp give it (value
# iteration over every level, one ply from the start), and what generate's summary says.
check "verify values the 2-pit start position of 3 seeds a pit +1" grep -q "start position, 3 seeds per pit (12 seeds, 2 pits a side): value +1 for the first player, a win" "$work/v2.log"
check "generate's summary gives the same start value" grep -q "3 per pit (12 seeds): value +1 under awari" "$work/gen2.log"
"$owaredb" verify --dir "$work/g2" --mode streamed >"$work/v2s.log" 2>&1
check "verify --mode streamed passes on the game's levels" grep -q "verify: OK" "$work/v2s.log"
check "streamed and in memory give the same start value" bash -c "diff <(grep '^start position' '$work/v2.log') <(grep '^start position' '$work/v2s.log')"
"$owaredb" stats --dir "$work/g2" --json --all-configurations >"$work/a2.json" 2>/dev/null
check "stats --all-configurations on the 2-pit game: C(n+3,3) a level, no level 11" python3 -c "
import json, math
d = json.load(open('$work/a2.json'))
assert d['rules'] == 'awari' and d['pits'] == 2
assert [l['seeds'] for l in d['levels']] == list(range(11)) + [12]
for l in d['levels']:
    assert l['positions'] == math.comb(l['seeds'] + 3, 3) == sum(l['values'].values()), l
"

# Refused: --pits against the files, files of two boards in one directory, a board outside
# 1..8, and published files (6 pits) with --pits 4.
expect_fail "verify --pits 4 on a 3-pit directory" "holds level files of a board of 3 pits a side" "$owaredb" verify --dir "$work/p3" --pits 4
expect_fail "stats --pits 4 on a 3-pit directory" "holds level files of a board of 3 pits a side" "$owaredb" stats --dir "$work/p3" --pits 4
expect_fail "verify --pits 9" "--pits must be between 1 and 8" "$owaredb" verify --dir "$work/p3" --pits 9
"$owaredb" generate --rules abapa --max-seeds 4 --dir "$work/mixed" >/dev/null 2>&1
cp "$work/p3"/abapa-p3-0[0-4].owdb "$work/mixed/"
expect_fail "verify refuses a directory with files of 3 and 6 pits a side" "holds level files of boards of 3 pits a side" "$owaredb" verify --dir "$work/mixed"
expect_fail "stats refuses a directory with files of 3 and 6 pits a side" "give each board a directory of its own" "$owaredb" stats --dir "$work/mixed" --json
mkdir -p "$work/published"
printf '\0' >"$work/published/scores.0"
expect_fail "verify --pits 4 on published files" "which are of the board of 6 pits a side, not 4" "$owaredb" verify --dir "$work/published" --pits 4

finish pits_verify_test
