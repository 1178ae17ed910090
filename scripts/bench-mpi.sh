#!/usr/bin/env bash
# Distributed generation on one machine (oversubscribed: it shows the overhead of ranks,
# not a speed-up): levels FROM..TO built by `mpirun -np K` for each K, over the files of
# levels 0..FROM-1 (hard links from DIR), and once by one process (--mode streamed) for
# comparison. Prints per level and K: seconds, propagation messages and bytes sent per
# position, peak RSS of rank 0 (which gathers and writes each level) and of the largest
# other rank; checks that every run wrote the same bytes (and DIR's, where DIR has the level).
# RULES (abapa): the rule set; OWAREDB: the command that runs owaredb (default
# build/tools/owaredb; a loader and its arguments may come first); MPIRUN (mpirun): the
# launcher, with any arguments of its own; REFERENCE=0: no one-process run.
#
#   scripts/bench-mpi.sh DIR FROM TO [K list (default "1 2 4")] [threads per rank (1)]
#   scripts/bench-mpi.sh owaredb-data 18 22
#   MEMORY_1=330M MEMORY_2=240M MEMORY_4=195M scripts/bench-mpi.sh owaredb-data 22 22
# MEMORY_<K>: the --memory (per rank) of the run with K ranks, e.g. the least it accepts,
# to show how a rank's footprint shrinks with K (without it the request buffers take what
# the default budget leaves).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh
dir=$1 from=$2 to=$3 ks=${4:-1 2 4} threads=${5:-1}
read -ra owaredb <<<"${OWAREDB:-$PWD/${BUILD:-build}/tools/owaredb}"
read -ra mpirun <<<"${MPIRUN:-mpirun}"
rules=${RULES:-abapa}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
bench_machine
echo "== $rules levels $from..$to over $dir's 0..$((from - 1)); $threads thread(s) per rank"
bench_require_levels "$dir" "$rules" "$from"
link_smaller() { bench_link_levels "$dir" "$rules" "$from" "$1"; }
# The one-process reference: streamed mode, the same engine without ranks (REFERENCE=0
# leaves it out where it was measured already; DIR's files, if any, still check the bytes).
ref="$work/one"
if [[ ${REFERENCE:-1} != 0 ]]; then
  link_smaller "$ref"
  "${owaredb[@]}" generate --rules "$rules" --max-seeds "$to" --dir "$ref" --mode streamed \
    --threads "$threads" --checkpoint-minutes -1 >"$work/one.out" 2>/dev/null
  echo
  echo "one process (streamed, $threads thread(s)):"
  awk -v f="$from" '$1 ~ /^[0-9]+$/ && $1 >= f && $2 == "streamed" {printf "  level %s: %s s, peak %s MiB\n", $1, $4, $7}' "$work/one.out"
fi
for k in $ks; do
  d="$work/np$k"
  link_smaller "$d"
  memory_var=MEMORY_$k
  extra=()
  [[ -n "${!memory_var:-}" ]] && extra=(--memory "${!memory_var}")
  start=$(date +%s%N)
  "${mpirun[@]}" --oversubscribe -np "$k" "${owaredb[@]}" generate --rules "$rules" --max-seeds "$to" \
    --dir "$d" --threads "$threads" "${extra[@]}" >"$work/np$k.out" 2>"$work/np$k.err" ||
    { echo "mpirun -np $k failed:"; tail -5 "$work/np$k.err"; exit 1; }
  wall=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN {printf "%.2f", (b - a) / 1e9}')
  echo
  echo "mpirun -np $k ($threads thread(s) per rank${extra[1]:+, --memory ${extra[1]}}), wall $wall s for levels $from..$to:"
  # The summary table's columns, by its header (fields split on blanks; "mpi x K" is three).
  grep -q '^level  *mode  *positions  *seconds  *positions/s  *write s  *peak MiB r0/other  *file KiB  *bits/pos  *cpu s  *msgs/pos ' "$work/np$k.out" ||
    { echo "generate's table has other columns than this script reads:"; grep '^level ' "$work/np$k.out"; exit 1; }
  awk -v f="$from" '$1 ~ /^[0-9]+$/ && $1 >= f && $2 == "mpi" {
      printf "  level %s: %s s (cpu %s s, rank 0), %.3f messages/position (%.1f bytes/position), peak MiB rank 0 / other: %s / %s\n",
             $1, $6, $14, $15, 8 * $15, $9, $11 }' "$work/np$k.out"
  for n in $(seq "$from" "$to"); do
    f=$(printf '%s-%02d.owdb' "$rules" "$n")
    [[ -f "$ref/$f" ]] && { cmp -s "$ref/$f" "$d/$f" || { echo "DIFFERENT: $f of -np $k"; exit 1; }; }
    [[ -f "$dir/$f" ]] && { cmp -s "$dir/$f" "$d/$f" || { echo "DIFFERENT from $dir: $f"; exit 1; }; }
  done
done
echo
echo "all runs wrote the same bytes"
