#!/usr/bin/env bash
# scripts/game-run.sh on the 1-seed-a-pit awari game (levels 0..10 and 12): a run started
# in the background builds, checks, counts and probes every level of the game; a second
# start while it runs starts nothing; a run whose files were damaged stops its checker with
# check/FAILED and says so in its status; with UP_TO past the game, the run goes on to the
# levels above it, each checked and counted; a check starts again, with the other settings, when
# the generation ends while it runs beside it, or starts while it runs alone.
#   game_run_test.sh OWAREDB
set -uo pipefail
source "$(dirname "$0")/test_lib.sh"
owaredb=$(realpath "$1")
script=$(realpath "$(dirname "$0")/../../scripts/game-run.sh")
published=$(realpath "$(dirname "$0")/../../docs/data/awari-all-configurations.jsonl")
# At nice 1, not the default 10 and 19: a run at those, in sessions of their own, gets what a
# busy machine spares (beside two busy loops at nice 0 this test took 265 s, not 27).
export OWAREDB=$owaredb GAME=1 POLL=1 MEMORY=1G CHECK_MEMORY=1G NICE=1 CHECK_NICE=1

# Waits up to 300 s for FILE to appear (a loaded 2-core machine, beside other suites).
wait_for() {
  local i
  for ((i = 0; i < 600; i++)); do
    [[ -e $1 ]] && return 0
    sleep 0.5
  done
  return 1
}

run=$work/run
"$script" start "$run" >"$work/start.out" 2>&1
check "start names the pinned binary" grep -q "binary: pinned" "$work/start.out"
"$script" start "$run" >"$work/start2.out" 2>&1
check "a second start starts no second generation" bash -c "! grep -q 'generation: started' '$work/start2.out'"
check "the run ends with every step done" wait_for "$run/check/done"
check "no check failed" test ! -e "$run/check/FAILED"
check "the generation exited 0" grep -qx 0 "$run/generate.exit"
# Where sessions are scheduled as groups (autogroup), the run's session yields as its nice says.
if [[ -w /proc/self/autogroup ]]; then
  check "the generation's session is scheduled at its nice" grep -q "^== start .*, its session at nice 1$" "$run/generate.log"
  check "the checker's session is scheduled at its nice" grep -q "^== checker .*, its session at nice 1$" "$run/check/checker.log"
fi
check "the settings keep both nice values" grep -q " NICE=1 CHECK_NICE=1$" "$run/settings"
check "the settings keep the checker's memory alone, verify's default" grep -q " CHECK_MEMORY_ALONE=auto " "$run/settings"
check "the game's levels and no others were built" bash -c \
  "cd '$run/data' && [[ \$(ls awari-*.owdb | tr '\n' ' ') == 'awari-00.owdb awari-01.owdb awari-02.owdb awari-03.owdb awari-04.owdb awari-05.owdb awari-06.owdb awari-07.owdb awari-08.owdb awari-09.owdb awari-10.owdb awari-12.owdb ' ]]"
check "every level was checked" grep -qx 12 "$run/check/verified-up-to"
check "verify said OK" grep -q "verify: OK" "$run/check/verify.log"
# The counted lines are the published file's lines of the same levels (levels 0..24 of it
# agree with Lincke's thesis, tests/tools/compare_published.py).
check "one counted line per level of the game, as docs/data has them" python3 -c "
import json, sys
mine = [json.loads(l) for l in open('$run/check/all-configurations.jsonl') if l.strip()]
published = {json.loads(l)['seeds']: json.loads(l) for l in open('$published') if l.strip()}
assert [m['seeds'] for m in mine] == list(range(11)) + [12], [m['seeds'] for m in mine]
for m in mine:
    assert m == published[m['seeds']], (m, published[m['seeds']])
