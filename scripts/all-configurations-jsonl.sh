#!/usr/bin/env bash
# Writes docs/data/awari-all-configurations.jsonl (or OUT): one line per level of DIR, each
# the JSON object that `owaredb stats --rules awari --all-configurations --json` prints for
# it ({"seeds":n,"positions":C(n+11,11),"values":{"v":count,...}}), for whoever compares
# with Lincke's tables. Levels too large for --memory are streamed from their files.
#   scripts/all-configurations-jsonl.sh DIR [OUT] [--memory SIZE]
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/all-configurations-jsonl.sh DIR [OUT] [--memory SIZE]" >&2; exit 2; }
dir=$1; shift
out=docs/data/awari-all-configurations.jsonl
if [[ $# -ge 1 && $1 != --* ]]; then out=$1; shift; fi
owaredb=${OWAREDB:-build/tools/owaredb}
tmp=$(mktemp "$out.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$owaredb" stats --rules awari --dir "$dir" --all-configurations --json "$@" |
  python3 -c '
import json, sys
for level in json.load(sys.stdin)["levels"]:
    print(json.dumps(level, separators=(",", ":")))
' >"$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "$out: $(wc -l <"$out") levels"
