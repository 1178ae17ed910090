#!/usr/bin/env bash
# How generation scales past 2 cores, in one run on a machine that has the cores: builds
# levels 0..N-1 of RULES with every core (the files the benchmarks start from), then
#   scripts/bench-threads.sh: level N in memory and streamed with each of THREADS threads;
#   scripts/bench-mpi.sh:     level M (default N - 1) by `mpirun -np K` for each K of NP,
#                             one thread a rank, against one streamed process.
# Each part stops after its share of LIMIT seconds (timeout), so that one slow part does not
# take the other's results with it; every run checks that it wrote the same bytes.
#
#   scripts/bench-scaling.sh DIR N [THREADS ("1 2 4 8 16")] [NP ("2 4")] [M (N - 1)]
#   RULES=awari LIMIT=480 scripts/bench-scaling.sh /tmp/scaling 22
# RULES (awari), OWAREDB, MPIRUN: as bench-threads.sh and bench-mpi.sh take them; NO_MPI=1
# leaves the mpirun part out.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1 n=$2 thread_counts=${3:-1 2 4 8 16} nps=${4:-2 4} m=${5:-$(($2 - 1))}
export RULES=${RULES:-awari}
limit=${LIMIT:-480}
read -ra owaredb <<<"${OWAREDB:-$PWD/${BUILD:-build}/tools/owaredb}"
start=$(date +%s)
echo "== levels 0..$((n - 1)) of $RULES with $(nproc) threads into $dir"
"${owaredb[@]}" generate --rules "$RULES" --max-seeds $((n - 1)) --dir "$dir" --threads "$(nproc)" \
  --checkpoint-minutes -1 >"$dir.generate.out" 2>&1 ||
  { tail -5 "$dir.generate.out"; exit 1; }
grep -E '^total:' "$dir.generate.out"
left() { echo $((limit - ($(date +%s) - start))); }
# The threads part gets two thirds of what is left, the mpirun part the rest.
status=0
timeout $(($(left) * 2 / 3)) scripts/bench-threads.sh "$dir" "$n" "$thread_counts" || status=$?
((status == 124)) && echo "(bench-threads.sh stopped at its time limit)"
if [[ -z ${NO_MPI:-} ]]; then
  timeout "$(left)" scripts/bench-mpi.sh "$dir" "$m" "$m" "$nps" 1 || status=$?
  ((status == 124)) && echo "(bench-mpi.sh stopped at its time limit)"
fi
exit "$status"