"
check "the start position was probed with its line of play" grep -q "principal variation" "$run/check/start-pv.txt"
check "the start's value is the 12-seed file's" bash -c \
  "[[ \$(grep '^seeds' '$run/check/start-pv.txt') == \$('$owaredb' probe --dir '$run/data' --rules awari '1 1 1 1 1 1 1 1 1 1 1 1' | grep '^seeds') ]]"
"$script" status "$run" >"$work/status.out" 2>&1
check "status says done" grep -q "done: levels built, checked and counted" "$work/status.out"
"$script" report "$run" >"$work/report.out" 2>&1
check "report: a generation row for each level of the game" bash -c \
  "grep -q '^levels 0..12 (12 levels, ' '$work/report.out' && [[ \$(grep -cE '^\| [0-9]+ \| in-memory \|' '$work/report.out') == 12 ]]"
check "report: every level's check timed, over all its positions" bash -c \
  "grep -q '^verify: levels 0..10, 12 consistent; timed: ' '$work/report.out' && ! grep -q 'no time recorded' '$work/report.out' &&
   python3 -c \"
import re
text = open('$work/report.out').read()
built = dict(re.findall(r'^\\| (\\d+) \\| in-memory \\| ([\\d,]+) \\|', text, re.M))
checked = dict(re.findall(r'^\\| (\\d+) \\| ([\\d,]+) \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\|$', text, re.M))
assert len(built) == 12 and checked == built, (built, checked)
\""
check "report: the counted levels and the start's value" bash -c \
  "grep -q '^counted levels (check/all-configurations.jsonl): 0 1 2 3 4 5 6 7 8 9 10 12 ' '$work/report.out' && grep -q '^seeds' '$work/report.out'"
check "report: the line of play's length and end, as probed" bash -c \
  "plies=\$(grep -cE '^ *[0-9]+\\. ' '$run/check/start-pv.txt') && ((plies > 0)) &&
   grep -qE \"^principal variation: \$plies plies, [a-z]\" '$work/report.out'"
REPIN=1 "$script" start "$run" >"$work/repin.out" 2>&1
check "REPIN=1 pins the binary again" grep -q "binary: pinned" "$work/repin.out"
check "and a finished generation is not started again" grep -q "generation: finished" "$work/repin.out"
check "the pinned binary runs" bash -c "'$run/bin/owaredb' info '$run/data/awari-12.owdb' >/dev/null"
"$script" stop "$run" >/dev/null 2>&1
# A pid file left by a run that a reboot stopped, its pid now another process's: not ours.
sleep 300 &
stranger=$!
echo $stranger >"$run/generate.pid"
rm -f "$run/generate.exit"
"$script" status "$run" >"$work/status-stale.out" 2>&1
check "a pid file naming another process is not the generation" grep -q "generation: not running" "$work/status-stale.out"
kill $stranger 2>/dev/null
# Regression: stop returned while the generation was still saving its checkpoint, and a
# start right after failed on the directory's lock. A stand-in that takes 2 s to exit.
setsid bash -c 'trap "sleep 2; exit 0" TERM; while :; do sleep 0.2; done' slow-exit "$run" &
slow=$!
echo $slow >"$run/generate.pid"
"$script" stop "$run" >/dev/null 2>&1
check "stop returns once the generation is gone" bash -c "! kill -0 $slow 2>/dev/null"
# Regression: the generation's shell and /usr/bin/time die at once on SIGTERM, and stop
# returned then, while owaredb, their child, went on to save its checkpoint. A stand-in: a
# session leader that dies at once, its child 2 s later.
setsid bash -c '( echo $BASHPID >"$0/child.pid"; trap "sleep 2; exit 0" TERM
  while :; do sleep 0.2; done ) & wait' "$run" &
echo $! >"$run/generate.pid"
for _ in $(seq 50); do [[ -s $run/child.pid ]] && break; sleep 0.1; done
"$script" stop "$run" >/dev/null 2>&1
check "stop returns once the generation's children are gone" \
  bash -c "! kill -0 $(cat "$run/child.pid") 2>/dev/null"
