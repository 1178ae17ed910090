#!/usr/bin/env bash
# Quick start: installs what is missing, builds owaredb (Release), builds the default
# databases (abapa, levels 0..20, in ./owaredb-data) and probes a position from them.
# Pass generate options through, e.g. scripts/demo.sh --rules awari --max-seeds 24.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
./build/tools/owaredb generate "$@"
rules=abapa
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [[ "${args[i]}" == --rules ]] && rules=${args[i + 1]}; done
dir=owaredb-data
for ((i = 0; i < ${#args[@]}; i++)); do [[ "${args[i]}" == --dir ]] && dir=${args[i + 1]}; done
echo
./build/tools/owaredb probe --rules "$rules" --dir "$dir" --pv "1 1 1 1 1 1 1 1 1 1 1 1"
