#!/usr/bin/env bash
# compare's work directory, owaredb-compare-PID (#52 item 8): removed when SIGTERM, SIGINT
# or SIGHUP stops the compare, and one a killed compare left is removed by the next compare
# once its process is gone (one whose process lives is left alone).
#   compare_work_dirs_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$(realpath "$1")
# The work directory, check and finish: tests/tools/test_lib.sh.
source "$(dirname "$0")/../tools/test_lib.sh"
cd "$work"
top=14
"$owaredb" generate --rules awari --max-seeds $top --dir ours --threads 2 >/dev/null 2>&1
mkdir pub w one-ours one-pub
"$owaredb" export --from ours --to pub --memory 66M >/dev/null 2>&1
# One level a side: a compare that converts only it.
cp ours/awari-$top.owdb one-ours/ && cp pub/scores.$top one-pub/
compare() { "$owaredb" compare ours pub --work-dir w --memory 66M "$@"; }

# A compare that was killed: its directory stays, until a compare finds its process gone.
sleep 0 & dead=$!
wait $dead
mkdir -p w/owaredb-compare-$dead/level-3 && echo x >w/owaredb-compare-$dead/level-3/pass1-0
mkdir -p w/owaredb-compare-$$ # this script's: alive
compare --max-seeds 4 >/dev/null 2>&1
check "compare 0..4 is EQUAL" test $? -eq 0
check "a dead compare's work directory is removed" test ! -e w/owaredb-compare-$dead
check "a live process's is kept" test -d w/owaredb-compare-$$
rmdir w/owaredb-compare-$$

for sig in TERM INT HUP; do
  # A background job of a script ignores SIGINT, and so would the compare: the signals are
  # put back to their default before it starts (exec keeps the PID).
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$owaredb" compare one-ours one-pub --work-dir w --memory 66M \
    >/dev/null 2>"cmp-$sig.err" &
  pid=$!
  for ((i = 0; i < 6000; i++)); do
    [[ -n $(ls w/owaredb-compare-$pid/level-$top 2>/dev/null) ]] && break
    sleep 0.01
  done
  check "SIG$sig: the compare's conversion was under way" test -d w/owaredb-compare-$pid/level-$top
  kill -$sig $pid
  wait $pid 2>/dev/null; rc=$?
  check "SIG$sig ends the compare by that signal (status $rc)" test $rc -eq $((128 + $(kill -l $sig)))
  check "SIG$sig: its work directory is removed" test ! -e w/owaredb-compare-$pid
done

finish compare_work_dirs