rm -f "$run/child.pid"
echo 0 >"$run/generate.exit"

# A damaged level file of a finished generation (which would otherwise rebuild it): the
# checker stops with check/FAILED.
broken=$work/broken
mkdir -p "$broken"
cp -r "$run/data" "$broken/data"
echo 0 >"$broken/generate.exit"
python3 -c "
import sys
p = '$broken/data/awari-09.owdb'
b = bytearray(open(p, 'rb').read())
b[len(b) // 2] ^= 0x40
open(p, 'wb').write(bytes(b))
"
# check/FAILED appears whole: a `tee` that is slow to write (as a loaded machine makes one)
# shows no reader an empty FAILED (one was seen empty by this test under load, 2026-12-06).
slow=$work/slow-tee
mkdir -p "$slow"
printf '#!/bin/bash\nfor f in "$@"; do : >"$f"; done\nsleep 2\nexec %s "$@"\n' "$(command -v tee)" >"$slow/tee"
chmod +x "$slow/tee"
PATH=$slow:$PATH "$script" start "$broken" >/dev/null 2>&1
check "a damaged file fails the check" wait_for "$broken/check/FAILED"
check "the failure names the log" grep -q "see check/verify.log" "$broken/check/FAILED"
check "whose check names the damaged file" grep -q "DAMAGED .*awari-09.owdb" "$broken/check/verify.log"
check "the finished generation was not started again" test ! -e "$broken/generate.log"
"$script" status "$broken" >"$work/status-broken.out" 2>&1
check "status shows the failure" grep -q "failed" "$work/status-broken.out"
"$script" stop "$broken" >/dev/null 2>&1

# The checker's settings come from DIR/settings, not from the environment of a later start:
# a budget that verify refuses there fails the check, though this shell exports a good one
# (the generation has ended: the checker's budget is CHECK_MEMORY_ALONE's).
edited=$work/edited
mkdir -p "$edited"
cp -r "$run/data" "$edited/data"
echo 0 >"$edited/generate.exit"
echo "export RULES=awari GAME=1 MEMORY=1G CHECK_MEMORY=1G CHECK_MEMORY_ALONE=12parsecs NICE=1 CHECK_NICE=1" >"$edited/settings"
"$script" start "$edited" >/dev/null 2>&1
check "a budget from DIR/settings reaches the checker" wait_for "$edited/check/FAILED"
check "and verify names it" grep -q "12parsecs" "$edited/check/verify.log"
"$script" stop "$edited" >/dev/null 2>&1

# A copy of the finished run in DIR for the checker's restarts: CHECK_MEMORY 1G beside the
# generation, CHECK_MEMORY_ALONE 900M after it, and a pinned binary that records each verify's
# arguments and never ends the one with `--threads THREADS` (1: beside, 0: alone).
checker_run() {
  local dir=$1 threads=$2
  mkdir -p "$dir"
  cp -r "$run/data" "$run/bin" "$dir/"
  echo "export RULES=awari GAME=1 UP_TO=12 MEMORY=1G CHECK_MEMORY=1G CHECK_MEMORY_ALONE=900M NICE=1 CHECK_NICE=1" >"$dir/settings"
  cat >"$dir/bin/owaredb" <<EOF
#!/bin/bash
[[ \$1 == verify ]] && echo "\$*" >>"$dir/verify-args"
[[ \$1 == verify && " \$* " == *" --threads $threads "* ]] && exec sleep 600
exec "$run/bin/owaredb" "\$@"
EOF
}
# A stand-in generation of DIR (its command line names DIR, as the run's does); prints its pid.
stand_in_generation() {
  setsid bash -c 'while :; do sleep 0.2; done' stand-in-generation "$1" >/dev/null 2>&1 &
  echo $! >"$1/generate.pid"
  echo $!
}

# A check that the generation outlives starts again once the generation has ended, with every
# core and CHECK_MEMORY_ALONE.
alone=$work/alone
checker_run "$alone" 1
stand_in=$(stand_in_generation "$alone")
"$script" start "$alone" >"$work/alone-start.out" 2>&1
check "alone: the stand-in is taken for the generation" grep -q "generation: running" "$work/alone-start.out"
check "alone: the check starts beside it" wait_for "$alone/verify-args"
kill "$stand_in"
echo 0 >"$alone/generate.exit"
check "alone: the run ends with every step done" wait_for "$alone/check/done"
check "alone: no check failed" test ! -e "$alone/check/FAILED"
check "alone: the check beside the generation had one thread and CHECK_MEMORY" \
  bash -c "head -1 '$alone/verify-args' | grep -q -- '--memory 1G --threads 1 '"
check "alone: the check again had every core and CHECK_MEMORY_ALONE" \
  bash -c "sed -n 2p '$alone/verify-args' | grep -q -- '--memory 900M --threads 0 '"
check "alone: the log says why it started again" grep -q "the generation has ended: the check starts again, alone" "$alone/check/verify.log"
check "alone: every level was checked" grep -qx 12 "$alone/check/verified-up-to"
"$script" stop "$alone" >/dev/null 2>&1
# And the other way: a check alone when a generation starts again (whose memory it would take)
# starts again beside it.
again=$work/again
checker_run "$again" 0
echo 0 >"$again/generate.exit"
"$script" start "$again" >/dev/null 2>&1
check "again: the check starts alone" wait_for "$again/verify-args"
stand_in_generation "$again" >/dev/null
check "again: the run ends with every step done" wait_for "$again/check/done"
check "again: the check alone had every core and CHECK_MEMORY_ALONE" \
  bash -c "head -1 '$again/verify-args' | grep -q -- '--memory 900M --threads 0 '"
check "again: the check again had one thread and CHECK_MEMORY" \
  bash -c "sed -n 2p '$again/verify-args' | grep -q -- '--memory 1G --threads 1 '"
check "again: the log says why it started again" grep -q "a generation runs: the check starts again, beside it" "$again/check/verify.log"
"$script" stop "$again" >/dev/null 2>&1

# UP_TO beyond the game: the run goes on to the game's missing 12k-1 and the levels above
# 12k, each checked alone and counted once checked.
beyond=$work/beyond
mkdir -p "$beyond"
cp -r "$run/data" "$beyond/data"
UP_TO=13 "$script" start "$beyond" >/dev/null 2>&1
check "UP_TO: the run ends with every step done" wait_for "$beyond/check/done"
check "UP_TO: no check failed" test ! -e "$beyond/check/FAILED"
check "UP_TO: levels 11 and 13 were built after the game's" bash -c \
  "cd '$beyond/data' && [[ -f awari-11.owdb && -f awari-13.owdb && ! -e awari-14.owdb ]]"
check "UP_TO: the settings keep it" grep -q "UP_TO=13" "$beyond/settings"
check "UP_TO: each level above the game's was checked alone" bash -c \
  "grep -q 'verify levels 11..11,' '$beyond/check/verify.log' && grep -q 'verify levels 13..13,' '$beyond/check/verify.log'"
check "UP_TO: the last level checked is 13" grep -qx 13 "$beyond/check/verified-up-to"
check "UP_TO: every level counted once, as docs/data has them" python3 -c "
import json
mine = [json.loads(l) for l in open('$beyond/check/all-configurations.jsonl') if l.strip()]
published = {json.loads(l)['seeds']: json.loads(l) for l in open('$published') if l.strip()}
assert [m['seeds'] for m in mine] == list(range(14)), [m['seeds'] for m in mine]
for m in mine:
    assert m == published[m['seeds']], (m, published[m['seeds']])
"
"$script" stop "$beyond" >/dev/null 2>&1

finish game_run
