#!/usr/bin/env bash
# import/export resumed from work files (#52 items 1 and 8): a killed import's work files
# serve only the same source file; another source of the same level starts again, and work
# files left beside a finished level are removed by the next run.
#   convert_work_files_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
check() { # check <description> <command...>
  local what=$1; shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
cd "$work"
# The top level converted within the least budget its conversion takes (pass 2 in its
# narrowest bands, slow enough for a kill to land in it); the sanitizer runs
# (OWAREDB_QUICK) take level 14, a third of 16's positions.
top=16 budget=66M
[[ "${OWAREDB_QUICK:-0}" != 0 ]] && top=14 budget=64M
"$owaredb" generate --rules awari --max-seeds $top --dir gen --threads 2 >/dev/null 2>&1
mkdir exref fpub
"$owaredb" export --from gen --to exref --memory $budget >/dev/null 2>&1
cp exref/scores.* fpub/
# The forged copy: 200,000 values of the top level changed, each to another in-range value.
python3 -c "
import random, sys
p = 'fpub/scores.$top'
b = bytearray(open(p, 'rb').read())
random.seed(1)
for i in random.sample(range(len(b)), 200000):
    v = b[i] - 256 if b[i] > 127 else b[i]
    b[i] = (v + 1 if v < $top else -$top) & 0xff
open(p, 'wb').write(bytes(b))
"
mkdir fresh
"$owaredb" import --from fpub --to fresh --memory $budget >/dev/null 2>&1

# An import of exref killed once the top level's pass 1 is done (its slow banded pass 2
# leaves the time to see the marker).
kill_after_pass1() { # kill_after_pass1 <from> <to>
  "$owaredb" import --from "$1" --to "$2" --memory $budget >/dev/null 2>&1 &
  local pid=$! i
  for ((i = 0; i < 6000; i++)); do
    [[ -e $2/.owaredb-convert-$top/pass1.done ]] && break
    sleep 0.01
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  [[ -e $2/.owaredb-convert-$top/pass1.done && ! -e $2/awari-$top.owdb ]]
}
mkdir out
check "import killed after pass 1 of level $top" kill_after_pass1 exref out
"$owaredb" import --from fpub --to out --memory $budget >"$work/again.out" 2>&1
check "import of another source with the same level: 1 level converted" grep -q "1 levels converted" "$work/again.out"
check "its values are that source's, not the killed run's" cmp -s out/awari-$top.owdb fresh/awari-$top.owdb
check "and its work files are gone" test ! -e out/.owaredb-convert-$top

# The same source again resumes (the work files are used), a re-downloaded file does not.
mkdir redo
check "import killed again" kill_after_pass1 exref redo
cp fpub/scores.$top exref/scores.$top # a fixed file downloaded again
"$owaredb" import --from exref --to redo --memory $budget >/dev/null 2>&1
check "a re-downloaded source is converted again" cmp -s redo/awari-$top.owdb fresh/awari-$top.owdb

# Work files beside a finished level (killed after the output appeared) go with the next run.
mkdir -p out/.owaredb-convert-$top && cp redo/.owaredb-convert-$top/* out/.owaredb-convert-$top/ 2>/dev/null
echo "owaredb order conversion" >out/.owaredb-convert-$top/pass1.done
"$owaredb" import --from fpub --to out --memory $budget >"$work/kept.out" 2>&1
check "a finished level is kept" grep -q "0 levels converted, $((top + 1)) already there" "$work/kept.out"
check "and the work files left beside it are removed" test ! -e out/.owaredb-convert-$top

# A link planted at the work directory (#52 item 6): refused, and nothing is written or
# removed where it points.
mkdir linked target
echo keep >target/pass1-0
ln -s ../target linked/.owaredb-convert-$top
for ((n = 0; n < top; n++)); do cp fresh/awari-$(printf %02d $n).owdb linked/; done
"$owaredb" import --from fpub --to linked --memory $budget >/dev/null 2>"$work/linked.err"
check "a linked work directory is refused, named" grep -q "a symbolic link, not a work directory" "$work/linked.err"
check "and what it points to is untouched" test "$(ls target)" = pass1-0 -a "$(cat target/pass1-0)" = keep

echo "convert_work_files: $passes passed, $failures failed"
((failures == 0))
