#!/usr/bin/env bash
# Our awari values against published data: Lincke's table of value distributions over
# every configuration (tests/data/lincke-awari-0-24.txt, from his 2002 thesis) must equal
# `owaredb stats --rules awari --all-configurations --json` for every level 0..14.
#   published_test.sh /path/to/owaredb
set -euo pipefail
owaredb=$1
here=$(cd "$(dirname "$0")" && pwd)
top=14
[[ "${OWAREDB_QUICK:-0}" != 0 ]] && top=11
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$owaredb" generate --rules awari --max-seeds $top --dir "$work/db" --threads 2 >"$work/gen.log" 2>&1 ||
  { cat "$work/gen.log"; exit 1; }
"$owaredb" stats --rules awari --dir "$work/db" --all-configurations --json >"$work/stats.json"
python3 "$here/compare_published.py" "$here/../data/lincke-awari-0-24.txt" "$work/stats.json" \
  --require-up-to $top
