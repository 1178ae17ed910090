#!/usr/bin/env bash
# Writes docs/data/awari-all-configurations.jsonl (or OUT): one line per level of DIR, each
# the JSON object that `owaredb stats --rules awari --all-configurations --json` prints for
# it ({"seeds":n,"positions":C(n+11,11),"values":{"v":count,...}}), for whoever compares
# with Lincke's tables. Levels too large for --memory are streamed from their files.
# With --values-from N and/or --values-up-to N (a long count split over several runs), only
# those levels are counted and their lines replace the same levels' lines of OUT; OUT's
# other lines are kept, in order of seeds.
#   scripts/all-configurations-jsonl.sh DIR [OUT] [--memory SIZE] [--values-from N] [--values-up-to N]
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/all-configurations-jsonl.sh DIR [OUT] [--memory SIZE] [--values-from N] [--values-up-to N]" >&2; exit 2; }
dir=$1; shift
out=docs/data/awari-all-configurations.jsonl
if [[ $# -ge 1 && $1 != --* ]]; then out=$1; shift; fi
merge=0
for a in "$@"; do [[ $a == --values-from* || $a == --values-up-to* ]] && merge=1; done
owaredb=${OWAREDB:-build/tools/owaredb}
tmp=$(mktemp "$out.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$owaredb" stats --rules awari --dir "$dir" --all-configurations --json "$@" |
  MERGE_FROM=$([[ $merge == 1 && -f $out ]] && echo "$out" || true) python3 -c '
import json, os, sys
lines = {}
kept = os.environ.get("MERGE_FROM")
if kept:
    for text in open(kept):
        if text.strip():
            lines[json.loads(text)["seeds"]] = text.rstrip("\n")
for level in json.load(sys.stdin)["levels"]:
    lines[level["seeds"]] = json.dumps(level, separators=(",", ":"))
for seeds in sorted(lines):
    print(lines[seeds])
' >"$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "$out: $(wc -l <"$out") levels"
