#!/usr/bin/env bash
# Distributed generation (docs/distributed.md) under mpirun writes the one-process files
# byte for byte: levels 0..14 of abapa with -np 2 and -np 3, of awari with -np 4
# (oversubscribed on a small machine), whose levels the ranks split by row
# imbalance (oware/partition.hpp). A rank killed mid-level ends the whole job with a
# clear message and leaves no half-written level; a rerun finishes with the same bytes.
# verify runs on several ranks and still finds a damaged file; other commands refuse to.
#   mpi_test.sh /path/to/owaredb [max_seeds]
set -uo pipefail
owaredb=$1
quick=${OWAREDB_QUICK:-0}
max=${2:-$([[ $quick != 0 ]] && echo 12 || echo 14)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# CI runs as root in a container with 2 cores: Open MPI needs to be told that both are fine,
# and not to spin while it waits (the ranks share the cores).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpirun() { command mpirun --oversubscribe "$@"; }
command -v mpirun >/dev/null || { echo "FAIL: mpirun not found (scripts/install-deps.sh installs openmpi-bin)"; exit 1; }

# same <reference dir> <dir> <what> <levels>: every level file of the reference is in dir,
# equal, and no scratch file is left.
same() {
  local n=0
  for f in "$1"/*.owdb; do
    n=$((n + 1))
    cmp -s "$f" "$2/$(basename "$f")" || fail "$3: $(basename "$f") differs from one process"
  done
  ((n == $4 + 1)) || fail "$3: $n reference files"
  left=$(find "$2" -name '*.exits' -o -name '*.checkpoint' -o -name '*.tmp' | wc -l)
  ((left == 0)) || fail "$3: scratch files left: $(ls "$2")"
}

# The sanitizer runs (OWAREDB_QUICK) check one rule set and kill one rank.
rule_sets=$([[ $quick != 0 ]] && echo abapa || echo abapa awari)
victims=$([[ $quick != 0 ]] && echo 1 || echo 1 0)
for rules in $rule_sets; do
  ref="$work/$rules-one"
  "$owaredb" generate --rules "$rules" --max-seeds "$max" --dir "$ref" >"$work/out" 2>&1 ||
    fail "$rules: one-process run: $(tail -3 "$work/out")"
  # -np 2 and 3 for abapa; awari with 4 (the split does not depend on the rules).
  for np in $([[ $rules == awari ]] && echo 4 || echo 2 3); do
    dir="$work/$rules-np$np"
    mpirun -np "$np" "$owaredb" generate --rules "$rules" --max-seeds "$max" --dir "$dir" \
      --threads 1 >"$work/out" 2>&1 || fail "$rules -np $np: $(tail -5 "$work/out")"
    grep -q "level $max solved (distributed, $np ranks)" "$work/out" ||
      fail "$rules -np $np: level $max not distributed: $(tail -3 "$work/out")"
    grep -q "1 per pit (12 seeds): value +0 under $rules" "$work/out" ||
      fail "$rules -np $np: start position line missing"
    same "$ref" "$dir" "$rules -np $np" "$max"
    # A rerun finds every level and solves none.
    mpirun -np "$np" "$owaredb" generate --rules "$rules" --max-seeds "$max" --dir "$dir" \
      >"$work/out" 2>&1 || fail "$rules -np $np rerun: $(tail -3 "$work/out")"
    grep -q "solved" "$work/out" && fail "$rules -np $np rerun solved a level again"
  done
done

# Kill one rank (kill -9) while a level is being solved: the job must fail, say which rank
# ended, and leave only whole level files; a rerun (from the last finished level) ends
# with the one-process bytes. Once the rank that writes (0), once another. The reference
# is the one-process abapa run above.
ref="$work/abapa-one"
for victim in $victims; do
  dir="$work/kill-$victim"
  mpirun -np 2 "$owaredb" generate --max-seeds "$max" --dir "$dir" --threads 1 \
    >"$work/kill.out" 2>&1 &
  job=$!
  # Wait until level max-1 is written: the job is then inside the last level.
  for _ in $(seq 1 600); do
    [[ -e "$dir/abapa-$(printf %02d $((max - 1))).owdb" ]] && break
    sleep 0.1
  done
  ranks=($(pgrep -f -- "owaredb generate --max-seeds $max --dir $dir" | sort -n))
  pid=""
  for p in "${ranks[@]}"; do
    [[ "$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep '^OMPI_COMM_WORLD_RANK=')" == \
      "OMPI_COMM_WORLD_RANK=$victim" ]] && pid=$p
  done
  if [[ -z "$pid" ]]; then
    fail "kill: rank $victim not found (the job ended first?): $(tail -3 "$work/kill.out")"
    wait "$job"
    continue
  fi
  kill -9 "$pid"
  wait "$job"
  status=$?
  ((status != 0)) || fail "kill: the job succeeded although rank $victim was killed"
  grep -qi "signal 9\|killed" "$work/kill.out" ||
    fail "kill: no word of the killed rank: $(tail -5 "$work/kill.out")"
  pgrep -f -- "--dir $dir" >/dev/null && fail "kill: ranks left running after the job ended"
  [[ -e "$dir/abapa-$(printf %02d "$max").owdb" ]] && echo "note: the last level was written before the kill"
  for f in "$dir"/*.owdb; do
    cmp -s "$f" "$ref/$(basename "$f")" || fail "kill: $(basename "$f") left by the killed job differs"
  done
  mpirun -np 2 "$owaredb" generate --max-seeds "$max" --dir "$dir" --threads 1 \
    >"$work/out" 2>&1 || fail "kill: rerun failed: $(tail -5 "$work/out")"
  same "$ref" "$dir" "kill rank $victim, rerun" "$max"
done

# verify on two ranks: OK on a good set, FAILED on a damaged file.
dir="$work/abapa-np2"
mpirun -np 2 "$owaredb" verify --dir "$dir" >"$work/out" 2>&1 || fail "mpi verify: $(tail -3 "$work/out")"
grep -q "verify: OK" "$work/out" || fail "mpi verify did not say OK"
grep -q "level $max: .* values consistent" "$work/out" || fail "mpi verify: level $max not checked"
mpirun -np 2 "$owaredb" verify --dir "$dir" --mode streamed --memory 100M >"$work/out" 2>&1 ||
  fail "mpi verify --mode streamed: $(tail -3 "$work/out")"
grep -q "level $max: .* values consistent (streamed, " "$work/out" || fail "mpi verify --mode streamed: level $max not streamed"
f="$dir/abapa-$(printf %02d "$max").owdb"
size=$(stat -c %s "$f")
printf '\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc status=none
mpirun -np 2 "$owaredb" verify --dir "$dir" >"$work/out" 2>&1 && fail "mpi verify passed a damaged file"
grep -q "DAMAGED" "$work/out" || fail "mpi verify: damage not named: $(tail -3 "$work/out")"

# A rank that fails (here rank 1 cannot create its exit file: a directory is in the way)
# ends the whole job with its error and rank; the fixed rerun finishes.
dir="$work/fail"
mkdir -p "$dir/abapa-06.rank1.exits"
mpirun -np 2 "$owaredb" generate --max-seeds 7 --dir "$dir" --threads 1 >"$work/out" 2>&1 &&
  fail "a failing rank did not fail the job"
grep -q "rank 1 of 2: .*ending the MPI job" "$work/out" ||
  fail "no word of the failing rank: $(tail -5 "$work/out")"
grep -q "abapa-06.rank1.exits" "$work/out" || fail "the failing rank's error is not shown"
[[ -e "$dir/abapa-06.owdb" ]] && fail "level 6 written although a rank failed"
rmdir "$dir/abapa-06.rank1.exits"
mpirun -np 2 "$owaredb" generate --max-seeds 7 --dir "$dir" --threads 1 >"$work/out" 2>&1 ||
  fail "rerun after the failing rank: $(tail -3 "$work/out")"
for n in 06 07; do cmp -s "$dir/abapa-$n.owdb" "$ref/abapa-$n.owdb" || fail "level $n after the failed rank"; done

# What one process only does is refused before anything is written.
mpirun -np 2 "$owaredb" generate --bounds --max-seeds 6 --dir "$work/bounds" >"$work/out" 2>&1 &&
  fail "--bounds ran on 2 ranks"
grep -q -- "--bounds is built in one process only" "$work/out" || fail "no --bounds refusal: $(tail -3 "$work/out")"
[[ -e "$work/bounds" ]] && fail "--bounds on 2 ranks created its directory"

# Other commands refuse to run on several ranks.
mpirun -np 2 "$owaredb" stats --dir "$dir" >"$work/out" 2>&1 && fail "stats ran on 2 ranks"
grep -q "only generate and verify run on several MPI ranks" "$work/out" ||
  fail "no refusal message: $(tail -3 "$work/out")"

((failures == 0)) && echo "mpi: all checks passed"
exit $((failures > 0))
