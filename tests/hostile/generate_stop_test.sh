#!/usr/bin/env bash
# generate told to stop, and the files beside its levels (#52 items 6, 8 and 9):
# - SIGTERM inside a level saves its checkpoint there, says so, exits 3; the rerun resumes
#   past the level's start and writes the files of an uninterrupted run;
# - a streamed run stopped, then finished in memory: no exit file or checkpoint is left;
# - --checkpoint-minutes -1 removes a checkpoint it will not use, saying so;
# - planted links at the exit file and the build record: their targets are left alone.
#   generate_stop_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$(realpath "$1")
# The work directory, check and finish: tests/tools/test_lib.sh.
source "$(dirname "$0")/../tools/test_lib.sh"
cd "$work"
top=${STOP_TEST_TOP:-13}
gen() { "$owaredb" generate --rules awari --max-seeds $top --threads 1 "$@"; }
"$owaredb" generate --rules awari --max-seeds $top --threads 2 --dir ref >/dev/null 2>&1 || echo "FAIL: the reference run"
same_as_ref() { # every level file of $1 equals the uninterrupted run's
  local n
  for ((n = 0; n <= top; n++)); do cmp -s "$1/awari-$(printf %02d $n).owdb" "ref/awari-$(printf %02d $n).owdb" || return 1; done
}
below_top() { # below_top <dir>: levels 0..top-1 copied from the reference
  mkdir -p "$1"; local n
  for ((n = 0; n < top; n++)); do cp "ref/awari-$(printf %02d $n).owdb" "$1/"; done
}
T=$(printf %02d $top)
# stop_inside <dir> <file> <args...>: generate level top, SIGTERM once <file> shows that the
# level has started; sets rc.
stop_inside() {
  local dir=$1 file=$2; shift 2
  "$owaredb" generate --rules awari --max-seeds $top --threads 1 --dir "$dir" "$@" \
    >"$dir.out" 2>"$dir.err" &
  local pid=$! i
  for ((i = 0; i < 6000; i++)); do
    [[ -e $dir/$file ]] && break
    sleep 0.01
  done
  sleep 0.2
  kill -TERM $pid
  wait $pid; rc=$?
}

echo "== SIGTERM inside a level: checkpoint saved, exit 3, resumed, same files"
below_top stop
stop_inside stop awari-$T.checkpoint --checkpoint-minutes 0
check "exit status 3 (got $rc)" test $rc -eq 3
check "it says so" grep -q "level $top: stopped by SIGTERM: checkpoint saved at stop/awari-$T.checkpoint; rerun the same command to resume" stop.err
check "the checkpoint is there, the level is not" test -f stop/awari-$T.checkpoint -a ! -e stop/awari-$T.owdb
cp stop/awari-$T.checkpoint stop.ckp
gen --dir stop >stop.out 2>stop.err
check "the rerun resumes past the level's start" grep -q "resuming from its checkpoint: first pass" stop.err
check "and writes the uninterrupted run's files" same_as_ref stop
check "leaving no checkpoint" test ! -e stop/awari-$T.checkpoint

echo "== a second signal stops it at once"
# Both are pending while the process is stopped: one asks to stop, the other ends it. (The
# python3 exec puts SIGINT back to its default, which a script's background job ignores.)
below_top twice
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$owaredb" generate --rules awari --max-seeds $top \
  --threads 1 --dir twice --mode streamed >/dev/null 2>twice.err &
pid=$!
for ((i = 0; i < 6000; i++)); do [[ -e twice/awari-$T.exits ]] && break; sleep 0.01; done
kill -STOP $pid; kill -TERM $pid; kill -INT $pid; kill -CONT $pid
wait $pid; rc=$?
check "ended by the second signal (status $rc)" test $rc -eq 130 -o $rc -eq 143
check "without stopping at a safe point" bash -c "! grep -q 'stopped by' twice.err"

echo "== a streamed run stopped, finished in memory: nothing left beside the level"
# The default interval (10 minutes) saves nothing in a level this short: the stop does.
below_top mixed
stop_inside mixed awari-$T.exits --mode streamed
check "streamed: exit status 3 (got $rc)" test $rc -eq 3
check "streamed: the stop saved a checkpoint" grep -q "stopped by SIGTERM: checkpoint saved at" mixed.err
check "streamed: checkpoint and exit file there" test -f mixed/awari-$T.checkpoint -a -f mixed/awari-$T.exits
gen --dir mixed --mode in-memory >/dev/null 2>&1
check "in memory after streamed: same files" same_as_ref mixed
check "no exit file left" test ! -e mixed/awari-$T.exits
check "no checkpoint left" test ! -e mixed/awari-$T.checkpoint

echo "== --checkpoint-minutes -1 removes a checkpoint it will not resume from"
below_top nockp
cp stop.ckp nockp/awari-$T.checkpoint 2>/dev/null || echo junk >nockp/awari-$T.checkpoint
gen --dir nockp --checkpoint-minutes -1 >/dev/null 2>nockp.err
check "it says so" grep -q "removed the checkpoint nockp/awari-$T.checkpoint: --checkpoint-minutes -1" nockp.err
check "and it is gone" test ! -e nockp/awari-$T.checkpoint
check "-1: same files" same_as_ref nockp

echo "== planted links: the exit file, the build record"
below_top links
echo "victim" >victim
echo "record victim" >record-victim
cp victim victim.orig
cp record-victim record-victim.orig
ln -s ../victim links/awari-$T.exits
ln -s ../record-victim links/owaredb-build.jsonl
gen --dir links --mode streamed >/dev/null 2>links.err
check "the exit file's link target is untouched" cmp -s victim victim.orig
check "the record's link target is untouched" cmp -s record-victim record-victim.orig
check "the record's link is named" grep -q "owaredb-build.jsonl: it is a symbolic link, not followed" links.err
check "links: same files" same_as_ref links

finish generate_stop
