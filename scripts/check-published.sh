#!/usr/bin/env bash
# Re-checks owaredb against Lincke's published awari value distributions (2002 thesis;
# tests/data/lincke-awari-0-24.txt) for every level he tabulates, 0..24.
#   scripts/check-published.sh [--dir DIR] [--max-seeds N]   (defaults: awari-data, 24)
# Builds (or resumes) awari levels 0..N in DIR, then compares every level with the table
# and prints our levels above 24, if built, beside it. About 15 minutes for 0..24 on two
# cores and 1.6 GB of memory. Exit status 0 when every compared level agrees.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=awari-data
max=24
while [[ $# -gt 0 ]]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --max-seeds) max=$2; shift 2 ;;
    *) echo "usage: scripts/check-published.sh [--dir DIR] [--max-seeds N]" >&2; exit 2 ;;
  esac
done
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target owaredb
./build/tools/owaredb generate --rules awari --max-seeds "$max" --dir "$dir"
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
./build/tools/owaredb stats --rules awari --dir "$dir" --all-configurations --json >"$stats"
required=$((max < 24 ? max : 24))
python3 tests/tools/compare_published.py tests/data/lincke-awari-0-24.txt "$stats" \
  --require-up-to "$required" --beside
