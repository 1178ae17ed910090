#!/usr/bin/env bash
# scripts/slurm-awari-48.sbatch stays true: its mpirun lines run here as written (on one
# machine without Slurm, mpirun's one rank a node is one rank), on the game of 1 seed a
# pit, and build the one-process bytes, verify them and probe the start position.
#   slurm_test.sh /path/to/owaredb
set -uo pipefail
owaredb=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
command -v mpirun >/dev/null || { echo "FAIL: mpirun not found (scripts/install-deps.sh installs openmpi-bin)"; exit 1; }

"$owaredb" generate --rules awari --max-seeds 12 --dir "$work/one" >/dev/null 2>&1 || fail "one-process run"
OWAREDB_DIR="$work/db" OWAREDB="$owaredb" OWAREDB_MAX_SEEDS=12 SLURM_CPUS_PER_TASK=2 \
  bash "$here/../../scripts/slurm-awari-48.sbatch" >"$work/out" 2>&1 || fail "the script failed: $(tail -5 "$work/out")"
n=0
for f in "$work/one"/*.owdb; do
  n=$((n + 1))
  cmp -s "$f" "$work/db/$(basename "$f")" || fail "$(basename "$f") differs from one process"
done
((n == 13)) || fail "$n reference files, not 13"
grep -q "verify: OK" "$work/out" || fail "no verify: OK: $(tail -5 "$work/out")"
grep -q "seeds 12, value +0 for the side to move" "$work/out" || fail "no start value: $(tail -5 "$work/out")"
echo "slurm: $failures failures"
((failures == 0))
