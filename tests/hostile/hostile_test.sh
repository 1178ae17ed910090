#!/usr/bin/env bash
# The command line used as a hostile user would: concurrent writers, gaps, unwritable
# output for every command, planted symlinks, absurd option values, invalid UTF-8 and huge
# lines on every input path. Each check asserts the exit status and the message.
#   hostile_test.sh /path/to/owaredb /path/to/omweso
set -uo pipefail
owaredb=$1
omweso=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect <description> <status> <message part> <command...>: exit status and message on
# stderr (one line at most three), nothing else.
expect() {
  local what=$1 status=$2 msg=$3; shift 3
  local err rc
  err=$(timeout "${EXPECT_TIMEOUT:-120}" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -eq $status && "$err" == *"$msg"* && $(wc -l <<<"$err") -le 3 ]]; then pass
  else fail "$what: status $rc (want $status), stderr: ${err:0:300}"; fi
}
# json_lines <file>: every line is valid JSON
json_lines() { python3 -c 'import json,sys
for n, l in enumerate(open(sys.argv[1], "rb"), 1):
    json.loads(l)' "$1"; }

db="$work/db"
"$owaredb" generate --max-seeds 8 --dir "$db" --threads 2 >/dev/null 2>&1 || fail "generate 0..8"
start="1 1 1 1 1 1 1 1 0 0 0 0"

echo "== output that cannot be written (/dev/full): every command fails"
for cmd in "probe --dir $db" "probe --json --dir $db" "probe --pv --dir $db" "show" "perft --depth 2 --position"; do
  err=$($owaredb $cmd "$start" 2>&1 >/dev/full); rc=$?
  [[ $rc -eq 1 && "$err" == *"cannot write to standard output"* ]] && pass ||
    fail "owaredb $cmd > /dev/full: status $rc, $err"
done
for args in "stats --dir $db" "stats --json --dir $db" "stats --all-configurations --dir $db" \
            "verify --dir $db" "info $db/abapa-05.owdb" "perft --depth 3" \
            "generate --max-seeds 8 --dir $db" "bench-probe --dir $db --level 8 --samples 1000"; do
  err=$($owaredb $args 2>&1 >/dev/full); rc=$?
  [[ $rc -ne 0 && "$err" == *"cannot write to standard output"* ]] && pass ||
    fail "owaredb $args > /dev/full: status $rc, $err"
done
for input in "$start" "junk"; do
  err=$(echo "$input" | $owaredb probe --batch --json --dir "$db" 2>&1 >/dev/full); rc=$?
  [[ $rc -ne 0 && "$err" == *"cannot write to standard output"* ]] && pass ||
    fail "probe --batch > /dev/full ($input): status $rc, $err"
done
for args in "census --seeds 6" "census --seeds 6 --json" "show 2_2_2_2_2_2_2_2_2_2_2_2_2_2_2_2;_0_0_0_0_0_0_0_0_0_0_0_0_0_0_0_0" \
            "check --pit 0 2_2_2_2_2_2_2_2_2_2_2_2_2_2_2_2;_4_4_4_4_4_4_4_4_0_0_0_0_0_0_0_0" \
            "check --json --pit 0 2_2_2_2_2_2_2_2_2_2_2_2_2_2_2_2;_4_4_4_4_4_4_4_4_0_0_0_0_0_0_0_0"; do
  set -- $args
  argv=(); for a in "$@"; do argv+=("${a//_/ }"); done
  err=$($omweso "${argv[@]}" 2>&1 >/dev/full); rc=$?
  [[ $rc -ne 0 && "$err" == *"cannot write to standard output"* ]] && pass ||
    fail "omweso $args > /dev/full: status $rc, $err"
done

echo "== absurd option values"
for t in 100000 60000 2147483647 -1; do
  expect "generate --threads $t" 2 "--threads must be" $owaredb generate --max-seeds 3 --dir "$work/t" --threads $t
  expect "verify --threads $t" 2 "--threads must be" $owaredb verify --dir "$db" --threads $t
  expect "stats --threads $t" 2 "--threads must be" $owaredb stats --dir "$db" --threads $t
  expect "census --threads $t" 2 "--threads must be" $omweso census --seeds 5 --threads $t
done
# One rule for cache sizes (docs/library.md, Cache): 0 is the library's default, and a size
# whose bytes do not fit is refused, by probe and serve alike (it wrapped to 0 in serve).
out=$($owaredb probe --dir "$db" --cache-mb 0 "$start" 2>&1) && [[ "$out" == *"value"* ]] && pass ||
  fail "probe --cache-mb 0 (the default): $out"
for mb in 17592186044416 1048577 -1 1.5 abc; do
  expect "probe --cache-mb $mb" 2 "--cache-mb must be a whole number of MiB, 0..1048576" \
    $owaredb probe --dir "$db" --cache-mb $mb "$start"
  expect "serve --cache-mb $mb" 2 "--cache-mb must be a whole number of MiB, 0..1048576" \
    $owaredb serve --dir "$db" --cache-mb $mb
done
expect "census reversed range" 2 "reversed" $omweso census --seeds 30..2
expect "census of years" 2 "years" $omweso census --seeds 64
expect "generate --max-seeds 47" 1 "level 47 needs" $owaredb generate --max-seeds 47 --dir "$work/t47"
# --memory: a budget too small for the largest level stops before anything is solved (99 MB:
# 2 bits a position of level 22 and the 56 MB margin; one process has no request buffers)
expect "generate --memory 90M" 1 "level 22 needs 99 MB of memory in streamed-2bit mode; --memory is 90 MB" \
  $owaredb generate --max-seeds 22 --memory 90M --dir "$work/m100"
[[ ! -e "$work/m100/abapa-00.owdb" ]] && pass || fail "--memory refusal wrote a level"
expect "generate --mode in-memory --memory 160M" 1 "level 20 needs 411 MB of memory in in-memory mode (levels up to 19 are kept; --mode streamed needs less); --memory is 160 MB" \
  $owaredb generate --max-seeds 20 --memory 160M --mode in-memory --dir "$work/m160"
[[ ! -e "$work/m160/abapa-00.owdb" ]] && pass || fail "--memory refusal wrote a level"
expect "generate --mode bogus" 2 "--mode must be auto, in-memory, streamed, streamed-4bit or streamed-2bit, got 'bogus'" \
  $owaredb generate --max-seeds 3 --mode bogus --dir "$work/mb"
expect "generate --bounds --mode streamed" 2 "--bounds is built in memory only" \
  $owaredb generate --max-seeds 3 --bounds --mode streamed --dir "$work/mb"
expect "generate --compact, streamed" 2 "--compact needs every level in memory, and level 20 is streamed" \
  $owaredb generate --max-seeds 20 --compact --memory 160M --dir "$work/mb"
[[ ! -e "$work/mb/abapa-00.owdb" ]] && pass || fail "a refused --mode wrote a level"
for bad in abc 0 -5 1.5X 2GG; do
  expect "generate --memory $bad" 2 "--memory must be a size such as 600M" \
    $owaredb generate --max-seeds 3 --memory "$bad" --dir "$work/mbad"
done
out=$($owaredb generate --max-seeds 4 --memory 1.5G --dir "$work/m15" 2>&1) && pass || fail "--memory 1.5G: $out"
# A size without a unit is in bytes: said, not "--memory is 0 MB" (#52).
expect "generate --memory 1" 1 "; --memory is 1 byte (a size without a unit is in bytes: 600M, 20G)" \
  $owaredb generate --max-seeds 4 --memory 1 --dir "$work/m1"
expect "generate --max-seeds 49" 2 "--max-seeds" $owaredb generate --max-seeds 49 --dir "$work/t49"

echo "== positions: messages, exit status 2 everywhere, negative numbers are not options"
for cmd in "probe --dir $db" "show" "perft --depth 1 --position"; do
  expect "$cmd: negative pit" 2 "pit 0 (the 1st number) is negative" $owaredb $cmd "-1 1 1 1 1 1 1 1 1 1 1 1"
  expect "$cmd: 11 numbers" 2 "expected 12 pit counts" $owaredb $cmd "1 1 1 1 1 1 1 1 1 1 1"
  expect "$cmd: invalid UTF-8" 2 "is not a seed count" $owaredb $cmd $'\xff 1 1 1 1 1 1 1 1 1 1 1'
done
out=$($owaredb probe --json --dir "$db" "1 2 x" 2>/dev/null); rc=$?
[[ $rc -eq 2 ]] && python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert "error" in d' "$out" &&
  pass || fail "probe --json bad position: a JSON error object on stdout (status $rc): $out"

echo "== batch input: invalid UTF-8 and huge lines give valid, bounded JSON"
printf '\xff 1\n\xc3\x28 2\n1 1 1 "\\ 1\n\x01\x02\n%s\n' "$start" |
  $owaredb probe --batch --json --dir "$db" >"$work/utf8.json" 2>/dev/null
[[ $(wc -l <"$work/utf8.json") -eq 5 ]] && json_lines "$work/utf8.json" && pass ||
  fail "batch with invalid UTF-8: every line valid JSON"
head -c 20000000 /dev/zero | { cat; echo; echo "$start"; } |
  $owaredb probe --batch --json --dir "$db" >"$work/huge.json" 2>/dev/null
size=$(wc -c <"$work/huge.json")
[[ $size -lt 20000 && $(wc -l <"$work/huge.json") -eq 2 ]] && json_lines "$work/huge.json" &&
  grep -q "too long" "$work/huge.json" && pass ||
  fail "a 20 MB line: a short error record and the next line answered ($size bytes)"
head -c 5000000 /dev/urandom | $owaredb probe --batch --json --dir "$db" >"$work/random.json" 2>/dev/null
json_lines "$work/random.json" && pass || fail "random bytes: every line valid JSON"
head -c 200000 /dev/urandom | tr -d '\n' | { cat; echo; } | $owaredb probe --batch --dir "$db" >/dev/null 2>&1
[[ $? -eq 1 ]] && pass || fail "random bytes, text batch: status 1 (errors as records)"

echo "== a batch line over 4 KiB: the same error record from probe --batch and /api/batch"
long=$(printf '1 %.0s' $(seq 2500))  # 5000 bytes: a position of 2500 pits
printf '%s\n%s\n%s\r\n' "$start" "$long" "$start" >"$work/long.txt"
$owaredb probe --batch --json --dir "$db" <"$work/long.txt" >"$work/long-cli.json" 2>/dev/null
python3 - "$owaredb" "$db" "$work/long.txt" "$work/long-cli.json" <<'PY' && pass || fail "a long batch line: probe --batch and /api/batch differ"
import re, subprocess, sys, urllib.request
owaredb, db, body, cli = sys.argv[1:]
server = subprocess.Popen([owaredb, "serve", "--dir", db, "--port", "0"], stdout=subprocess.PIPE, text=True)
try:
    url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
    request = urllib.request.Request(url + "api/batch", data=open(body, "rb").read(),
                                     headers={"Content-Type": "text/plain"})
    served = urllib.request.urlopen(request, timeout=30).read().decode()
finally:
    server.terminate()
    server.wait()
expected = open(cli).read()
assert "line too long (more than 4096 bytes): not read" in expected.splitlines()[1], expected[:300]
assert served == expected, (served[:300], expected[:300])
PY

echo "== database directories: gaps, missing, odd, locked, planted links"
gap="$work/gap"; cp -r "$db" "$gap"; rm "$gap/abapa-05.owdb"
out=$($owaredb verify --dir "$gap" 2>&1); rc=$?
[[ $rc -ne 0 && "$out" == *"verify: FAILED"* && "$out" == *"level 5 is missing"* ]] && pass ||
  fail "verify with a gap: FAILED, status $rc: $out"
expect "stats --all-configurations with a gap" 1 "level 5 is missing" \
  $owaredb stats --all-configurations --dir "$gap"
out=$($owaredb stats --json --dir "$gap" 2>&1 >/dev/null); rc=$?
[[ $rc -eq 0 && "$out" == *"level 5 is missing"* ]] && pass ||
  fail "stats with a gap names the missing level (status $rc): $out"
expect "no such directory" 2 "no database directory" $owaredb stats --dir "$work/none"
touch "$work/afile"
expect "--dir names a file (stats)" 2 "is not a directory" $owaredb stats --dir "$work/afile"
expect "--dir names a file (generate)" 2 "is not a directory" $owaredb generate --max-seeds 3 --dir "$work/afile"
expect "--dir under a file (generate)" 2 "cannot create" $owaredb generate --max-seeds 3 --dir "$work/afile/sub"
ln -s loop "$work/loop"
expect "symlink loop" 2 "symbolic links" $owaredb stats --dir "$work/loop"
echo "not a level" >"$work/text.owdb"
expect "info on a text file" 1 "not an owaredb level file" $owaredb info "$work/text.owdb"
both="$work/both"; cp -r "$db" "$both"
$owaredb generate --rules awari --max-seeds 3 --dir "$both" >/dev/null 2>&1
expect "a directory with two rule sets needs --rules" 2 "abapa and awari" $owaredb stats --dir "$both"
awari="$work/awari"
$owaredb generate --rules awari --max-seeds 4 --dir "$awari" >/dev/null 2>&1
out=$($owaredb stats --json --dir "$awari" 2>&1); rc=$?
[[ $rc -eq 0 && "$out" == *'"rules":"awari"'* ]] && pass || fail "rules detected from an awari directory: $out"
odd="$work/odd"; cp -r "$db" "$odd"; rm "$odd/abapa-04.owdb"; mkdir "$odd/abapa-04.owdb"
out=$($owaredb verify --dir "$odd" 2>&1); rc=$?
[[ $rc -ne 0 && "$out" == *"UNREADABLE"* && "$out" != *"DAMAGED"* ]] && pass ||
  fail "a level that cannot be read is UNREADABLE, not DAMAGED: $out"

# planted symlink at a temp name: never followed
plant="$work/plant"; mkdir "$plant"; echo keep >"$work/victim"
ln -s "$work/victim" "$plant/abapa-03.owdb.tmp"
$owaredb generate --max-seeds 4 --dir "$plant" >/dev/null 2>&1
[[ "$(cat "$work/victim")" == keep && -f "$plant/abapa-03.owdb" && ! -L "$plant/abapa-03.owdb.tmp" ]] &&
  pass || fail "a planted temp-file symlink was followed or left"

# two writers: the second is refused with the first's PID; the files end up valid
conc="$work/conc"
$owaredb generate --max-seeds 13 --dir "$conc" --threads 1 >"$work/w1.log" 2>&1 &
first=$!
for _ in $(seq 50); do [[ -e "$conc/owaredb.lock" ]] && break; sleep 0.1; done
sleep 0.3
err=$($owaredb generate --max-seeds 13 --dir "$conc" --threads 1 --compact 2>&1 >/dev/null); rc=$?
wait $first; rc1=$?
[[ $rc -ne 0 && "$err" == *"is being written by process $first"* ]] && pass ||
  fail "second writer: status $rc, $err"
[[ $rc1 -eq 0 ]] && $owaredb verify --dir "$conc" >/dev/null 2>&1 && pass ||
  fail "first writer (status $rc1) left a directory that does not verify"
$owaredb stats --dir "$conc" >/dev/null 2>&1 && pass || fail "a reader is not blocked by the lock file"

echo "== a FIFO named like a level file or a checkpoint: an error naming it, never a wait"
# open() of a FIFO waits for a writer; every command must refuse it as not a regular file
# (a hang shows as status 124 after 15 s).
fifo="$work/fifo"; cp -r "$db" "$fifo"; rm "$fifo/abapa-05.owdb"; mkfifo "$fifo/abapa-05.owdb"
notreg="abapa-05.owdb: is not a regular file"
EXPECT_TIMEOUT=15 expect "probe, level 5 a FIFO" 1 "$notreg" \
  $owaredb probe --dir "$fifo" "1 1 1 0 0 0 1 1 0 0 0 0"
EXPECT_TIMEOUT=15 expect "info on a FIFO" 1 "$notreg" $owaredb info "$fifo/abapa-05.owdb"
EXPECT_TIMEOUT=15 expect "generate over a FIFO" 1 "$notreg" \
  $owaredb generate --max-seeds 8 --dir "$fifo"
[[ -p "$fifo/abapa-05.owdb" ]] && pass || fail "generate replaced the FIFO"
out=$(timeout 15 $owaredb verify --dir "$fifo" 2>&1); rc=$?
[[ $rc -eq 1 && "$out" == *"UNREADABLE"* && "$out" == *"$notreg"* ]] && pass ||
  fail "verify with a FIFO level: status $rc: ${out:0:300}"
out=$(timeout 15 $owaredb stats --dir "$fifo" 2>&1); rc=$?
[[ $rc -ne 124 && "$out" == *"$notreg"* ]] && pass ||
  fail "stats with a FIFO level: status $rc: ${out:0:300}"
ckpt="$work/fifo-checkpoint"; mkdir "$ckpt"; mkfifo "$ckpt/abapa-03.checkpoint"
EXPECT_TIMEOUT=15 expect "generate, a FIFO checkpoint" 1 "abapa-03.checkpoint: is not a regular file" \
  $owaredb generate --max-seeds 3 --dir "$ckpt"

echo "== probe --pv with a missing smaller level prints what it knows"
pv="$work/pv"; cp -r "$db" "$pv"; rm "$pv/abapa-02.owdb"
out=$($owaredb probe --pv --dir "$pv" "0 0 0 0 0 1 0 0 0 0 2 1" 2>&1); rc=$?
[[ $rc -eq 0 && "$out" == *"value -2"* && "$out" == *"cannot be given: not available"* ]] && pass ||
  fail "probe --pv with level 2 missing: status $rc: $out"

echo "== --compact over exact files says it keeps them"
out=$($owaredb generate --max-seeds 8 --dir "$db" --compact 2>&1); rc=$?
[[ $rc -eq 0 && "$out" == *"kept"* ]] && pass || fail "generate --compact over exact files: $out"

echo "== owaredb serve without owaredb-serve beside it names the missing program"
lone="$work/lone"; mkdir "$lone"; cp "$owaredb" "$lone/owaredb"
expect "serve, owaredb-serve missing" 1 "cannot start $lone/owaredb-serve: No such file" \
  "$lone/owaredb" serve --dir "$db"
# and with it, the arguments reach it (a usage error comes back as owaredb serve's own)
expect "serve --port 70000" 2 "owaredb serve: --port must be 0..65535" \
  "$owaredb" serve --dir "$db" --port 70000

echo "hostile: $passes passed, $failures failed"
((failures == 0))
