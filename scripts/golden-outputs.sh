#!/usr/bin/env bash
# Everything a refactoring must leave byte-identical, written to OUT by one build, so that
# two builds can be compared with `diff -r`:
#   database files (values in memory, streamed, streamed-4bit, streamed-2bit and compact, bound files;
#   both rule sets; 2 MPI ranks where mpirun is there; 4 pits a side), probe --json --pv, stats --json (plain,
#   --all-configurations, --bounds), verify's output (both modes, timings removed) and the
#   omweso census.
#
#   scripts/golden-outputs.sh BUILD_DIR OUT [MAX_SEEDS (default 14)]
#   scripts/golden-outputs.sh build /tmp/before && ...change, rebuild... &&
#   scripts/golden-outputs.sh build /tmp/after && diff -r /tmp/before /tmp/after
set -euo pipefail
build=$(realpath "$1") out=$2 max=${3:-14}
owaredb=$build/tools/owaredb omweso=$build/tools/omweso/omweso
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1

# sha256 of every level file of a directory (not the lock, whose content is a PID).
digest() { (cd "$1" && sha256sum -- *.owdb) >"$out/$2.sha256"; }
# Timings vary from run to run; everything else verify prints must not.
untimed() { sed -E 's/[0-9]+\.[0-9]+ s\b/T s/g; s/in [0-9.]+ ?s/in T s/g'; }

for rules in abapa awari; do
  for mode in in-memory streamed streamed-4bit streamed-2bit; do
    "$owaredb" generate --rules "$rules" --max-seeds "$max" --mode "$mode" --threads 2 \
      --dir "$work/$rules-$mode" >/dev/null 2>&1
    digest "$work/$rules-$mode" "$rules-$mode"
  done
  "$owaredb" generate --rules "$rules" --max-seeds "$max" --bounds --threads 2 \
    --dir "$work/$rules-bounds" >/dev/null 2>&1
  (cd "$work/$rules-bounds" && sha256sum -- *.owdb) >"$out/$rules-bounds.sha256"
  if command -v mpirun >/dev/null; then
    mpirun -np 2 --oversubscribe "$owaredb" generate --rules "$rules" --max-seeds "$max" \
      --threads 1 --dir "$work/$rules-mpi2" >/dev/null 2>&1
    digest "$work/$rules-mpi2" "$rules-mpi2"
  fi
  dir=$work/$rules-in-memory
  "$owaredb" stats --dir "$dir" --json >"$out/$rules-stats.json"
  "$owaredb" stats --dir "$dir" --all-configurations --json >"$out/$rules-stats-all.json"
  "$owaredb" stats --dir "$work/$rules-bounds" --bounds --json >"$out/$rules-stats-bounds.json"
  for mode in in-memory streamed; do
    "$owaredb" verify --dir "$dir" --mode "$mode" 2>&1 | untimed >"$out/$rules-verify-$mode.txt"
  done
  for pos in "1 0 0 1 0 1 0 1 0 0 1 0" "2 0 3 1 0 2 1 0 2 0 1 0" "0 0 0 0 0 1 1 0 0 0 0 0" \
    "1 1 1 1 1 1 1 1 1 1 1 1"; do
    "$owaredb" probe --dir "$dir" --json --pv "$pos"
  done >"$out/$rules-probe.jsonl"
  printf '%s\n' "1 0 0 1 0 1 0 1 0 0 1 0" "0 0 0 0 0 0 0 0 0 0 0 0" "3 3 3 3 3 3 3 3 3 3 3 3" \
    "nonsense" | "$owaredb" probe --dir "$dir" --batch --json >"$out/$rules-batch.jsonl" || true
done
# Another board: 4 pits a side (levels 0..24, 8 numbers a position), in memory and streamed.
for mode in in-memory streamed; do
  "$owaredb" generate --rules awari --pits 4 --max-seeds 24 --mode "$mode" --threads 2 \
    --dir "$work/awari-p4-$mode" >/dev/null 2>&1
  digest "$work/awari-p4-$mode" "awari-p4-$mode"
done
"$owaredb" probe --dir "$work/awari-p4-in-memory" --pits 4 --json --pv "1 2 0 3 2 0 1 3" \
  >"$out/awari-p4-probe.json"
"$owaredb" generate --rules abapa --max-seeds "$max" --compact --threads 2 \
  --dir "$work/abapa-compact" >/dev/null 2>&1
digest "$work/abapa-compact" abapa-compact
"$omweso" census --seeds 10 --threads 2 2>/dev/null | sed -E 's/ [0-9]+\.[0-9]+ *$/ T/' \
  >"$out/omweso-census.txt"
# Messages name the scratch directory; progress lines depend on timing.
sed -i -E "s#${work}#WORK#g; /ETA/d" "$out"/*
echo "golden outputs of $build in $out: $(ls "$out" | wc -l) files"
